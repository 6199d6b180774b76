"""The first-hour items that are about the terminal, in a real pseudo-terminal (pexpect)
against the local OpenAI-protocol server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fakeopenai import FakeOpenAI
from repl_support import ANSI, PROMPT, Repls, quit_, seen, turn


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
