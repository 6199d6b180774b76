"""The first-hour items that are about the terminal, in a real pseudo-terminal (pexpect)
against the local OpenAI-protocol server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fakeopenai import FakeOpenAI
from repl_support import PROMPT, Repls, quit_, turn


@pytest.fixture
def repls(cli_env: dict[str, str]) -> Iterator[Repls]:
    spawned = Repls(cli_env)
    yield spawned
    spawned.close()


def test_bare_ctxchat_on_a_terminal_starts_the_chat(repls: Repls, fake_openai: FakeOpenAI) -> None:
    child = repls.spawn()  # no command at all
    child.expect_exact("Ctrl-D to exit")
    child.expect_exact(PROMPT)
    turn(child, "hello there")
    assert fake_openai.chat_requests()[-1].last_user_text == "hello there"
    assert quit_(child) == 0
