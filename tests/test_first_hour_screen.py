"""The first-hour items about what a one-shot run leaves on a terminal's screen (the
second first-hour issue: wrapped replies, notices on lines of their own, a note said
once), in a real terminal emulator (tmux) against the local OpenAI-protocol server."""

from __future__ import annotations

import shlex
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from cli_support import ctxchat
from conftest import ctxchat_executable
from fakeopenai import FakeOpenAI, Text
from tmux_support import Terminal, needs_tmux

pytestmark = needs_tmux

OneShot = Callable[..., list[str]]


@pytest.fixture
def one_shot(cli_env: dict[str, str], tmp_path: Path) -> Iterator[OneShot]:
    """`ctxchat ARGS` on a terminal of `width` columns, run to its end: the screen's lines."""
    opened: list[Terminal] = []

    def run(*args: str, width: int = 80, env: dict[str, str] | None = None) -> list[str]:
        # The status is echoed after it: tmux does not always report a dead pane's.
        command = shlex.join([ctxchat_executable(), *args]) + '; echo "[exit $?]"'
        term = Terminal(
            ["sh", "-c", command],
            env or cli_env,
            tmp_path / f"tmux{len(opened)}",
            width=width,
            height=40,
        )
        opened.append(term)
        screen = term.wait_for(lambda text: "[exit " in text)
        lines = screen.split("\n")
        end = next(n for n, line in enumerate(lines) if line.startswith("[exit "))
        assert lines[end] == "[exit 0]", screen
        return lines[:end]

    yield run
    for term in opened:
        term.close()


def test_a_providers_notice_after_a_one_shot_reply_is_a_line_of_its_own(
    one_shot: OneShot,
) -> None:
    lines = one_shot("run", "I live in Berlin.")
    assert "echo: I live in Berlin." in lines
    assert "ctxchat: remembered: home: I live in Berlin." in lines


WORDS = (
    "A one-shot reply on a terminal is broken between words at the terminal's width, "
    "the way the chat breaks it, and never in the middle of a word such as "
    "extraordinarily or internationalisation; a pipe gets the text exactly as it came."
)


def test_a_one_shot_reply_is_word_wrapped_on_a_terminal_and_raw_on_a_pipe(
    one_shot: OneShot, cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    fake_openai.enqueue(Text(WORDS, chunk_size=7))
    lines = [line for line in one_shot("run", "--no-memory", "question", width=40) if line]
    assert all(len(line) <= 40 for line in lines), lines
    assert len(lines) > 4
    assert " ".join(line.strip() for line in lines) == WORDS  # no word cut in two

    fake_openai.enqueue(Text(WORDS, chunk_size=7))
    piped = ctxchat("run", "--no-memory", "question", env=cli_env)
    assert piped.stdout == WORDS + "\n"


def test_the_endpoints_only_model_is_said_once_not_on_every_run(
    one_shot: OneShot, cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    fake_openai.models = ["the-only-model"]
    env = {k: v for k, v in cli_env.items() if k != "CTXCHAT_MODEL"}
    note = f"model the-only-model: the one {fake_openai.base_url} serves"
    first = one_shot("run", "--no-memory", "one", width=200, env=env)
    assert note in first
    second = one_shot("run", "--no-memory", "two", width=200, env=env)
    assert "echo: two" in second
    assert not any("the one" in line for line in second), second
    assert fake_openai.chat_requests()[-1].model == "the-only-model"

    # Another model on the endpoint is said again.
    fake_openai.models = ["the-next-model"]
    (Path(env["CTXCHAT_HOME"]) / "models.json").unlink()  # as if a day had passed
    third = one_shot("run", "--no-memory", "three", width=200, env=env)
    assert f"model the-next-model: the one {fake_openai.base_url} serves" in third


def test_the_tool_and_memory_listings_fit_an_80_column_terminal(
    one_shot: OneShot, cli_env: dict[str, str]
) -> None:
    tools = one_shot("tools", "list", width=80)
    assert any(line.startswith("calculate") for line in tools), tools
    assert all(len(line) <= 80 for line in tools), tools
    assert any(line.endswith("…") for line in tools)  # a description cut, not wrapped

    told = ctxchat(
        "run",
        "I live in Porto and I have a cat named Miso the Magnificent Destroyer of "
        "Curtains and Eater of Socks.",
        env=cli_env,
    )
    assert told.returncode == 0, told.stderr
    facts = one_shot("memory", "list", width=80)
    assert len(facts) == 3, facts  # the header and two facts, a line each
    assert all(len(line) <= 80 for line in facts), facts
