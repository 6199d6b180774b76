"""What a script reads back: replies cut short say so, an empty reply is still a line, a
terminal gets no escape sequences from the model, and a bad --title is refused first."""

from __future__ import annotations

import json
import os
import pty
import subprocess
from pathlib import Path

import pytest
from cli_support import assert_clean_error, ctxchat, only_session, session_documents
from conftest import ctxchat_executable
from fakeopenai import FakeOpenAI, Text


@pytest.mark.parametrize(
    ("finish_reason", "why"),
    [("length", "max_tokens reached"), ("content_filter", "content filter")],
)
def test_a_reply_cut_short_is_a_warning(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, finish_reason: str, why: str
) -> None:
    fake_openai.enqueue(Text("The answer is", finish_reason=finish_reason))

    result = ctxchat("run", "question", env=cli_env)

    assert result.returncode == 0
    assert result.stdout == "The answer is\n"
    assert result.stderr.startswith(f"ctxchat: warning: the reply was cut short ({why}")
    assert len(result.stderr.splitlines()) == 1


def test_json_lines_carry_the_finish_reason(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    fake_openai.enqueue(Text("whole"), Text("cut", finish_reason="length"))

    result = ctxchat("run", "--lines", "--json", env=cli_env, stdin="one\ntwo\n")

    assert result.returncode == 0
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["finish_reason"] for r in records] == ["stop", "length"]
    assert result.stderr.startswith("ctxchat: warning: the reply was cut short (max_tokens reached")
    assert len(result.stderr.splitlines()) == 1


def test_an_empty_reply_is_still_one_line(cli_env: dict[str, str], fake_openai: FakeOpenAI) -> None:
    fake_openai.enqueue(Text("first"), Text(""), Text("third"))

    result = ctxchat("run", "--lines", env=cli_env, stdin="a\nb\nc\n")

    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.split("\n") == ["first", "", "third", ""]


def test_reply_text_to_a_terminal_cannot_drive_it(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    fake_openai.enqueue(Text("\x1b]0;pwned\x07plain \x1b[31mred\x1b[0m\x1b[2J done", chunk_size=3))
    controller, terminal = pty.openpty()
    try:
        # stdin is a pipe (a script), stdout the terminal.
        process = subprocess.Popen(
            [ctxchat_executable(), "run", "question"],
            stdin=subprocess.DEVNULL,
            stdout=terminal,
            stderr=subprocess.PIPE,
            env=cli_env,
        )
        os.close(terminal)
        output = b""
        while True:
            try:
                chunk = os.read(controller, 4096)
            except OSError:  # the terminal's last writer closed it
                break
            if not chunk:
                break
            output += chunk
        assert process.wait(timeout=60) == 0
    finally:
        os.close(controller)
    text = output.decode("utf-8")
    assert "\x1b" not in text
    assert text.replace("\r\n", "\n") == "plain red done\n"


def test_an_empty_title_is_refused_before_anything_is_sent(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    for title in ("", "   "):
        result = ctxchat("run", "--title", title, "question", env=cli_env)
        assert_clean_error(result, 2, "a title cannot be empty")
    assert fake_openai.chat_requests() == []
    assert session_documents(ctxchat_home) == []


def test_a_title_is_stored_as_one_line(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    result = ctxchat("run", "--title", "  two\n  lines ", "question", env=cli_env)

    assert result.returncode == 0, result.stderr
    assert only_session(ctxchat_home)["title"] == "two lines"
