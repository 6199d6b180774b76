"""The REPL as a real terminal shows it (tmux): what stays in the scrollback once a reply
is over, and what a transient region (the live Markdown block, the waiting indicator)
leaves behind."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from conftest import ctxchat_executable
from fakeopenai import FakeOpenAI, RecordedRequest, Reply, Text
from repl_support import PROMPT
from tmux_support import WAIT_SECONDS, Terminal, needs_tmux

pytestmark = needs_tmux

OpenTerminal = Callable[..., Terminal]

LIST = "Here:\n\n" + "".join(f"{i}. item number {i}\n" for i in range(1, 121)) + "\nThat is all."
CODE = (
    "Code:\n\n```python\n"
    + "".join(f"x{i} = {i}  # line {i}\n" for i in range(1, 121))
    + "```\n\nThat is all."
)


@pytest.fixture
def terminal(cli_env: dict[str, str], tmp_path: Path) -> Iterator[OpenTerminal]:
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
        term.wait_for("Ctrl-D to exit")
        term.wait_for(lambda screen: screen.rstrip().endswith(PROMPT))
        return term

    yield open_
    for term in opened:
        term.close()


def send(term: Terminal, text: str) -> None:
    term.type(text)
    term.press("Enter")


@pytest.mark.parametrize(("reply", "numbered"), [(LIST, "item number"), (CODE, "# line")])
def test_a_block_taller_than_the_terminal_is_in_the_scrollback_once(
    terminal: OpenTerminal, fake_openai: FakeOpenAI, reply: str, numbered: str
) -> None:
    # Streamed slowly enough for the live region to be redrawn many times while the one
    # Markdown block (no blank line inside) is taller than the 24-line screen.
    fake_openai.enqueue(Text(reply, chunk_size=20, delay=0.02))
    term = terminal(width=80, height=24)
    send(term, "a long one please")
    screen = term.wait_for("tokens ")
    found = [int(n) for n in re.findall(rf"{re.escape(numbered)} (\d+)\b", screen)]
    assert sorted(found) == list(range(1, 121))  # each line once: none twice, none lost
    assert screen.count("That is all.") == 1
    assert "..." not in screen


def _held_reply(release: threading.Event) -> Callable[[RecordedRequest], Reply]:
    def reply(request: RecordedRequest) -> Reply:
        release.wait(WAIT_SECONDS)  # the model "thinks" until the test has looked
        return Text("the answer at last")

    return reply


@pytest.mark.parametrize("flags", [(), ("--plain",)])
def test_a_waiting_indicator_shows_until_the_first_token(
    terminal: OpenTerminal, fake_openai: FakeOpenAI, flags: tuple[str, ...]
) -> None:
    release = threading.Event()
    fake_openai.default = _held_reply(release)
    term = terminal(*flags)
    try:
        send(term, "slow question")
        term.wait_for("waiting for fake-model", visible=True)
    finally:
        release.set()
    screen = term.wait_for("tokens ")
    assert "the answer at last" in screen
    assert "waiting for" not in screen  # removed, not scrolled away or overwritten in part


def test_the_waiting_indicator_goes_when_ctrl_c_cancels(
    terminal: OpenTerminal, fake_openai: FakeOpenAI
) -> None:
    release = threading.Event()
    fake_openai.default = _held_reply(release)
    term = terminal()
    try:
        send(term, "never answered")
        term.wait_for("waiting for fake-model", visible=True)
        term.press("C-c")
        screen = term.wait_for("(cancelled")
        screen = term.wait_for(lambda text: text.rstrip().endswith("never answered"))
    finally:
        release.set()
    assert "waiting for" not in screen


HAIKU = "Snow is a sight I've never seen,\nA moment of joy in the cold,\nThen it melts away."


def test_single_newlines_stay_line_breaks_in_replies_and_in_show(
    terminal: OpenTerminal, fake_openai: FakeOpenAI, cli_env: dict[str, str], tmp_path: Path
) -> None:
    fake_openai.enqueue(Text(HAIKU + "\n\n```\ncode line 1\ncode line 2\n```", chunk_size=7))
    term = terminal(width=80, height=24)
    send(term, "a haiku please")
    screen = term.wait_for("tokens ")
    for line in (*HAIKU.splitlines(), "code line 1", "code line 2"):
        assert any(row.strip() == line for row in screen.splitlines()), (line, screen)
    # A stored reply shown again keeps its lines too.
    term.press("C-d")
    shown = Terminal(
        [ctxchat_executable(), "sessions", "show", "a haiku please"],
        cli_env,
        tmp_path / "show",
        width=80,
        height=24,
    )
    try:
        screen = shown.wait_for("Then it melts away.")
        for line in HAIKU.splitlines():
            assert any(row.strip() == line for row in screen.splitlines()), (line, screen)
    finally:
        shown.close()
