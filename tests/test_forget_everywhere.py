"""Forget forgets everywhere but the user's own history, on SQLite and PostgreSQL: a summary
holding the value is folded again before its next use (or, if that fails, sent with the
value marked), the audit's stored copies of recalled blocks are marked and say so, and the
messages the fact was learnt from are recorded for recall and search to leave out."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from historykit import raw_query

from ctxchat.core.agent import Agent
from ctxchat.core.messages import Message
from ctxchat.core.model_types import Event, ModelRequest, ProviderWarning
from ctxchat.core.provider import ProviderEnv
from ctxchat.core.session import Session
from ctxchat.providers.audit.provider import AuditProvider
from ctxchat.providers.history.in_memory import InMemoryHistoryProvider
from ctxchat.providers.memory.provider import UserMemoryProvider
from ctxchat.providers.summary.provider import SummaryProvider
from ctxchat.testing import ScriptedModel

pytest_plugins = ["sqlfixtures"]

SECRET_PLACE = "Zorblaxcorp"
OLD_SUMMARY = f"The user works at {SECRET_PLACE} in Leeds and wants short answers."


class Pipeline:
    def __init__(self, url: str, tmp_path: Path, model: ScriptedModel, user: str = "ada") -> None:
        env = ProviderEnv(data_dir=tmp_path / "data")
        self.memory = UserMemoryProvider(
            "memory", UserMemoryProvider.Options(url=url, user=user), env=env
        )
        self.audit = AuditProvider("audit", AuditProvider.Options(url=url, user=user), env=env)
        # The default pipeline's order: the audit records before the memory learns.
        providers = [
            InMemoryHistoryProvider("history"),
            SummaryProvider("summary"),
            self.audit,
            self.memory,
        ]
        self.agent = Agent(model=model, providers=providers)
        self.model = model
        self.session = Session()
        self.events: list[Event] = []

    def say(self, text: str, session: Session | None = None) -> None:
        message = Message.user(text, origin="typed")
        asyncio.run(self.agent.run(session or self.session, [message], on_event=self.events.append))

    def warnings(self) -> list[str]:
        return [e.message for e in self.events if isinstance(e, ProviderWarning)]


def told_and_forgotten(url: str, tmp_path: Path, model: ScriptedModel) -> Pipeline:
    pipeline = Pipeline(url, tmp_path, model)
    pipeline.say(f"I work at {SECRET_PLACE}.")
    pipeline.say("What should I wear to the office?")  # recalls the fact
    pipeline.session.state["summary"] = {"summary": OLD_SUMMARY, "messages": 4}
    pipeline.say("Forget where I work.")
    return pipeline


def refusing_refold(request: ModelRequest) -> str:
    raise RuntimeError("the summariser is down")


def test_a_stale_summary_is_folded_again_without_the_value(sql_url: str, tmp_path: Path) -> None:
    model = ScriptedModel("ok", "ok", "ok")
    pipeline = told_and_forgotten(sql_url, tmp_path, model)
    model.script += ["The user is in Leeds and wants short answers.", "Sure."]
    pipeline.say("Anything new?")

    refold, sent = model.requests[-2:]
    assert SECRET_PLACE in refold.messages[0].text  # told what must not appear
    assert SECRET_PLACE not in sent.messages[0].text
    assert "Leeds" in sent.messages[0].text
    assert SECRET_PLACE not in json.dumps(pipeline.session.provider_state("summary"))
    assert pipeline.warnings() == []


def test_a_failed_fold_sends_the_old_summary_with_the_value_marked(
    sql_url: str, tmp_path: Path
) -> None:
    model = ScriptedModel("ok", "ok", "ok")
    pipeline = told_and_forgotten(sql_url, tmp_path, model)
    model.script += [refusing_refold, "Sure."]
    pipeline.say("Anything new?")

    system = model.requests[-1].messages[0].text
    assert SECRET_PLACE not in system
    assert "The user works at [forgotten " in system  # the old summary, marked: never neither
    assert "in Leeds and wants short answers" in system
    assert any("could not be folded again" in w for w in pipeline.warnings())


def test_the_audits_copies_of_recalled_blocks_are_marked_and_say_so(
    sql_url: str, tmp_path: Path
) -> None:
    pipeline = told_and_forgotten(sql_url, tmp_path, ScriptedModel())
    records = asyncio.run(pipeline.audit.audit_records(pipeline.session.id, state={}))
    recalled = [r for r in records if "memory" in r.instructions]
    assert len(recalled) >= 2  # the question's turn and the forget's own turn recalled it
    for record in recalled:
        assert SECRET_PLACE not in json.dumps(record.to_dict()["instructions"])
        assert "[forgotten " in record.instructions["memory"]
        assert record.removed
        assert "memory" in record.removed[-1]["sources"]
    # The user's own words stay: the input of the first turn is a true record.
    assert SECRET_PLACE in records[0].input_messages[0].text
    rows = str(raw_query(sql_url, "SELECT record FROM ctxchat_audit"))
    assert rows.count(SECRET_PLACE) == rows.count(f"I work at {SECRET_PLACE}")


def test_a_run_with_memory_off_still_sends_no_forgotten_value(sql_url: str, tmp_path: Path) -> None:
    from ctxchat.services.memories import without

    model = ScriptedModel("ok", "ok", "ok")
    pipeline = told_and_forgotten(sql_url, tmp_path, model)
    off = Agent(
        model=model, providers=without(pipeline.agent.providers, memory=True, outside=False)
    )
    model.script += ["The user is in Leeds and wants short answers.", "Sure."]
    asyncio.run(off.run(pipeline.session, [Message.user("Anything new?", origin="typed")]))

    sent = model.requests[-1]
    assert "Leeds" in sent.messages[0].text  # the summary was sent, folded again
    assert SECRET_PLACE not in sent.messages[0].text
    assert "memory" not in [m.source_id for m in sent.messages]  # nothing recalled


def test_a_forget_marks_only_its_own_users_audit_rows(sql_url: str, tmp_path: Path) -> None:
    bob = Pipeline(sql_url, tmp_path, ScriptedModel(), user="bob")
    bob.say(f"I work at {SECRET_PLACE}.")
    bob.say("What should I wear to the office?")
    told_and_forgotten(sql_url, tmp_path, ScriptedModel())  # ada tells, then forgets

    rows = raw_query(sql_url, "SELECT user_key, record FROM ctxchat_audit")
    bobs = " ".join(str(r[1]) for r in rows if r[0] == "bob")
    adas = [str(r[1]) for r in rows if r[0] == "ada"]
    assert "[forgotten " not in bobs  # bob's copies are his: ada's forget leaves them
    assert bobs.count(SECRET_PLACE) >= 2
    assert any("[forgotten " in r for r in adas)


def test_the_forgotten_facts_provenance_is_recorded(sql_url: str, tmp_path: Path) -> None:
    pipeline = told_and_forgotten(sql_url, tmp_path, ScriptedModel())
    (told,) = [
        m.id for m in pipeline.model.requests[-1].messages if m.text == f"I work at {SECRET_PLACE}."
    ]
    assert pipeline.memory.forgotten_message_ids() == {told}
    assert SECRET_PLACE not in str(raw_query(sql_url, "SELECT * FROM ctxchat_memory_forgotten"))
    assert SECRET_PLACE not in str(raw_query(sql_url, "SELECT * FROM ctxchat_memory"))


def test_a_later_fold_does_not_bring_the_value_back(sql_url: str, tmp_path: Path) -> None:
    model = ScriptedModel("ok", "ok", "ok")
    pipeline = told_and_forgotten(sql_url, tmp_path, model)
    model.script += [refusing_refold, "Sure.", f"The user works at {SECRET_PLACE}."]
    pipeline.say("Anything new?")
    summary = pipeline.agent.provider("summary")
    assert isinstance(summary, SummaryProvider)
    state: dict[str, Any] = pipeline.session.provider_state("summary")
    state.pop("through", None)
    asyncio.run(summary.compact(pipeline.agent, pipeline.session, state, model, keep_turns=1))

    fold = model.requests[-1]
    assert "must not appear" in fold.messages[-1].text  # the fold was told...
    assert SECRET_PLACE not in state["summary"]  # ...and its answer cleaned all the same


def test_memory_forget_in_the_repl_marks_the_audit_too(sql_url: str, tmp_path: Path) -> None:
    from ctxchat.services.chat_commands import chat_commands
    from ctxchat.services.conversations import ChatService
    from ctxchat.storage.store import SessionStore

    pipeline = Pipeline(sql_url, tmp_path, ScriptedModel())
    service = ChatService(pipeline.agent, SessionStore(tmp_path / "sessions"))
    conversation = service.new()
    for text in (f"I work at {SECRET_PLACE}.", "What should I wear?"):
        asyncio.run(service.send(conversation, [Message.user(text, origin="typed")]))
    registry = chat_commands(pipeline.agent.run_providers())
    context = registry.context(service, conversation, "memory")
    asyncio.run(registry.dispatch("/memory", context))  # numbers are the listing's
    asyncio.run(registry.dispatch("/memory forget 1", context))

    records = asyncio.run(pipeline.audit.audit_records(conversation.session.id, state={}))
    assert "[forgotten " in records[-1].instructions["memory"]
    assert SECRET_PLACE not in json.dumps([r.to_dict()["instructions"] for r in records])


@pytest.mark.unmigrated
def test_a_memory_store_from_before_forget_records_upgrades_keeping_its_facts(
    sql_url: str, tmp_path: Path
) -> None:
    from datetime import UTC, datetime

    from ctxchat.providers.memory import Fact
    from ctxchat.providers.memory import schema as _memory_schema
    from ctxchat.storage.sql.schema import Store
    from ctxchat.storage.sql.store import close_all, open_database

    before = Store("memory", {1: _memory_schema._m1_memory}, _memory_schema._memory_tables)
    database = open_database(sql_url, [before])
    now = datetime.now(UTC)
    kept = Fact("f-old", "location", "Leeds", now, now)
    row = {"user_key": "ada", "fact_id": kept.id, "slot": kept.slot, "status": "active"}
    row |= {"last_seen": now, "fact": json.dumps(kept.to_dict())}
    database.write(lambda conn: conn.execute(before.tables.facts.insert().values(**row)))
    close_all()
    old = Pipeline(sql_url, tmp_path, ScriptedModel())
    old.say(f"I work at {SECRET_PLACE}.")  # opens the store: migration 2 runs
    old.say("Forget where I work.")
    assert [f["value"] for f in old.memory.remembered()] == ["Leeds"]
    assert len(old.memory.forgettings_since(None)) == 1
    versions = raw_query(sql_url, "SELECT version FROM ctxchat_migrations WHERE store = 'memory'")
    assert sorted(v for (v,) in versions) == [1, 2]


def test_a_session_scoped_forget_cleans_that_sessions_summary(sql_url: str, tmp_path: Path) -> None:
    model = ScriptedModel(*["ok"] * 8)
    pipeline = Pipeline(sql_url, tmp_path, model)
    pipeline.memory = UserMemoryProvider(
        "memory", UserMemoryProvider.Options(scope="session"), env=pipeline.memory.env
    )
    pipeline.agent = Agent(model=model, providers=[*pipeline.agent.providers[:-1], pipeline.memory])
    pipeline.say(f"I work at {SECRET_PLACE}.")
    pipeline.session.state["summary"] = {"summary": OLD_SUMMARY, "messages": 4}
    pipeline.say("Forget where I work.")
    pipeline.say("Anything new?")

    sent = model.requests[-1]
    assert "of the earlier conversation" in sent.messages[0].text  # a summary was sent
    assert SECRET_PLACE not in sent.messages[0].text
