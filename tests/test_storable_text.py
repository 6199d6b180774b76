"""NUL and lone surrogates in a message or a reply never fail a turn, and both backends
keep the same text: each becomes U+FFFD (issue 21, item 4)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from cli_support import ctxchat, only_session, stored_texts
from fakeopenai import FakeOpenAI, Text
from historykit import raw_query

from ctxchat.core.agent import Agent
from ctxchat.core.context import RunContext
from ctxchat.core.provider import ProviderEnv
from ctxchat.core.session import Session
from ctxchat.core.storable import storable
from ctxchat.providers.audit.provider import AuditProvider
from ctxchat.providers.history.sql import SqlHistoryProvider
from ctxchat.storage.store import SessionStore
from ctxchat.testing import ScriptedModel

pytest_plugins = ["sqlfixtures"]


@pytest.mark.parametrize(
    ("message", "reply", "kept_message", "kept_reply"),
    [
        ("a\x00b", "ok", "a\ufffdb", "ok"),
        ("hi", "x\x00y", "hi", "x\ufffdy"),
        ("hi", "x\ud800y", "hi", "x\ufffdy"),
        ("a\udc80b", "é\udfffé", "a\ufffdb", "é\ufffdé"),
    ],
)
def test_a_nul_or_a_lone_surrogate_is_kept_as_a_replacement_character(
    sql_url: str, tmp_path: Path, message: str, reply: str, kept_message: str, kept_reply: str
) -> None:
    env = ProviderEnv(data_dir=tmp_path / "data")
    history = SqlHistoryProvider("history", SqlHistoryProvider.Options(url=sql_url), env=env)
    agent = Agent(
        model=ScriptedModel(reply),
        providers=[history, AuditProvider("audit", AuditProvider.Options(url=sql_url), env=env)],
    )
    session = Session()
    store = SessionStore(tmp_path / "sessions")

    async def save_session_file(context: RunContext) -> None:
        store.save(session)

    context = asyncio.run(agent.run(session, message, on_stored=save_session_file))
    assert context.stored
    rows = raw_query(sql_url, "SELECT message FROM ctxchat_history ORDER BY seq")
    texts = [json.loads(r[0])["parts"][0]["text"] for r in rows]
    assert texts == [kept_message, kept_reply]
    (audit,) = raw_query(sql_url, "SELECT ok FROM ctxchat_audit")
    assert audit[0]
    assert store.load(session.id).state["history"] == session.state["history"]


def test_storable_leaves_other_text_alone() -> None:
    text = "plain, ünïcödé, 😀, \t\n and \x1b[31m"
    assert storable(text) == text


def test_a_nul_piped_in_and_a_surrogate_in_the_reply_are_kept(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    fake_openai.enqueue(Text("half \ud800 a pair"))
    result = ctxchat("run", env=cli_env, stdin=b"nul \x00 here\n")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    document = only_session(ctxchat_home)
    assert stored_texts(cli_env, document["id"]) == [
        ("user", "nul \ufffd here"),
        ("assistant", "half \ufffd a pair"),
    ]
