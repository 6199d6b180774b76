"""The audit trail: each turn as the model saw it, failed turns included, never a secret.
Every test runs on a SQLite file and on PostgreSQL."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from conftest import TEST_API_KEY
from fakeopenai import Cut, Error, FakeOpenAI, Text, ToolCalls
from historykit import (
    LOOKUP,
    Contributor,
    make_agent,
    raw_query,
    scratch_home,
    scripted_agent,
    shown_to,
    turn,
)

from ctxchat.config.loading import config_from_dict
from ctxchat.core.agent import Agent, TurnFailed
from ctxchat.core.audit import AuditRecord
from ctxchat.core.capabilities import AuditSource
from ctxchat.core.errors import ConfigError
from ctxchat.core.paths import sessions_dir
from ctxchat.core.provider import ContextProvider, ProviderEnv
from ctxchat.core.session import Session
from ctxchat.core.settings import ModelSettings
from ctxchat.providers.audit.provider import AuditProvider
from ctxchat.providers.history.in_memory import InMemoryHistoryProvider
from ctxchat.providers.history.sql import SqlHistoryProvider
from ctxchat.services.build import build_agent
from ctxchat.services.conversations import ChatService
from ctxchat.services.deletion import delete
from ctxchat.services.model_client import OpenAIChatModel
from ctxchat.storage.store import SessionStore
from ctxchat.testing import ScriptedModel

pytest_plugins = ["sqlfixtures"]
ENV = ProviderEnv(data_dir=scratch_home())


def pipeline(url: str, model: ModelSettings | ScriptedModel, **audit_options: object) -> Agent:
    """The audited pipeline, on the HTTP fake's settings or on a scripted model."""
    providers = (
        SqlHistoryProvider("history", SqlHistoryProvider.Options(url=url), env=ENV),
        Contributor("notes", messages=["remember: cats"], instructions=["Be brief."]),
        Contributor("tools", tools=[LOOKUP], instructions=["Use lookup."]),
        AuditProvider("audit", AuditProvider.Options(url=url, **audit_options), env=ENV),
    )
    if isinstance(model, ScriptedModel):
        return scripted_agent(model, *providers)
    return make_agent(model, *providers)


def records(agent: Agent, session: Session, limit: int | None = None) -> list[AuditRecord]:
    audit = agent.provider("audit")
    assert isinstance(audit, AuditSource)
    state = session.provider_state("audit")
    return asyncio.run(audit.audit_records(session.id, state=state, limit=limit))


def test_a_turn_is_recorded_as_the_model_saw_it(
    sql_url: str, model_settings: ModelSettings, fake_openai: FakeOpenAI
) -> None:
    agent = pipeline(sql_url, model_settings)
    session = Session()
    turn(agent, session, "hello")
    fake_openai.enqueue(ToolCalls([("lookup", {"q": "x"})]), Text("x found"))
    context = turn(agent, session, "find x")

    first, second = records(agent, session)
    assert first.ok
    assert [m.text for m in first.input_messages] == ["hello"]
    assert "history" not in first.context_messages  # nothing was loaded yet
    assert second.ok
    assert second.error is None
    assert [m.text for m in second.input_messages] == ["find x"]
    assert {k: [m.text for m in v] for k, v in second.context_messages.items()} == {
        "history": ["hello", "echo: hello"],
        "notes": ["remember: cats"],
    }
    assert second.instructions == {"notes": "Be brief.", "tools": "Use lookup."}
    assert second.tools == {"tools": ("lookup",)}
    assert [m.role for m in second.response_messages] == ["assistant", "tool", "assistant"]
    assert second.response_messages[0].tool_calls[0].name == "lookup"
    assert second.response_messages[1].tool_results[0].content == "found x"
    assert second.response_messages[2].text == "x found"
    assert context.response is not None
    assert second.usage == context.response.usage
    assert second.usage is not None
    assert second.usage.output_tokens > 0
    assert first.created_at <= second.created_at
    # The instructions recorded are those the model was given.
    system = fake_openai.chat_requests()[-1].messages[0]["content"]
    assert '<context source="notes">\nBe brief.\n</context>' in system
    assert '<context source="tools">\nUse lookup.\n</context>' in system


