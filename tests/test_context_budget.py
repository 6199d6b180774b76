"""The context budget: every request the server receives fits the window, trimmed in the
documented order (oldest history, then ranked items by priority; never the input or the
system prompt); an input too large fails before any model call; the window comes from the
config, else from what the endpoint reports, else the default."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from cli_support import (
    assert_clean_error,
    ctxchat,
    session_documents,
    write_config,
)
from fakeopenai import Error, FakeOpenAI, Text

from ctxchat.core.agent import Agent, TurnFailed
from ctxchat.core.budget import InputTooLarge
from ctxchat.core.context import RunContext
from ctxchat.core.provider import AgentView, ContextProvider
from ctxchat.core.session import Session
from ctxchat.core.settings import ModelSettings
from ctxchat.core.tokens import count_message_tokens, count_tool_tokens
from ctxchat.core.tools import Tool
from ctxchat.providers.history.in_memory import InMemoryHistoryProvider
from ctxchat.services.model_client import OpenAIChatModel
from ctxchat.services.model_info import CACHE_FILE
from ctxchat.testing import ScriptedModel

WORDS = "lorem ipsum dolor sit amet consectetur adipiscing elit " * 6  # ~90 tokens


class Catalogue(ContextProvider):
    """Advertises tools and, over budget, gives up the last of them first."""

    def __init__(self, source_id: str, count: int, *, priority: int = 0) -> None:
        super().__init__(source_id)
        self.tools = [
            Tool(f"{source_id}_{i}", f"does thing number {i} " + "with care " * 20, lambda: "ok")
            for i in range(count)
        ]
        self.priority = priority

    async def before_run(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        context.extend_tools(self.source_id, self.tools)

        def shrink(tokens: int) -> bool:
            mine = context.tools.get(self.source_id, [])
            if not mine:
                return False
            mine.pop()
            return True

        context.on_over_budget(self.source_id, shrink, priority=self.priority)


def run(agent: Agent, session: Session, text: str) -> RunContext:
    return asyncio.run(agent.run(session, text))


def test_old_history_goes_first_in_whole_turns_and_the_request_fits() -> None:
    model = ScriptedModel(window=900)
    agent = Agent(model=model, providers=[InMemoryHistoryProvider("history")])
    session = Session()
    for n in range(12):
        run(agent, session, f"question {n} {WORDS}")
    limits = asyncio.run(model.limits())
    for request in model.requests:
        assert (
            sum(count_message_tokens(m, limits.count_text) for m in request.messages) <= limits.room
        )
    last = model.requests[-1].messages
    users = [m.text.split()[1] for m in last if m.role == "user"]
    assert users[-1] == "11"  # the new input is always there
    assert users == [str(n) for n in range(12 - len(users), 12)]  # the newest, in order
    roles = [m.role for m in last[1:]]
    assert roles == ["user", "assistant"] * (len(users) - 1) + ["user"]  # whole turns
    report = run(agent, session, "and now?").budget
    assert report is not None
    assert report.trimmed["history"] > 0
    assert report.window == 900
    # The stored history is untouched: only the request was trimmed.
    assert len(session.state["history"]["messages"]) == 2 * 13


def test_ranked_items_go_after_the_history_lowest_priority_first() -> None:
    model = ScriptedModel(window=1200)
    low, high = Catalogue("low", 6, priority=0), Catalogue("high", 6, priority=5)
    agent = Agent(model=model, providers=[InMemoryHistoryProvider("history"), high, low])
    session = Session()
    run(agent, session, f"first {WORDS}")
    context = run(agent, session, "second")
    report = context.budget
    assert report is not None
    assert report.trimmed.get("history") == 2  # the earlier turn went first
    assert "high" not in report.trimmed or report.trimmed["low"] == 6  # low goes first
    assert report.trimmed["low"] > 0
    limits = asyncio.run(model.limits())
    request = model.requests[-1]
    used = sum(count_message_tokens(m, limits.count_text) for m in request.messages)
    used += sum(count_tool_tokens(t, limits.count_text) for t in request.tools)
    assert used <= limits.room


def test_an_input_that_cannot_fit_fails_before_any_model_call() -> None:
    model = ScriptedModel(window=300)
    agent = Agent(model=model, providers=[InMemoryHistoryProvider("history")])
    session = Session()
    with pytest.raises(TurnFailed) as failed:
        run(agent, session, WORDS * 10)
    assert isinstance(failed.value.cause, InputTooLarge)
    assert "over the" in failed.value.message
    assert failed.value.exit_code == 2
    assert model.requests == []
    assert session.state["history"].get("messages", []) == []


def test_an_oversized_input_in_a_script_is_exit_2_and_stores_nothing(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    write_config(ctxchat_home, "[model]\ncontext_window = 300\n")
    result = ctxchat("run", "--json", WORDS * 10, env=cli_env)
    assert_clean_error(result, 2, "the request is", "tokens")
    assert fake_openai.chat_requests() == []
    # Nothing stored: no session (a session exists once a turn of it is stored); the
    # audit keeps its row of the failed turn, an orphan `sessions prune --orphans` lists.
    assert session_documents(ctxchat_home) == []
    orphans = ctxchat("sessions", "prune", "--orphans", "--dry-run", env=cli_env)
    assert "audit: 1 record" in orphans.stdout


@pytest.mark.parametrize(
    ("server", "expected"),
    [("vllm", 32_768), ("llama.cpp", 16_384), ("ollama", 6_000), (None, 8192)],
)
def test_the_window_is_what_the_endpoint_reports_asked_once(
    fake_openai: FakeOpenAI,
    model_settings: ModelSettings,
    ctxchat_home: Path,
    server: str | None,
    expected: int,
) -> None:
    fake_openai.imitate = server
    fake_openai.context_size = expected
    limits = asyncio.run(OpenAIChatModel(model_settings).limits())
    assert limits.window == expected
    assert limits.source == ("default" if server is None else "endpoint")
    assert (limits.counter is not None) == (server == "llama.cpp")
    if server == "llama.cpp":
        assert limits.count_text("one, two three") == 4  # the server's count, not an estimate
    asked = len(fake_openai.requests)
    # Remembered on disk: a new process (a new model object) asks nothing.
    again = asyncio.run(OpenAIChatModel(model_settings).limits())
    assert again.window == expected
    assert len(fake_openai.requests) == asked
    assert (ctxchat_home / CACHE_FILE).exists()
    # The config wins over anything the endpoint says.
    configured = OpenAIChatModel(model_settings, context_window=2048)
    assert asyncio.run(configured.limits()).source == "config"


def test_a_long_conversation_never_overflows_a_small_strict_server(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    """llama.cpp with a small context refuses any longer prompt: fifteen long turns through
    the default pipeline (history, summary, memory, tools) are never refused, the turns
    that fell out are folded into the summary, and the last request carries it."""
    fake_openai.imitate = "llama.cpp"
    fake_openai.context_size = 1024
    fake_openai.strict_context = True
    for n in range(15):
        resume = ["-c"] if n else []
        done = ctxchat("run", *resume, f"question {n}: {WORDS * 2}", env=cli_env)
        assert done.returncode == 0, done.stderr
    assert fake_openai.refused == 0
    requests = fake_openai.chat_requests()
    folds = [r for r in requests if "running summary" in str(r.messages[0]["content"])]
    assert folds
    last = [r for r in requests if r not in folds][-1]
    assert last.last_user_text.startswith("question 14:")
    assert '<context source="summary">' in str(last.messages[0]["content"])


def test_config_show_says_which_window_applies(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    fake_openai.imitate = "vllm"
    fake_openai.context_size = 32_768
    shown = ctxchat("config", "show", env=cli_env)
    assert shown.returncode == 0, shown.stderr
    assert "# context window: 32,768 tokens (reported by the endpoint)" in shown.stdout
    write_config(ctxchat_home, "[model]\ncontext_window = 4096\n")
    shown = ctxchat("config", "show", env=cli_env)
    assert "# context window: 4,096 tokens ([model] context_window), 512 of them" in shown.stdout


def test_a_server_that_refuses_for_size_says_what_was_sent_and_what_to_set(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    fake_openai.enqueue(
        Error(
            400, "This model's maximum context length is 512 tokens", code="context_length_exceeded"
        )
    )
    result = ctxchat("run", "hello", env=cli_env)
    line = assert_clean_error(result, 2, "refused the request", "tokens were sent")
    assert "context_window" in line


def test_memory_facts_give_way_before_the_input(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    for n in range(20):
        fake_openai.enqueue(Text("ok"))
        assert ctxchat("run", f"I love hobby number {n} {'x' * 60}.", env=cli_env).returncode == 0
    write_config(ctxchat_home, "[model]\ncontext_window = 700\n")
    done = ctxchat("run", "What should I do today?", env=cli_env)
    assert done.returncode == 0, done.stderr
    system = fake_openai.chat_requests()[-1].messages[0]["content"]
    remembered = [line for line in system.splitlines() if line.startswith("- ")]
    assert 0 < len(remembered) < 20


def test_context_lists_each_source_with_the_budgets_own_count() -> None:
    """/context's lines add up to its gauge: both count as the budget counted (here the
    estimate with its margin, which plain counting would undercount)."""
    from ctxchat.views.context_report import context_report

    model = ScriptedModel(window=4000)
    agent = Agent(model=model, providers=[InMemoryHistoryProvider("history"), Catalogue("c", 2)])
    session = Session()
    run(agent, session, f"first {WORDS}")
    context = run(agent, session, "second")
    report = context_report(context, agent.assemble(context))
    assert report.budget is not None
    listed = {s.source_id: s.tokens for s in report.sources}
    assert listed["history"] == report.budget.by_source["history"]
    assert listed["c"] == report.budget.by_source["c"]
    assert report.input_tokens == report.budget.by_source["input"]
