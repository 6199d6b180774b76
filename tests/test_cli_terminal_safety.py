"""Text from a model, a title or a stored message never drives the terminal: escape
sequences and control characters are removed or made visible wherever ctxchat shows
them to a person, and kept exactly in exports."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_support import ctxchat, write_config
from fakeopenai import FakeOpenAI, Text
from repl_support import PROMPT, Repls, finished, quit_, seen

from ctxchat.core.sanitize import SafeStream, one_line, terminal_safe

# A colour, a window title, a screen clear, a bell, a backspace and a carriage return.
EVIL = "evil \x1b[31mred\x1b[0m \x1b]0;TITLE\x07 \x1b[2J cleared? bell\x07 back\x08 cr\rover"
# Each of them as it would reach the terminal raw. (prompt-toolkit draws with its own
# escapes, bells and backspaces: only these, in their context, are signs of an injection.)
INJECTED = (
    "\x1b[31mred",
    "\x1b]0;TITLE",
    "TITLE",
    "\x1b[2J",
    "bell\x07",
    "back\x08",
    "cr\rover",
)

AUDITED = """
[[providers]]
type = "in_memory_history"
source_id = "history"

[[providers]]
type = "audit"
"""


def assert_safe(output: str) -> None:
    for sequence in INJECTED:
        assert sequence not in output, (sequence, output)


@pytest.fixture
def repls(cli_env: dict[str, str]) -> Iterator[Repls]:
    spawned = Repls(cli_env)
    yield spawned
    spawned.close()


def test_terminal_safe_removes_sequences_and_shows_controls() -> None:
    assert terminal_safe(EVIL) == "evil red   cleared? bell␇ back␈ cr␍over"
    assert terminal_safe("keeps\ttabs\nand lines\r\n") == "keeps\ttabs\nand lines\n"
    assert terminal_safe("C1 \x9b31m and DEL \x7f") == "C1 \ufffd31m and DEL \u2421"
    assert terminal_safe("lone \x1b") == "lone ␛"
    assert one_line("a\ttitle\nin \x1b[1mtwo\x1b[0m lines") == "a title in two lines"


def test_a_sequence_split_between_deltas_is_removed_whole() -> None:
    stream = SafeStream()
    shown = "".join(stream.feed(EVIL[i : i + 3]) for i in range(0, len(EVIL), 3))
    assert shown + stream.flush() == terminal_safe(EVIL)
    unfinished = SafeStream()
    assert unfinished.feed("text \x1b]0;never ended") == "text "
    assert unfinished.flush() == "␛]0;never ended"  # shown in the end, not swallowed


@pytest.mark.parametrize("flags", [(), ("--plain",)])
def test_the_repl_shows_model_output_without_its_escapes(
    repls: Repls, fake_openai: FakeOpenAI, flags: tuple[str, ...]
) -> None:
    fake_openai.enqueue(Text(EVIL, chunk_size=4))  # sequences split between deltas
    child = repls(*flags)
    child.send("hello\r")
    child.expect_exact("tokens ")
    shown = seen(child)
    assert "evil" in shown
    assert "red" in shown
    assert "cleared?" in shown
    assert_safe(shown)
    assert quit_(child) == 0


def _evil_session(env: dict[str, str], home: Path, fake_openai: FakeOpenAI) -> str:
    write_config(home, AUDITED)
    fake_openai.enqueue(Text(EVIL))
    done = ctxchat("run", "--json", env=env, stdin=f"question {EVIL}\n")
    assert done.returncode == 0, done.stderr
    session_id = str(json.loads(done.stdout)["session"])
    renamed = ctxchat("sessions", "rename", session_id, f"title {EVIL}", env=env)
    assert renamed.returncode == 0, renamed.stderr
    assert_safe(renamed.stdout)
    return session_id


def test_sessions_commands_show_titles_and_messages_safely(
    repls: Repls, cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    session_id = _evil_session(cli_env, ctxchat_home, fake_openai)
    for args in (
        ("sessions", "list"),
        ("sessions", "show", session_id),
        ("sessions", "show", session_id, "--plain"),
        ("sessions", "show", session_id, "--audit"),
    ):
        status, on_terminal = finished(repls.spawn(*args))
        assert status == 0, on_terminal
        assert "cleared?" in on_terminal, args
        assert_safe(on_terminal)
        # Piped, these are still views for people (a pager, `| head`): the same text.
        piped = ctxchat(*args, env=cli_env)
        assert piped.returncode == 0, piped.stderr
        assert "cleared?" in piped.stdout
        assert_safe(piped.stdout)
    # An export is the data itself: exact.
    exported = ctxchat("sessions", "export", session_id, "-f", "jsonl", env=cli_env)
    assert json.loads(exported.stdout.splitlines()[-1])["content"] == EVIL


def test_the_repl_shows_stored_titles_and_turns_safely(
    repls: Repls, cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    session_id = _evil_session(cli_env, ctxchat_home, fake_openai)
    child = repls("--session", session_id, wait_for_prompt=False)  # shows the last turns
    child.expect_exact("cleared?")
    child.expect_exact(PROMPT)
    child.send("/sessions\r")
    child.expect_exact(session_id)
    child.send("/title\r")
    child.expect_exact("title: title evil")
    child.expect_exact(PROMPT)
    shown = seen(child)
    assert shown.count("cleared?") >= 3  # the title twice (resumed, /sessions), the reply
    assert_safe(shown)
    assert quit_(child) == 0