@pytest.mark.parametrize(
    ("replies", "error", "produced"),
    [
        ([Error(500)], "server error from", []),
        ([Cut("half an ans")], "was cut mid-way", []),
        ([ToolCalls([("lookup", {"q": "y"})]), Error(503)], "HTTP 503", ["assistant", "tool"]),
    ],
)
def test_a_failed_turn_is_recorded_as_failed_and_nowhere_else(
    sql_url: str,
    model_settings: ModelSettings,
    fake_openai: FakeOpenAI,
    replies: list[Error | Cut | ToolCalls],
    error: str,
    produced: list[str],
) -> None:
    agent = pipeline(sql_url, model_settings)
    session = Session()
    turn(agent, session, "fine")
    fake_openai.enqueue(*replies)
    with pytest.raises(TurnFailed):
        turn(agent, session, "doomed")

    ok, failed = records(agent, session)
    assert ok.ok
    assert not failed.ok
    assert failed.error is not None
    assert error in failed.error
    assert [m.text for m in failed.input_messages] == ["doomed"]
    assert [m.role for m in failed.response_messages] == produced
    assert [m.text for m in failed.context_messages["history"]] == ["fine", "echo: fine"]
    history = raw_query(sql_url, "SELECT message FROM ctxchat_history")
    assert len(history) == 2
    assert "doomed" not in str(history)


def test_the_audit_takes_no_history_flags() -> None:
    # It never loads and always records the context: neither is a setting.
    for option in ("load_messages", "store_context_messages"):
        config = config_from_dict(
            {"providers": [{"type": "sql_history"}, {"type": "audit", option: True}]},
            path=None,
            environ={},
            model_overrides={},
        )
        with pytest.raises(ConfigError, match=rf"providers\[1\]\.{option}: unknown option"):
            build_agent(config, model=ScriptedModel())


def test_store_context_from_limits_the_recorded_sources(sql_url: str) -> None:
    agent = pipeline(sql_url, ScriptedModel(), store_context_from=["notes"])
    session = Session()
    turn(agent, session, "one")
    turn(agent, session, "two")
    assert [list(r.context_messages) for r in records(agent, session)] == [["notes"], ["notes"]]


def test_limit_gives_the_last_turns_oldest_first(sql_url: str) -> None:
    agent = pipeline(sql_url, ScriptedModel())
    session = Session()
    for text in ["t1", "t2", "t3", "t4"]:
        turn(agent, session, text)
    recent = records(agent, session, limit=2)
    assert [r.input_messages[0].text for r in recent] == ["t3", "t4"]
    assert len(records(agent, session)) == 4
    assert records(agent, Session()) == []


def test_the_audit_never_feeds_the_model_and_records_what_it_saw_in_order(sql_url: str) -> None:
    # The notes come before the history in the config; the model reads the history first.
    audit = AuditProvider("audit", AuditProvider.Options(url=sql_url), env=ENV)
    history = InMemoryHistoryProvider("history")
    model = ScriptedModel()
    agent = scripted_agent(model, Contributor("notes", messages=["n"]), history, audit)
    session = Session()
    turn(agent, session, "one")
    turn(agent, session, "two")
    shown = [m["content"] for m in shown_to(model)]
    assert shown == ["one", "echo: one", "n", "two"]
    last = records(agent, session)[-1]
    assert list(last.context_messages) == ["history", "notes"]
    seen = [m.text for ms in last.context_messages.values() for m in ms]
    assert [*seen, *(m.text for m in last.input_messages)] == shown


