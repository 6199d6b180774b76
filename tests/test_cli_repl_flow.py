"""The REPL's flow in a real pseudo-terminal: what it refuses before the prompt, what a
mistyped command does with the text, when turns are saved, how a session resumes."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_support import ctxchat, only_session
from fakeopenai import FakeOpenAI, Text
from repl_support import PROMPT, Repls, finished, quit_, seen, turn


@pytest.fixture
def repl(cli_env: dict[str, str]) -> Iterator[Repls]:
    repls = Repls(cli_env)
    yield repls
    repls.close()


def test_without_an_endpoint_the_repl_does_not_start(repl: Repls) -> None:
    child = repl.spawn(
        "run", extra_env={"OPENAI_API_KEY": "", "OPENAI_BASE_URL": "", "CTXCHAT_LOCAL": "0"}
    )
    status, output = finished(child)
    assert status == 2
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1, output
    assert lines[0].startswith("ctxchat: error: no model endpoint configured")
    assert "OPENAI_API_KEY" in lines[0]
    assert "Ctrl-D to exit" not in output  # no banner, no prompt


def test_an_unknown_command_keeps_the_text_and_says_how_to_send_it(
    repl: Repls, fake_openai: FakeOpenAI
) -> None:
    child = repl()
    child.send("/usr/bin/python crashes, why?\r")
    child.expect_exact("unknown command '/usr/bin/python'")
    child.expect_exact("'//'")
    child.expect_exact(PROMPT)
    child.expect_exact("/usr/bin/python crashes, why?")  # back in the prompt, not lost
    child.send("\x01/\r")  # Ctrl-A, then the escaping slash
    child.expect_exact("tokens ")
    child.expect_exact(PROMPT)

    # A pasted text of several lines comes back whole.
    child.send("\x1b[200~/etc/hosts\n127.0.0.1 localhost\x1b[201~\r")
    child.expect_exact("unknown command '/etc/hosts'")
    child.expect_exact("127.0.0.1 localhost")
    child.send("\x1b[A\x01/\r")  # up to the first line, to its start, escape, send
    child.expect_exact("tokens ")
    assert [r.last_user_text for r in fake_openai.chat_requests()] == [
        "/usr/bin/python crashes, why?",
        "/etc/hosts\n127.0.0.1 localhost",
    ]
    child.send("/hepl\r")
    child.expect_exact("did you mean '/help'?")
    child.expect_exact(PROMPT)
    child.sendintr()  # clear the line kept for fixing
    child.expect_exact(PROMPT)
    assert quit_(child) == 0


def test_help_says_how_to_send_a_message_starting_with_a_slash(repl: Repls) -> None:
    child = repl()
    child.send("/help\r")
    child.expect_exact("Ctrl-D exits")
    child.expect_exact("'//'")
    child.expect_exact(PROMPT)
    assert quit_(child) == 0


def test_each_turn_is_saved_as_it_completes(
    repl: Repls, cli_env: dict[str, str], ctxchat_home: Path
) -> None:
    child = repl()
    turn(child, "first question")
    session_id = only_session(ctxchat_home)["id"]
    # Read by another process while the REPL is still running.
    shown = ctxchat("sessions", "show", session_id, env=cli_env)
    assert shown.returncode == 0, shown.stderr
    assert "you › first question" in shown.stdout
    assert "echo: first question" in shown.stdout
    assert "1 turn ·" in shown.stdout
    turn(child, "second question")
    shown = ctxchat("sessions", "show", session_id, env=cli_env)
    assert "echo: second question" in shown.stdout
    assert "2 turns ·" in shown.stdout
    assert only_session(ctxchat_home)["turns"] == 2
    assert quit_(child) == 0


def test_code_blocks_are_highlighted(repl: Repls, fake_openai: FakeOpenAI) -> None:
    fake_openai.enqueue(Text("Look:\n\n```python\ndef answer():\n    return 42\n```\n"))
    child = repl(extra_env={"NO_COLOR": ""})
    turn(child, "some code")
    shown = seen(child)

    def colour(word: str) -> str:
        found = re.search(r"\x1b\[([0-9;]*)m" + word, shown)
        assert found is not None, word
        return found.group(1)

    assert "38;5;" in colour("def")  # a foreground colour, right at the keyword
    assert colour("def") != colour("answer")  # by token: a keyword, a function name
    assert quit_(child) == 0


def test_resuming_shows_the_last_two_turns_by_default(repl: Repls, cli_env: dict[str, str]) -> None:
    done = ctxchat("run", "--lines", env=cli_env, stdin="turn one\nturn two\nturn three\n")
    assert done.returncode == 0, done.stderr
    child = repl("--continue", wait_for_prompt=False)
    child.expect_exact("echo: turn three")
    child.expect_exact(PROMPT)
    shown = seen(child)
    assert "3 turns" in shown
    assert "you › turn two" in shown
    assert "you › turn three" in shown
    assert "you › turn one" not in shown
    assert quit_(child) == 0
