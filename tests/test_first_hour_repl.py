"""The first-hour items about the chat itself (the REPL in a real pseudo-terminal) against
the local OpenAI-protocol server: no silent waits, a stalled stream called a timeout, a
rejected /command gone from the prompt."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_support import write_config
from fakeopenai import FakeOpenAI, Hang, Text
from repl_support import ANSI, PROMPT, Repls, quit_, seen


@pytest.fixture
def repl(cli_env: dict[str, str]) -> Iterator[Repls]:
    repls = Repls(cli_env)
    yield repls
    repls.close()


def test_a_server_that_has_not_answered_is_said_so_with_the_seconds_waited(
    repl: Repls, fake_openai: FakeOpenAI
) -> None:
    fake_openai.enqueue(Hang(4, "at last"))
    child = repl()
    child.send("hello\r")
    child.expect(r"waiting for fake-model… \d+ s")
    child.expect_exact("at last")
    child.expect_exact(PROMPT)
    assert quit_(child) == 0


def test_a_stream_that_stalls_is_a_named_configurable_timeout(
    repl: Repls, fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    write_config(ctxchat_home, "[model]\nread_timeout = 1\n")
    fake_openai.enqueue(Text("The first words and then", chunk_size=8, delay=5))
    child = repl()
    child.send("hello\r")
    child.expect_exact("timed out")
    child.expect_exact(PROMPT)
    shown = ANSI.sub("", seen(child))
    assert re.search(r"sent nothing of the reply for 1s \(raise \[model\] read_timeout", shown)
    assert "cut mid-way" not in shown
    child.sendcontrol("c")  # the input came back to the prompt: cleared, to leave
    assert quit_(child) == 0


def test_a_mistyped_command_is_not_kept_to_be_joined_to_the_next_message(
    repl: Repls, fake_openai: FakeOpenAI
) -> None:
    child = repl()
    child.send("/bogus\r")
    child.expect_exact("unknown command '/bogus'")
    child.expect_exact(PROMPT)
    child.send("hello\r")
    child.expect_exact("echo: hello")
    child.expect_exact(PROMPT)
    assert fake_openai.chat_requests()[-1].last_user_text == "hello"
    assert quit_(child) == 0


def test_help_lists_the_commands_under_one_heading(repl: Repls) -> None:
    child = repl()
    child.send("/help\r")
    child.expect_exact("Ctrl-D exits")
    child.expect_exact(PROMPT)
    shown = ANSI.sub("", seen(child)).split("/help\r", 1)[-1]
    assert "commands:" not in shown
    assert shown.count("what it does") == 1
    assert quit_(child) == 0