def test_no_secret_reaches_a_row(
    sql_url: str, model_settings: ModelSettings, fake_openai: FakeOpenAI
) -> None:
    agent = pipeline(sql_url, model_settings)
    session = Session()
    turn(agent, session, "hello")
    notes = agent.provider("notes")
    assert isinstance(notes, Contributor)
    notes.fail_with = "cannot reach postgresql://admin:hunter2@db.internal/notes"
    with pytest.raises(TurnFailed):
        turn(agent, session, "again")

    failed = records(agent, session)[-1]
    assert failed.error is not None
    assert "postgresql://admin:***@db.internal/notes" in failed.error
    dump = str(raw_query(sql_url, "SELECT * FROM ctxchat_audit"))
    dump += str(raw_query(sql_url, "SELECT * FROM ctxchat_history"))
    assert "hunter2" not in dump
    assert TEST_API_KEY not in dump
    password = sql_url.partition("://")[2].partition("@")[0].partition(":")[2]
    if password:
        assert password not in dump


def test_deleting_a_session_deletes_its_audit_only(sql_url: str) -> None:
    config = config_from_dict(
        {"providers": [{"type": "sql_history", "url": sql_url}, {"type": "audit", "url": sql_url}]},
        path=None,
        environ={},
        model_overrides={},
    )
    chat = ChatService(build_agent(config, model=ScriptedModel()), SessionStore(sessions_dir()))
    gone, kept = chat.new(), chat.new()
    for conversation in (gone, kept, gone):
        asyncio.run(chat.send(conversation, "hi"))
    asyncio.run(delete(chat, gone.session.id))
    keys = raw_query(sql_url, "SELECT session_key FROM ctxchat_audit")
    assert keys == [(kept.session.id,)]


def test_by_default_the_audit_shares_the_history_database(
    ctxchat_home: Path, model_settings: ModelSettings, fake_openai: FakeOpenAI
) -> None:
    config = config_from_dict(
        {"providers": [{"type": "sql_history"}, {"type": "audit"}]},
        path=None,
        environ={},
        model_overrides={},
    )
    agent = build_agent(config, model=OpenAIChatModel(model_settings))
    turn(agent, Session(), "hello")
    url = f"sqlite:///{ctxchat_home / 'history.sqlite3'}"
    assert raw_query(url, "SELECT COUNT(*) FROM ctxchat_history") == [(2,)]
    assert raw_query(url, "SELECT COUNT(*), MIN(ok) FROM ctxchat_audit") == [(1, 1)]


class _EndlessLearner(ContextProvider):  # type: ignore[type-arg]
    """A learner whose extraction never ends (an `llm` extractor's slow call)."""

    async def after_stored_turn(self, *, agent: object, session: Session, **_: object) -> None:
        session.state.setdefault("learner", {})["started"] = True
        await asyncio.Event().wait()


def test_ctrl_c_while_a_learner_learns_still_leaves_the_turn_audited(sql_url: str) -> None:
    """Issue 21, item 3: the audit is listed before memory, so learners (reverse order)
    ran first and an interrupted one left the turn without its row."""
    from ctxchat.testing import ScriptedModel

    audit = AuditProvider("audit", AuditProvider.Options(url=sql_url), env=ENV)
    history = SqlHistoryProvider("history", SqlHistoryProvider.Options(url=sql_url), env=ENV)
    agent = Agent(model=ScriptedModel("ok"), providers=[history, audit, _EndlessLearner("mem")])
    session = Session()

    async def interrupted_while_learning() -> None:
        task = asyncio.create_task(agent.run(session, "hi"))
        while not session.state.get("learner", {}).get("started"):
            await asyncio.sleep(0.01)
        task.cancel()  # what Ctrl-C does
        context = await task
        assert context.learning_interrupted

    asyncio.run(interrupted_while_learning())
    (recorded,) = records(agent, session)
    assert recorded.ok
    assert recorded.input_messages[0].text == "hi"
