"""The first-hour items that are about the terminal, in a real pseudo-terminal (pexpect)
against the local OpenAI-protocol server."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Literal

import pytest
from cli_support import ctxchat
from conftest import ctxchat_executable
from fakeopenai import FakeOpenAI, Text
from repl_support import ANSI, PROMPT, Repls, quit_, seen, turn
from tmux_support import Terminal, needs_tmux

OpenTerminal = Callable[..., Terminal]


@pytest.fixture
def repls(cli_env: dict[str, str]) -> Iterator[Repls]:
    spawned = Repls(cli_env)
    yield spawned
    spawned.close()


@pytest.fixture
def terminal(cli_env: dict[str, str], tmp_path: Path) -> Iterator[OpenTerminal]:
    """The REPL in tmux, for what stays on the screen once redraws are over."""
    opened: list[Terminal] = []

    def open_(*args: str, width: int = 80, height: int = 24) -> Terminal:
        term = Terminal(
            [ctxchat_executable(), "run", *args],
            cli_env,
            tmp_path / f"tmux{len(opened)}",
            width=width,
            height=height,
        )
        opened.append(term)
        term.wait_for(lambda screen: screen.rstrip().endswith(PROMPT))
        return term

    yield open_
    for term in opened:
        term.close()


def test_bare_ctxchat_on_a_terminal_starts_the_chat(repls: Repls, fake_openai: FakeOpenAI) -> None:
    child = repls.spawn()  # no command at all
    child.expect_exact("Ctrl-D to exit")
    child.expect_exact(PROMPT)
    turn(child, "hello there")
    assert fake_openai.chat_requests()[-1].last_user_text == "hello there"
    assert quit_(child) == 0


def test_the_endpoints_only_model_is_said_in_one_dim_line(
    repls: Repls, fake_openai: FakeOpenAI
) -> None:
    fake_openai.models = ["the-only-model"]
    child = repls.spawn("run", extra_env={"CTXCHAT_MODEL": ""})
    child.expect_exact("Ctrl-D to exit")
    child.expect_exact(PROMPT)
    before_banner = seen(child).split("ctxchat ", 1)[0]
    note = f"model the-only-model: the one {fake_openai.base_url} serves"
    assert note in ANSI.sub("", before_banner)
    assert "\x1b[2m" in before_banner  # dim
    assert "model the-only-model · /help" in ANSI.sub("", seen(child))  # the banner agrees
    turn(child, "hi")
    assert fake_openai.chat_requests()[-1].model == "the-only-model"
    assert quit_(child) == 0


LONG_THOUGHT = "\n".join(
    f"Step {i}: weighing what the user may mean by this, and what else to consider."
    for i in range(1, 13)
)


@needs_tmux
@pytest.mark.parametrize("way", ["field", "think"])
def test_reasoning_is_one_dim_line_while_it_streams_and_after_and_think_shows_it_whole(
    terminal: OpenTerminal, fake_openai: FakeOpenAI, way: Literal["field", "think"]
) -> None:
    rest = threading.Event()
    fake_openai.enqueue(
        Text(
            "The answer is 42.", chunk_size=40, reasoning=LONG_THOUGHT, reasoning_in=way, hold=rest
        )
    )
    term = terminal(width=80, height=30)
    term.type("what is it?")
    term.press("Enter")
    # Held mid-thought: the reasoning so far is one line, being rewritten as it grows.
    streaming = term.wait_for("thinking: ", visible=True)
    assert [line for line in streaming.splitlines() if "Step" in line] == [
        next(line for line in streaming.splitlines() if line.startswith("thinking: "))
    ]
    rest.set()
    screen = term.wait_for("tokens ")
    assert "thinking:" not in screen  # the live line is gone...
    (folded,) = [line for line in screen.splitlines() if "Step" in line]  # ...one line stays
    assert folded.startswith("thought: Step 1: weighing")
    assert folded.endswith("(/think)")
    assert len(folded) <= 80
    assert "The answer is 42." in screen
    assert "<think>" not in screen

    term.type("/think")
    term.press("Enter")
    whole = term.wait_for("Step 12: weighing")
    for i in range(1, 13):
        assert f"Step {i}: weighing what the user may mean" in whole


def test_think_in_a_resumed_session_shows_its_last_reasoning(
    repls: Repls, fake_openai: FakeOpenAI, cli_env: dict[str, str]
) -> None:
    fake_openai.enqueue(Text("Hi!", reasoning="Musing over the greeting.", reasoning_in="think"))
    assert ctxchat("run", "hello", env=cli_env).stdout == "Hi!\n"
    child = repls("-c")
    child.send("/think\r")
    child.expect_exact("Musing over the greeting.")
    child.expect_exact(PROMPT)
    turn(child, "and now?")  # an echo: no reasoning this time
    child.send("/think\r")
    child.expect_exact("the last reply came without reasoning")
    assert quit_(child) == 0


def test_switching_to_a_model_the_endpoint_does_not_list_is_warned_of(
    repls: Repls, fake_openai: FakeOpenAI
) -> None:
    fake_openai.models = ["fake-model", "llama-3.2-3b-instruct"]
    child = repls()
    child.send("/model llama-3.2-3b\r")
    child.expect_exact("model: llama-3.2-3b (from the next turn)")
    child.expect_exact("is not listed by")
    child.expect_exact("(close: llama-3.2-3b-instruct)")
    child.expect_exact(PROMPT)
    child.send("/model llama-3.2-3b-instruct\r")
    child.expect_exact("model: llama-3.2-3b-instruct (from the next turn)")
    child.expect_exact(PROMPT)
    assert "not listed" not in seen(child).rsplit("llama-3.2-3b-instruct (from", 1)[1]
    assert quit_(child) == 0
