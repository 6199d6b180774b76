"""The in-session history: messages kept in the session file itself, so they survive restarts.
(The flags and the window are tested for every history kind in test_history_*.)"""

from __future__ import annotations

import asyncio
import json

import pytest
from historykit import LOOKUP, Contributor, shown_to

from ctxchat.config.loading import config_from_dict
from ctxchat.core.agent import Agent, TurnFailed
from ctxchat.core.errors import ConfigError
from ctxchat.core.messages import Message
from ctxchat.core.paths import sessions_dir
from ctxchat.core.session import Session
from ctxchat.providers.history.in_memory import InMemoryHistoryProvider
from ctxchat.services.build import build_agent
from ctxchat.services.conversations import ChatService
from ctxchat.storage.store import SessionStore
from ctxchat.testing import ScriptedModel


def service(model: ScriptedModel, **options: object) -> ChatService:
    """A fresh process's view: agent from config, sessions from disk."""
    config = config_from_dict(
        {"providers": [{"type": "in_memory_history", "source_id": "history", **options}]},
        path=None,
        environ={},
        model_overrides={},
    )
    agent = build_agent(config, model=model)
    return ChatService(agent, SessionStore(sessions_dir()))


def test_the_history_lives_in_the_session_file_and_survives_a_restart() -> None:
    model = ScriptedModel()
    chat = service(model)
    conversation = chat.new()
    asyncio.run(chat.send(conversation, "first"))
    asyncio.run(chat.send(conversation, "second"))
    session_id = conversation.session.id

    document = json.loads((sessions_dir() / f"{session_id}.json").read_text())
    entries = document["state"]["history"]["messages"]
    assert [(e["role"], e["parts"][0]["text"]) for e in entries] == [
        ("user", "first"),
        ("assistant", "echo: first"),
        ("user", "second"),
        ("assistant", "echo: second"),
    ]
    turn_ids = [e["turn"] for e in entries]
    assert turn_ids[0] == turn_ids[1] != turn_ids[2] == turn_ids[3]

    restarted = service(model)
    asyncio.run(restarted.send(restarted.open(session_id), "third"))
    assert [m["content"] for m in shown_to(model)] == [
        "first",
        "echo: first",
        "second",
        "echo: second",
        "third",
    ]


def test_undo_drops_the_last_turn_from_the_saved_session() -> None:
    model = ScriptedModel()
    chat = service(model)
    conversation = chat.new()
    asyncio.run(chat.send(conversation, "keep"))
    asyncio.run(chat.send(conversation, "drop"))

    removed = asyncio.run(chat.undo(conversation))

    assert [m.text for m in removed] == ["drop", "echo: drop"]
    reopened = service(model).open(conversation.session.id)
    assert reopened.session.turns == 1
    messages = asyncio.run(chat.transcript(reopened.session))
    assert [m.text for m in messages] == ["keep", "echo: keep"]


def test_a_tool_round_is_stored_as_plain_serialised_messages() -> None:
    history = InMemoryHistoryProvider("history")
    agent = Agent(
        model=ScriptedModel(ScriptedModel.calls(("lookup", {"q": "x"})), "found it"),
        providers=[history, Contributor("tools", tools=[LOOKUP])],
    )
    session = Session()
    asyncio.run(agent.run(session, "look"))

    entries = session.state["history"]["messages"]
    # JSON-ready: the session file is written with json.dumps and nothing else.
    assert json.loads(json.dumps(entries)) == entries
    assert [e["role"] for e in entries] == ["user", "assistant", "tool", "assistant"]
    assert entries[1]["parts"][0]["type"] == "tool_call"
    assert entries[2]["parts"][0] == {
        "type": "tool_result",
        "call_id": entries[1]["parts"][0]["id"],
        "content": "found x",
        "is_error": False,
    }
    assert entries[2]["attribution"] == {"kind": "tool", "source_id": "tools"}


def test_options_are_checked_when_the_pipeline_is_built() -> None:
    model = ScriptedModel()
    with pytest.raises(ConfigError, match=r"providers\[0\]\.max_messages: must be 0 or more"):
        service(model, max_messages=-5)
    with pytest.raises(ConfigError, match=r"providers\[0\]\.max_tokens: expected an integer"):
        service(model, max_tokens="lots")
    with pytest.raises(ConfigError, match=r"unknown option \(did you mean 'store_inputs'\?\)"):
        service(model, store_input=False)


def test_a_damaged_state_fails_the_turn_with_the_providers_name() -> None:
    model = ScriptedModel()
    agent = Agent(model=model, providers=[InMemoryHistoryProvider("history")])
    session = Session(state={"history": {"messages": "not a list"}})
    with pytest.raises(TurnFailed, match="provider 'history' failed in before_run"):
        asyncio.run(agent.run(session, "hi"))
    assert model.requests == []


def test_undo_on_messages_stored_before_turns_had_ids_drops_one_exchange() -> None:
    history = InMemoryHistoryProvider("history")
    legacy = [
        Message.user("one").to_dict(),
        Message.assistant("re: one").to_dict(),
        Message.user("two").to_dict(),
        Message.assistant("re: two").to_dict(),
    ]
    state: dict[str, object] = {"messages": legacy}

    removed = asyncio.run(history.remove_last_turn("s", state=state))

    assert [m.text for m in removed] == ["two", "re: two"]
    assert [e["parts"][0]["text"] for e in legacy] == ["one", "re: one"]
