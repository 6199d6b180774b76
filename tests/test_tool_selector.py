"""The contextual tool selector: on small hand-made catalogues (the right tool wins, `always`
stays, `min_score` holds, the recent window counts, nothing is ranked at or under
`max_tools`), its cached index (a changed, removed or added tool; a restart embeds
nothing), an embeddings endpoint that fails, and end to end through `ctxchat`."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import selector_tools
from cli_support import ctxchat, write_config
from fakeopenai import FakeOpenAI, ToolCalls
from repl_support import Repls, quit_, turn

from ctxchat.core.agent import Agent
from ctxchat.core.context import RunContext
from ctxchat.core.model_types import Event, ProviderProgress, ProviderWarning
from ctxchat.core.provider import ProviderEnv
from ctxchat.core.session import Session
from ctxchat.core.settings import EmbeddingSettings, ModelSettings
from ctxchat.core.tools import Tool
from ctxchat.providers.history.in_memory import InMemoryHistoryProvider
from ctxchat.providers.selection.provider import ToolSelectorProvider
from ctxchat.services.embeddings import OpenAIEmbeddings
from ctxchat.testing import ScriptedModel

TESTS = Path(__file__).resolve().parent


def tool(name: str) -> Tool:
    function = getattr(selector_tools, name)
    return Tool(name, function.__doc__ or name, function, {"type": "object", "properties": {}})


def catalogue(env: ProviderEnv, names: list[str] | None = None) -> None:
    for name in names or selector_tools.NAMES:
        env.tools.register(tool(name))


def advertised(context: RunContext) -> list[str]:
    return [t.name for t in context.all_tools()]


def turn_of(
    agent: Agent, session: Session, text: str, events: list[Event] | None = None
) -> RunContext:
    sink = events.append if events is not None else (lambda _e: None)
    return asyncio.run(agent.run(session, text, on_event=sink))


@pytest.fixture
def env(tmp_path: Path) -> ProviderEnv:
    return ProviderEnv(data_dir=tmp_path / "data")


def selector(env: ProviderEnv, **options: Any) -> Agent:
    options.setdefault("ranker", "lexical")
    chooser = ToolSelectorProvider("selector", ToolSelectorProvider.Options(**options), env=env)
    return Agent(model=ScriptedModel(), providers=[InMemoryHistoryProvider("history"), chooser])


def test_the_right_tool_wins_and_only_the_top_k_are_offered(env: ProviderEnv) -> None:
    catalogue(env)
    agent = selector(env, max_tools=3)
    context = turn_of(agent, Session(), "What's the weather like in Oslo tomorrow?")
    names = advertised(context)
    # At most the top 3: tools sharing no word with the conversation are not offered.
    assert 1 <= len(names) <= 3
    assert names[0] == "get_weather"
    assert context.metadata["selector"]["ranked"] is True


def test_always_tools_stay_and_min_score_drops_weak_matches(env: ProviderEnv) -> None:
    catalogue(env)
    agent = selector(env, max_tools=3, always=["play_music"], min_score=0.5)
    names = advertised(turn_of(agent, Session(), "Convert 100 dollars to euros"))
    assert names[0] == "convert_currency"
    assert "play_music" in names  # always, though it scores nothing
    assert len(names) < 4  # tools scoring under the threshold were left out


def test_the_recent_window_decides_what_the_new_input_leaves_open(env: ProviderEnv) -> None:
    catalogue(env)
    agent = selector(env, max_tools=1)
    session = Session()
    turn_of(agent, session, "Please book me a flight to Rome")
    assert advertised(turn_of(agent, session, "Now cancel it")) == ["cancel_flight"]
    alone = selector(env, max_tools=1, recent_messages=0)
    other = Session()
    turn_of(alone, other, "Please book me a flight to Rome")
    # Without the earlier message the two cancel tools tie; the one listed first wins.
    assert advertised(turn_of(alone, other, "Now cancel it")) != []


def test_no_ranking_at_or_under_max_tools(env: ProviderEnv, fake_openai: FakeOpenAI) -> None:
    catalogue(env, ["get_weather", "book_flight", "play_music"])
    agent = selector(env, max_tools=3, ranker="embedding")
    env.embeddings = None  # nothing to embed with, and nothing asks
    context = turn_of(agent, Session(), "hello")
    assert sorted(advertised(context)) == ["book_flight", "get_weather", "play_music"]
    assert context.metadata["selector"]["ranked"] is False
    assert fake_openai.embedding_requests() == []


def embedded_texts(fake_openai: FakeOpenAI) -> list[str]:
    texts: list[str] = []
    for request in fake_openai.embedding_requests():
        value = request.body["input"]
        texts.extend([value] if isinstance(value, str) else value)
    return texts


def embedding_env(tmp_path: Path, model_settings: ModelSettings) -> ProviderEnv:
    env = ProviderEnv(data_dir=tmp_path / "data")
    env.embeddings = OpenAIEmbeddings(EmbeddingSettings(model="fake-embed"), model_settings)
    return env


def test_the_index_follows_changed_added_and_removed_tools_and_survives_a_restart(
    tmp_path: Path, model_settings: ModelSettings, fake_openai: FakeOpenAI
) -> None:
    env = embedding_env(tmp_path, model_settings)
    catalogue(env)
    agent = selector(env, max_tools=2, ranker="embedding")
    turn_of(agent, Session(), "weather in Paris")
    first = embedded_texts(fake_openai)
    # Every tool embedded once: its text, and its name as words.
    assert sum(text.startswith("get weather:") for text in first) == 1
    assert first.count("get weather") == 1

    fake_openai.clear()
    turn_of(agent, Session(), "a song please")
    assert not any("get weather" in text for text in embedded_texts(fake_openai))

    # A changed description is embedded again; a removed tool is never offered; an added
    # one is embedded.
    env.tools.remove("play_music")
    env.tools.remove("stock_price")
    changed = tool("stock_price")
    env.tools.register(
        Tool("stock_price", "Share prices on the exchange", changed.function, changed.parameters)
    )
    env.tools.register(Tool("roll_dice", "Roll a die for a random number", lambda: "4"))
    fake_openai.clear()
    context = turn_of(agent, Session(), "play a song")
    again = embedded_texts(fake_openai)
    assert sum("stock price" in t for t in again) == 1  # its text; its name is unchanged
    assert sum("roll dice" in t for t in again) == 2  # its text and its name
    assert not any("get weather" in t for t in again)
    assert "play_music" not in advertised(context)

    # A restart (a new process: a new provider over the same data dir) embeds no tool.
    fake_openai.clear()
    restarted = embedding_env(tmp_path, model_settings)
    catalogue(
        restarted, [n for n in selector_tools.NAMES if n not in ("play_music", "stock_price")]
    )
    restarted.tools.register(
        Tool("stock_price", "Share prices on the exchange", changed.function, changed.parameters)
    )
    restarted.tools.register(Tool("roll_dice", "Roll a die for a random number", lambda: "4"))
    turn_of(selector(restarted, max_tools=2, ranker="embedding"), Session(), "weather?")
    assert [t for t in embedded_texts(fake_openai) if "get weather" in t] == []


def test_embedding_a_large_catalogue_reports_its_progress_once(
    tmp_path: Path, model_settings: ModelSettings, fake_openai: FakeOpenAI
) -> None:
    env = embedding_env(tmp_path, model_settings)
    for n in range(150):
        env.tools.register(Tool(f"tool_{n}", f"does chore number {n}", lambda: "ok"))
    agent = selector(env, max_tools=3, ranker="embedding")
    events: list[Event] = []
    turn_of(agent, Session(), "chore number 7", events)
    progress = [e for e in events if isinstance(e, ProviderProgress)]
    assert len(progress) > 1  # a bar that moves: several batches
    assert {e.source_id for e in progress} == {"selector"}
    assert {e.label for e in progress} == {"embedding tools"}
    assert [e.done for e in progress] == sorted(e.done for e in progress)
    assert (progress[-1].done, progress[-1].total) == (150, 150)
    # Cached: the next turn, and a new process, embed nothing and report nothing.
    again: list[Event] = []
    turn_of(selector(env, max_tools=3, ranker="embedding"), Session(), "chore 9", again)
    assert not any(isinstance(e, ProviderProgress) for e in again)


def test_a_failing_embeddings_endpoint_falls_back_to_words_for_the_turn(
    tmp_path: Path, model_settings: ModelSettings, fake_openai: FakeOpenAI
) -> None:
    env = embedding_env(tmp_path, model_settings)
    catalogue(env)
    fake_openai.fail_embeddings_with = 500
    events: list[Event] = []
    context = turn_of(
        selector(env, max_tools=2, ranker="hybrid"), Session(), "weather in Rome", events
    )
    assert context.error is None
    assert advertised(context)[0] == "get_weather"
    warnings = [e.message for e in events if isinstance(e, ProviderWarning)]
    assert len(warnings) == 1
    assert "ranked by words this turn" in warnings[0]


def test_a_model_that_changes_size_under_its_name_is_embedded_again_without_a_warning(
    tmp_path: Path, model_settings: ModelSettings, fake_openai: FakeOpenAI
) -> None:
    """Issue 21, item 10: the cached tool vectors of the old size made "ranking by meaning
    failed" on every turn."""
    env = embedding_env(tmp_path, model_settings)
    catalogue(env)
    turn_of(selector(env, max_tools=2, ranker="embedding"), Session(), "weather in Paris")
    fake_openai.embedding_dim = 96  # the next process meets a model of another size
    for _ in range(2):
        restarted = embedding_env(tmp_path, model_settings)
        catalogue(restarted)
        events: list[Event] = []
        fake_openai.clear()
        context = turn_of(
            selector(restarted, max_tools=2, ranker="embedding"), Session(), "weather?", events
        )
        assert [e for e in events if isinstance(e, ProviderWarning)] == []
        assert advertised(context)[0] == "get_weather"
    # The second run found the new size in the cache: only its query was embedded.
    assert embedded_texts(fake_openai) == ["weather?"]


