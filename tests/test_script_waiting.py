"""A script's waiting line (issue 23, item 8): while the server has not answered, stderr
says so with the seconds waited, when stderr is a terminal, and never into a pipe or the
reply's stdout. The REPL's line is tested in test_first_hour_repl."""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest
from cli_support import ctxchat
from conftest import ctxchat_executable
from fakeopenai import FakeOpenAI, Hang
from repl_support import Repls, finished


@pytest.fixture
def terminals(cli_env: dict[str, str]) -> Iterator[Repls]:
    repls = Repls(cli_env)
    yield repls
    repls.close()


def test_a_script_on_a_terminal_says_the_server_has_not_answered_yet(
    terminals: Repls, fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    fake_openai.enqueue(Hang(4, "at last"))
    reply = tmp_path / "reply.txt"
    # stderr is the terminal, stdout a file: the line goes to stderr alone.
    command = f"{shlex.quote(ctxchat_executable())} run hello > {shlex.quote(str(reply))}"
    child = pexpect.spawn(
        "/bin/sh", ["-c", command], env=terminals.env, encoding="utf-8", timeout=20
    )
    terminals.children.append(child)
    child.expect(r"waiting for fake-model… \d+ s")
    status, shown = finished(child)
    assert status == 0
    assert reply.read_text() == "at last\n"
    # Erased once the reply came: nothing of it is left on the terminal's last line.
    assert "\r\x1b[2K" in shown.rsplit("waiting for", 1)[1]


def test_a_script_into_a_pipe_writes_no_waiting_line(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    fake_openai.enqueue(Hang(3, "at last"))
    done = ctxchat("run", "hello", env=cli_env)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "at last\n"
    assert "waiting" not in done.stderr
