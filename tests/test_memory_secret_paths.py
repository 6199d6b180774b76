"""Every path into the memory store goes through the one secret screen, on SQLite and
PostgreSQL: the rules extractor, the LLM extractor, `/memory add`, the import function, and
the store's own write boundary, which refuses a secret whoever hands it one."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from historykit import raw_query

from ctxchat.core.agent import Agent
from ctxchat.core.errors import UsageError
from ctxchat.core.messages import Message
from ctxchat.core.model_types import Event, ProviderNotice
from ctxchat.core.provider import ProviderEnv
from ctxchat.core.session import Session
from ctxchat.providers.history.in_memory import InMemoryHistoryProvider
from ctxchat.providers.memory import Fact
from ctxchat.providers.memory.importing import import_facts
from ctxchat.providers.memory.provider import UserMemoryProvider
from ctxchat.providers.memory.secrets import SecretRefused
from ctxchat.providers.memory.turn_learning import SECRET_NOTE
from ctxchat.services.chat_commands import chat_commands
from ctxchat.services.conversations import ChatService
from ctxchat.storage.store import SessionStore
from ctxchat.testing import ScriptedModel

pytest_plugins = ["sqlfixtures"]

# Built at run time so no scanner mistakes the test data for leaked credentials.
BARE_SECRETS = [
    "sk-" + "proj-" + "A1b2C3d4E5f6G7h8I9j0K1l2",
    "AKIA" + "IOSFODNN7EXAMPLE",
    "4111 1111 1111 1111",
    "eyJhbGciOiJIUzI1NiJ9" + "." + "eyJzdWIiOiIxMjM0NTY3ODkwIn0" + "." + "abcDEF123ghiJKL456",
]
TOLD = [
    ("Remember that my login is alice / Tr0ub4dor&3", "Tr0ub4dor"),
    ("my bank login is alice:Hunter2Pass", "Hunter2Pass"),
    ("my SSN is 078-05-1120", "078-05-1120"),
]


def provider_on(url: str, tmp_path: Path, **options: Any) -> UserMemoryProvider:
    env = ProviderEnv(data_dir=tmp_path / "data")
    return UserMemoryProvider(
        "memory", UserMemoryProvider.Options(url=url, user="ada", **options), env=env
    )


def stored(url: str) -> str:
    return str(raw_query(url, "SELECT * FROM ctxchat_memory"))


def said(provider: UserMemoryProvider, text: str, model: Any = None) -> list[str]:
    agent = Agent(
        model=model or ScriptedModel(), providers=[InMemoryHistoryProvider("history"), provider]
    )
    events: list[Event] = []
    message = Message.user(text, origin="typed")
    asyncio.run(agent.run(Session(), [message], on_event=events.append))
    return [e.message for e in events if isinstance(e, ProviderNotice)]


@pytest.mark.parametrize(("text", "secret"), TOLD)
def test_the_rules_extractor_stores_no_told_secret(
    sql_url: str, tmp_path: Path, text: str, secret: str
) -> None:
    provider = provider_on(sql_url, tmp_path)
    assert said(provider, text) == [SECRET_NOTE]
    assert provider.remembered() == []
    assert secret not in stored(sql_url)


def test_the_llm_extractor_stores_no_secret(sql_url: str, tmp_path: Path) -> None:
    text = "my SSN is 078-05-1120 and I live in Leeds"
    ops = {
        "operations": [
            {
                "op": "add",
                "slot": None,
                "value": "SSN 078-05-1120",
                "evidence": "my SSN is 078-05-1120",
            },
            {"op": "add", "slot": "location", "value": "Leeds", "evidence": "I live in Leeds"},
        ]
    }
    provider = provider_on(sql_url, tmp_path, extractor="llm")
    notices = said(provider, text, ScriptedModel("Noted.", json.dumps(ops)))
    assert SECRET_NOTE in notices
    assert [f["value"] for f in provider.remembered()] == ["Leeds"]
    assert "078-05-1120" not in stored(sql_url)


@pytest.mark.parametrize("secret", BARE_SECRETS)
def test_memory_add_refuses_a_bare_secret(sql_url: str, tmp_path: Path, secret: str) -> None:
    provider = provider_on(sql_url, tmp_path)
    agent = Agent(model=ScriptedModel(), providers=[InMemoryHistoryProvider("history"), provider])
    service = ChatService(agent, SessionStore(tmp_path / "sessions"))
    conversation = service.new()
    registry = chat_commands(agent.run_providers())
    context = registry.context(service, conversation, "memory")
    with pytest.raises(UsageError, match="looks like a password, key or account number"):
        asyncio.run(registry.dispatch(f"/memory add {secret}", context))
    assert provider.remembered() == []
    assert secret not in stored(sql_url)


def fact(fact_id: str, value: str) -> Fact:
    now = datetime.now(UTC)
    return Fact(fact_id, None, value, now, now)


@pytest.mark.parametrize("scope", ["user", "session"])
def test_the_store_refuses_a_secret_whoever_hands_it_one(
    sql_url: str, tmp_path: Path, scope: str
) -> None:
    provider = provider_on(sql_url, tmp_path, scope=scope)
    state: dict[str, Any] = {}
    memory = provider.memory(state)
    memory.change(lambda facts: facts.add(fact("f1", "likes jazz")))

    def sneak(facts: Any) -> None:
        facts.add(fact("f2", "plays the cello"))  # written only if the whole change is
        facts.add(fact("f3", BARE_SECRETS[1]))

    with pytest.raises(SecretRefused):
        memory.change(sneak)
    with pytest.raises(SecretRefused):
        memory.change(lambda facts: facts.replace(fact("f1", "login: alice / Tr0ub4dor&3")))
    known, _ = memory.facts()
    assert [f.value for f in known.all()] == ["likes jazz"]
    kept = json.dumps(state) if scope == "session" else stored(sql_url)
    assert "likes jazz" in kept
    assert BARE_SECRETS[1] not in kept
    assert "cello" not in kept
    assert "Tr0ub4dor" not in kept


def test_import_refuses_each_secret_and_keeps_the_rest(sql_url: str, tmp_path: Path) -> None:
    provider = provider_on(sql_url, tmp_path)
    facts = [fact("a", "likes jazz"), fact("b", BARE_SECRETS[0]), fact("c", "lives in Oslo")]
    result = import_facts(provider.memory({}), facts)
    assert (result.added, result.refused) == (2, 1)
    assert sorted(f["value"] for f in provider.remembered()) == ["likes jazz", "lives in Oslo"]
    assert BARE_SECRETS[0] not in stored(sql_url)


def test_a_summary_never_keeps_a_secret_told_in_the_conversation(tmp_path: Path) -> None:
    from ctxchat.providers.summary.provider import SummaryProvider

    told = "Remember that my login is alice / Tr0ub4dor&3"
    echoed = f"The user said: {told}. They also gave the key {BARE_SECRETS[1]}."
    model = ScriptedModel("ok", "ok", "ok", echoed)
    history = InMemoryHistoryProvider("history")
    summary = SummaryProvider("summary")
    agent = Agent(model=model, providers=[history, summary])
    session = Session()
    for text in (told, f"and {BARE_SECRETS[1]}", "thanks"):
        asyncio.run(agent.run(session, text))
    state = session.provider_state("summary")
    asyncio.run(summary.compact(agent, session, state, model, keep_turns=1))

    assert "Never write down a password" in model.requests[-1].messages[0].text
    assert "[secret withheld]" in state["summary"]
    assert "Tr0ub4dor" not in state["summary"]
    assert BARE_SECRETS[1] not in state["summary"]
