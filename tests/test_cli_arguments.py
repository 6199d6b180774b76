"""Arguments that are not UTF-8 text (the shell passes bytes; Python keeps the bad ones as
surrogate escapes) are refused before any model call: one line naming the argument,
exit 2, nothing stored."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import assert_clean_error, ctxchat, only_session, session_documents
from fakeopenai import FakeOpenAI

# What `$'bad \xff'` and `$'\x9b2J'` become in sys.argv.
BAD_TITLE = "bad \udcff"
BAD_C1 = "\udc9b2J"


@pytest.mark.parametrize(
    ("args", "what"),
    [
        (("run", "--title", BAD_TITLE, "x"), "the title is not valid UTF-8 text (byte 0xff"),
        (("run", BAD_TITLE), "the prompt is not valid UTF-8 text (byte 0xff at character 5)"),
        (("run", "--system", BAD_C1, "x"), "--system is not valid UTF-8 text (byte 0x9b"),
        (("run", "--model", BAD_C1, "x"), "--model is not valid UTF-8 text"),
        (("run", "--session", BAD_C1, "x"), "the session is not valid UTF-8 text"),
    ],
)
def test_run_refuses_them_before_the_model_is_asked(
    cli_env: dict[str, str],
    ctxchat_home: Path,
    fake_openai: FakeOpenAI,
    args: tuple[str, ...],
    what: str,
) -> None:
    result = ctxchat(*args, env=cli_env)

    assert_clean_error(result, 2, what)
    assert fake_openai.chat_requests() == []
    assert session_documents(ctxchat_home) == []
    assert not (ctxchat_home / "history.sqlite3").exists()


def test_sessions_commands_refuse_them_and_change_nothing(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    assert ctxchat("run", "--title", "kept", "hello", env=cli_env).returncode == 0
    session_id = str(only_session(ctxchat_home)["id"])

    renamed = ctxchat("sessions", "rename", session_id, BAD_C1, env=cli_env)
    assert_clean_error(renamed, 2, "the title is not valid UTF-8 text (byte 0x9b")
    assert only_session(ctxchat_home)["title"] == "kept"
    for args in (("sessions", "show", BAD_C1), ("sessions", "delete", "--yes", BAD_C1)):
        assert_clean_error(ctxchat(*args, env=cli_env), 2, "the session is not valid UTF-8")
    assert only_session(ctxchat_home)["turns"] == 1
