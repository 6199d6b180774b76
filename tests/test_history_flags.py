"""What each history flag changes, seen where it matters: in what the model is shown and in
what is stored. The same tests run on every history kind (in memory, SQLite, PostgreSQL)."""

from __future__ import annotations

import asyncio

import pytest
from historykit import (
    LOOKUP,
    Contributor,
    HistoryFactory,
    failing,
    scripted_agent,
    shown_to,
    stored,
    texts,
    turn,
)

from ctxchat.core.agent import TurnFailed
from ctxchat.core.session import Session
from ctxchat.testing import ScriptedModel

pytest_plugins = ["sqlfixtures"]


def test_earlier_turns_are_shown_to_the_model_in_order(make_history: HistoryFactory) -> None:
    model = ScriptedModel()
    agent = scripted_agent(model, make_history())
    session = Session()
    turn(agent, session, "first")
    turn(agent, session, "second")
    turn(agent, session, "third")

    assert [(m["role"], m["content"]) for m in shown_to(model)] == [
        ("user", "first"),
        ("assistant", "echo: first"),
        ("user", "second"),
        ("assistant", "echo: second"),
        ("user", "third"),
    ]
    assert [(m["role"], m["content"]) for m in shown_to(model, 0)] == [("user", "first")]


def test_load_messages_false_stores_but_shows_nothing(make_history: HistoryFactory) -> None:
    history = make_history(load_messages=False)
    model = ScriptedModel()
    agent = scripted_agent(model, history)
    session = Session()
    turn(agent, session, "first")
    turn(agent, session, "second")

    assert [m["content"] for m in shown_to(model)] == ["second"]
    assert texts(stored(history, session)) == [
        ("user", "first"),
        ("assistant", "echo: first"),
        ("user", "second"),
        ("assistant", "echo: second"),
    ]


def test_store_inputs_false_keeps_only_the_replies(make_history: HistoryFactory) -> None:
    history = make_history(store_inputs=False)
    model = ScriptedModel()
    agent = scripted_agent(model, history)
    session = Session()
    turn(agent, session, "first")
    turn(agent, session, "second")

    assert [(m["role"], m["content"]) for m in shown_to(model)] == [
        ("assistant", "echo: first"),
        ("user", "second"),
    ]
    assert [m.role for m in stored(history, session)] == ["assistant", "assistant"]


def test_store_outputs_false_keeps_only_the_inputs(make_history: HistoryFactory) -> None:
    history = make_history(store_outputs=False)
    model = ScriptedModel()
    agent = scripted_agent(model, history)
    session = Session()
    model.script += [ScriptedModel.calls(("lookup", {"q": "x"})), "done"]
    turn(agent, session, "first")  # a tool round: none of it is kept
    turn(agent, session, "second")

    assert texts(stored(history, session)) == [("user", "first"), ("user", "second")]
    assert [(m["role"], m["content"]) for m in shown_to(model)] == [
        ("user", "first"),
        ("user", "second"),
    ]


@pytest.mark.parametrize(
    ("options", "kept"),
    [
        ({}, []),
        ({"store_context_messages": True}, ["note from notes", "note from rag"]),
        ({"store_context_messages": True, "store_context_from": ["rag"]}, ["note from rag"]),
    ],
)
def test_store_context_messages_and_store_context_from(
    make_history: HistoryFactory,
    options: dict[str, object],
    kept: list[str],
) -> None:
    history = make_history(**options)
    notes = Contributor("notes", messages=["note from notes"])
    rag = Contributor("rag", messages=["note from rag"])
    model = ScriptedModel()
    agent = scripted_agent(model, history, notes, rag)
    session = Session()
    turn(agent, session, "first")
    turn(agent, session, "second")

    messages = stored(history, session)
    per_turn = [*kept, "first", "echo: first"]
    assert [m.text for m in messages] == [*per_turn, *kept, "second", "echo: second"]
    # What the history itself loaded is never stored again, however many turns pass.
    context_sources = {m.source_id for m in messages if m.kind == "context"}
    assert context_sources == {t.removeprefix("note from ") for t in kept}
    # The model saw the stored context as history, then this turn's context, then the input.
    assert [m["content"] for m in shown_to(model)] == [
        *per_turn,
        "note from notes",
        "note from rag",
        "second",
    ]


def test_tool_calls_and_results_are_stored_and_replayed_as_pairs(
    make_history: HistoryFactory,
) -> None:
    history = make_history()
    model = ScriptedModel()
    agent = scripted_agent(model, history, Contributor("tools", tools=[LOOKUP]))
    session = Session()
    model.script += [
        ScriptedModel.calls(("lookup", {"q": "cats"}), ("lookup", {"q": "dogs"})),
        "cats and dogs found",
    ]
    turn(agent, session, "find pets")
    turn(agent, session, "thanks")

    replay = shown_to(model)
    assert [m["role"] for m in replay] == ["user", "assistant", "tool", "tool", "assistant", "user"]
    call_ids = [c["id"] for c in replay[1]["tool_calls"]]
    assert [m["tool_call_id"] for m in replay[2:4]] == call_ids
    assert [m["content"] for m in replay[2:4]] == ["found cats", "found dogs"]
    roles = [(m.role, m.kind) for m in stored(history, session)]
    assert roles[:5] == [
        ("user", "input"),
        ("assistant", "response"),
        ("tool", "tool"),
        ("tool", "tool"),
        ("assistant", "response"),
    ]


def test_a_failed_turn_stores_nothing_and_is_not_shown_later(make_history: HistoryFactory) -> None:
    history = make_history()
    model = ScriptedModel()
    agent = scripted_agent(model, history, Contributor("tools", tools=[LOOKUP]))
    session = Session()
    turn(agent, session, "first")
    # The model called a tool, the tool answered, then the second model call failed.
    model.script += [ScriptedModel.calls(("lookup", {"q": "x"})), failing("HTTP 500")]
    with pytest.raises(TurnFailed, match="HTTP 500"):
        turn(agent, session, "doomed")
    turn(agent, session, "third")

    assert texts(stored(history, session)) == [
        ("user", "first"),
        ("assistant", "echo: first"),
        ("user", "third"),
        ("assistant", "echo: third"),
    ]
    assert "doomed" not in str(shown_to(model))


def test_undo_removes_the_last_turn_whole(make_history: HistoryFactory) -> None:
    history = make_history()
    model = ScriptedModel()
    agent = scripted_agent(model, history, Contributor("tools", tools=[LOOKUP]))
    session = Session()
    turn(agent, session, "keep")
    model.script += [ScriptedModel.calls(("lookup", {"q": "x"})), "looked"]
    turn(agent, session, "drop")
    state = session.provider_state("history")

    removed = asyncio.run(history.remove_last_turn(session.id, state=state))

    assert [m.role for m in removed] == ["user", "assistant", "tool", "assistant"]
    assert removed[0].text == "drop"
    assert texts(stored(history, session)) == [("user", "keep"), ("assistant", "echo: keep")]
    turn(agent, session, "next")
    assert [m["content"] for m in shown_to(model)] == ["keep", "echo: keep", "next"]
    asyncio.run(history.remove_last_turn(session.id, state=state))
    asyncio.run(history.remove_last_turn(session.id, state=state))
    assert asyncio.run(history.remove_last_turn(session.id, state=state)) == []
    assert stored(history, session) == []