CONFIG = """
[[providers]]
type = "sql_history"

[[providers]]
type = "tools"
builtins = []
advertise = false
python = [{python}]

[[providers]]
type = "tool_selector"
max_tools = 3
ranker = "lexical"
"""


@pytest.fixture
def selector_home(cli_env: dict[str, str], ctxchat_home: Path) -> dict[str, str]:
    python = ", ".join(
        f'{{ ref = "selector_tools:{n}", side_effects = false }}' for n in selector_tools.NAMES
    )
    write_config(ctxchat_home, CONFIG.format(python=python))
    return {**cli_env, "PYTHONPATH": str(TESTS)}


def test_the_request_carries_only_the_selected_tools(
    selector_home: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    fake_openai.enqueue(ToolCalls([("get_weather", {"city": "Oslo"})]))
    done = ctxchat("run", "What's the weather in Oslo?", env=selector_home)
    assert done.returncode == 0, done.stderr
    first = fake_openai.chat_requests()[0]
    assert first.tool_names[0] == "get_weather"
    assert len(first.tool_names) <= 3  # of the twelve in the catalogue
    # The tool ran and its result reached the next request.
    assert "sunny in Oslo" in json.dumps(fake_openai.chat_requests()[1].messages)


@pytest.fixture
def repl(selector_home: dict[str, str]) -> Iterator[Repls]:
    repls = Repls(selector_home)
    yield repls
    repls.close()


def test_slash_tools_shows_the_last_turns_scores(repl: Repls, fake_openai: FakeOpenAI) -> None:
    child = repl()
    turn(child, "Convert 20 euros to yen")
    child.send("/tools\r")
    child.expect(r"tool\s+score\s+source")
    child.expect(r"\* convert_currency\s+[\d.]+\s")
    child.expect_exact("offered to the model")
    assert quit_(child) == 0


@pytest.fixture
def many_tools_home(cli_env: dict[str, str], ctxchat_home: Path, tmp_path: Path) -> dict[str, str]:
    """A catalogue of 200 Python tools ranked by meaning: embedding it takes several batches."""
    module = tmp_path / "many_tools.py"
    template = 'def chore_{n}(item: str) -> str:\n    """Handle chore {n}."""\n    return item\n'
    module.write_text("\n\n".join(template.format(n=n) for n in range(200)))
    python = ", ".join(f'"many_tools:chore_{n}"' for n in range(200))
    config = CONFIG.format(python=python).replace('ranker = "lexical"', 'ranker = "embedding"')
    write_config(ctxchat_home, f'[embeddings]\nmodel = "fake-embed"\n{config}')
    return {**cli_env, "PYTHONPATH": str(tmp_path)}


def test_embedding_progress_shows_on_a_terminal_and_never_on_a_pipe(
    many_tools_home: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    import pexpect
    from conftest import ctxchat_executable

    piped = ctxchat("run", "chore 5", env=many_tools_home)
    assert piped.returncode == 0, piped.stderr
    assert "embedding tools" not in piped.stderr + piped.stdout
    # A new catalogue identity (another embedding model): embedded again, on a terminal.
    env = many_tools_home
    home = Path(env["CTXCHAT_HOME"])
    (home / "config.toml").write_text(
        (home / "config.toml").read_text().replace("fake-embed", "fake-embed-2")
    )
    child = pexpect.spawn(
        ctxchat_executable(), ["run", "chore 6"], env=env, encoding="utf-8", timeout=30
    )
    child.expect_exact("embedding tools ━")  # the one progress display: rich's bar
    child.expect_exact("64/200")
    child.expect_exact("echo: chore 6")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
