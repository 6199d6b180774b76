"""/retry --model NAME in a real pseudo-terminal: the last input goes to another model,
its reply continues the conversation, and the old reply is kept beside it, exported, and
never sent to a model again."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_support import ctxchat, only_session, stored_texts
from fakeopenai import FakeOpenAI, Text
from repl_support import Repls, quit_, turn


@pytest.fixture
def repl(cli_env: dict[str, str]) -> Iterator[Repls]:
    repls = Repls(cli_env)
    yield repls
    repls.close()


def test_retry_with_another_model_keeps_the_old_reply_aside(
    repl: Repls, fake_openai: FakeOpenAI, cli_env: dict[str, str], ctxchat_home: Path
) -> None:
    fake_openai.enqueue(Text("first answer"), Text("second answer"))
    child = repl()
    turn(child, "hello")
    child.send("/retry --model other-model\r")
    child.expect_exact("model: other-model")
    child.expect_exact("second answer")
    child.expect_exact("tokens ")
    turn(child, "and then?")
    assert quit_(child) == 0

    first, retried, after = fake_openai.chat_requests()
    assert (first.model, retried.model, after.model) == ("fake-model", "other-model", "other-model")
    assert retried.last_user_text == "hello"
    # The old reply is sent to no model again: not on the retry, not on the next turn.
    assert all(m.get("content") != "first answer" for r in (retried, after) for m in r.messages)
    session = only_session(ctxchat_home)["id"]
    assert stored_texts(cli_env, session) == [
        ("user", "hello"),
        ("assistant", "second answer"),
        ("user", "and then?"),
        ("assistant", "echo: and then?"),
    ]
    exported = ctxchat("sessions", "export", session, "--format", "md", env=cli_env)
    assert "## Alternative replies" in exported.stdout
    assert "### Turn 1, by fake-model\n\nfirst answer" in exported.stdout


def test_retry_takes_only_a_model() -> None:
    from ctxchat.core.errors import UsageError
    from ctxchat.services.alternatives import retry_model

    assert retry_model("") is None
    assert retry_model("--model gpt-4o") == "gpt-4o"
    assert retry_model("--model=gpt-4o") == "gpt-4o"
    with pytest.raises(UsageError, match=r"usage: /retry \[--model NAME\]"):
        retry_model("--model")
