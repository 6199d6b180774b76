"""Compaction: the summary provider folds what fell out of the window into a rolling
summary, on a scripted model, with every kind of history.

What is checked: a fold request holds the previous summary and exactly the messages newly
taken in, never one summarised before; the next chat request carries the summary and the
rest of the window, each message once; a failing fold leaves the turn successful and is
retried; a new process (a fresh provider and history over the same files) resumes at the
right place; turns the context budget trimmed are folded too."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from cli_support import FOLD_MARK, is_fold
from historykit import HistoryFactory

from ctxchat.core.agent import Agent
from ctxchat.core.context import RunContext
from ctxchat.core.errors import ModelError
from ctxchat.core.limits import ContextLimits
from ctxchat.core.model_types import (
    Event,
    EventSink,
    ModelReply,
    ModelRequest,
    ProviderNotice,
    ProviderWarning,
)
from ctxchat.core.openai_format import to_openai_messages
from ctxchat.core.provider import HistoryProvider
from ctxchat.core.session import Session
from ctxchat.core.tokens import count_message_tokens
from ctxchat.providers.history.in_memory import InMemoryHistoryProvider
from ctxchat.providers.summary.provider import SummaryProvider
from ctxchat.testing import ScriptedModel

pytest_plugins = ["sqlfixtures"]


class Sent:
    """A request the scripted model took, as the wire carries it."""

    def __init__(self, request: ModelRequest) -> None:
        self.messages = to_openai_messages(request.messages)


class Summariser(ScriptedModel):
    """Fold requests get SUMMARY-1, SUMMARY-2, ... (or fail while `down` says why); chat
    requests the echo."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0
        self.down: str | None = None

    async def complete(self, request: ModelRequest, on_event: EventSink) -> ModelReply:
        if is_fold(Sent(request)):
            if self.down is not None:
                self.requests.append(request)
                raise ModelError(self.down)
            self.count += 1
            self.script.insert(0, f"SUMMARY-{self.count}")
        return await super().complete(request, on_event)


def folds(model: ScriptedModel) -> list[Sent]:
    return [sent for sent in map(Sent, model.requests) if is_fold(sent)]


def chats(model: ScriptedModel) -> list[Sent]:
    return [sent for sent in map(Sent, model.requests) if not is_fold(sent)]


def turn_texts(request: Sent) -> list[str]:
    """The user texts a request carries (history and input), in order."""
    return [str(m["content"]) for m in request.messages if m["role"] == "user"]


def system_text(request: Sent) -> str:
    return str(request.messages[0]["content"]) if request.messages[0]["role"] == "system" else ""


def run(agent: Agent, session: Session, text: str) -> tuple[RunContext, list[Event]]:
    events: list[Event] = []
    context = asyncio.run(agent.run(session, text, on_event=events.append))
    return context, events


def pipeline(
    model: ScriptedModel, history: HistoryProvider[Any], **options: Any
) -> tuple[Agent, SummaryProvider]:
    summary = SummaryProvider("summary", SummaryProvider.Options(**options), env=history.env)
    agent = Agent(model=model, providers=[history, summary])
    return agent, summary


def test_dropped_turns_are_folded_and_the_next_request_carries_summary_and_window(
    make_history: HistoryFactory,
) -> None:
    model = Summariser()
    # A window of four messages: two turns. keep_turns=1: a fold leaves the newest turn.
    agent, _ = pipeline(model, make_history(max_messages=4), keep_turns=1)
    session = Session()
    for n in (1, 2):
        run(agent, session, f"q{n}")
    assert folds(model) == []  # nothing fell out yet
    _, events = run(agent, session, "q3")  # q1 falls out of the window
    [first] = folds(model)
    fold_text = str(first.messages[1]["content"])
    assert "(none yet" in fold_text
    # The dropped turn and the older part of the window (q2), nothing else.
    assert "user: q1" in fold_text
    assert "assistant: echo: q1" in fold_text
    assert "user: q2" in fold_text
    assert "q3" not in fold_text
    assert any(isinstance(e, ProviderNotice) and "summarised 4" in e.message for e in events)

    run(agent, session, "q4")
    request = chats(model)[-1]
    assert "SUMMARY-1" in system_text(request)
    assert '<context source="summary">' in system_text(request)
    assert turn_texts(request) == ["q3", "q4"]  # q2 is in the summary, not repeated
    assert len(folds(model)) == 1  # q3 is still shown in full: nothing to fold

    run(agent, session, "q5")  # q3 falls out: folded with the previous summary
    second = folds(model)[-1]
    fold_text = str(second.messages[1]["content"])
    assert "SUMMARY-1" in fold_text
    assert "user: q3" in fold_text
    assert "user: q4" in fold_text
    for old in ("q1", "q2", "q5"):
        assert f"user: {old}" not in fold_text  # never folded twice, never the new turn
    run(agent, session, "q6")
    request = chats(model)[-1]
    assert "SUMMARY-2" in system_text(request)
    assert "SUMMARY-1" not in system_text(request)
    assert turn_texts(request) == ["q5", "q6"]


def test_a_failing_fold_leaves_the_turn_standing_and_is_retried() -> None:
    model = Summariser()
    agent, _ = pipeline(
        model,
        InMemoryHistoryProvider("history", InMemoryHistoryProvider.Options(max_messages=4)),
        keep_turns=1,
    )
    session = Session()
    run(agent, session, "q1")
    run(agent, session, "q2")
    model.down = "the summariser is down"
    context, events = run(agent, session, "q3")
    assert context.response is not None
    assert context.response.text == "echo: q3"
    warnings = [e.message for e in events if isinstance(e, ProviderWarning)]
    assert len(warnings) == 1
    assert "the summary was not updated" in warnings[0]
    assert "tried again" in warnings[0]
    assert "summariser is down" in warnings[0]
    state = session.state["summary"]
    assert "summary" not in state
    assert "down" in state["failed"]
    assert len(session.state["history"]["messages"]) == 6  # the turn is stored

    model.down = None
    run(agent, session, "q4")
    catch_up, after = folds(model)[-2:]
    # Before q4's request: q1, which fell out while the summariser was down, and only it,
    # so that request shows every earlier turn, in full or summarised.
    first = str(catch_up.messages[1]["content"])
    assert "user: q1" in first
    assert "user: q2" not in first
    request = chats(model)[-1]
    assert "SUMMARY-1" in system_text(request)
    assert turn_texts(request) == ["q2", "q3", "q4"]
    # After it, as after every turn: q2 has fallen out now, folded with q3 ahead.
    second = str(after.messages[1]["content"])
    assert "SUMMARY-1" in second
    assert "user: q2" in second
    assert "user: q3" in second
    assert "user: q1" not in second
    assert session.state["summary"]["summary"] == "SUMMARY-2"
    assert "failed" not in session.state["summary"]


def test_a_new_process_resumes_where_the_summary_stopped(make_history: HistoryFactory) -> None:
    model = Summariser()
    agent, _ = pipeline(model, make_history(max_messages=4), keep_turns=1)
    session = Session()
    for n in range(1, 4):
        run(agent, session, f"q{n}")
    assert len(folds(model)) == 1
    saved = session.to_dict()

    # A restart: new provider objects over the same storage, the session read back.
    again, _ = pipeline(model, make_history(max_messages=4), keep_turns=1)
    resumed = Session.from_dict(saved)
    run(again, resumed, "q4")
    assert len(folds(model)) == 1  # nothing refolded
    request = chats(model)[-1]
    assert "SUMMARY-1" in system_text(request)
    assert turn_texts(request) == ["q3", "q4"]
    run(again, resumed, "q5")
    fold_text = str(folds(model)[-1].messages[1]["content"])
    assert "user: q3" in fold_text
    assert "user: q2" not in fold_text


def test_turns_the_budget_trimmed_are_folded_and_the_request_fits() -> None:
    words = "lorem ipsum dolor sit amet " * 12  # ~80 tokens a message

    def reply(request: ModelRequest) -> str:
        return "SHORT SUMMARY" if request.messages[0].text.startswith(FOLD_MARK) else "ok"

    model = ScriptedModel(*[reply] * 100, window=700)
    # An unlimited history window: only the budget drops anything.
    history = InMemoryHistoryProvider("history", InMemoryHistoryProvider.Options(max_messages=0))
    agent = Agent(
        model=model,
        providers=[history, SummaryProvider("summary", SummaryProvider.Options(keep_turns=1))],
    )
    session = Session()
    for n in range(8):
        run(agent, session, f"q{n} {words}")
    limits: ContextLimits = asyncio.run(model.limits())
    chat = [r for r in model.requests if not r.messages[0].text.startswith(FOLD_MARK)]
    fold = [r for r in model.requests if r.messages[0].text.startswith(FOLD_MARK)]
    assert fold, "the trimmed turns were never folded"
    for request in model.requests:
        used = sum(count_message_tokens(m, limits.count_text) for m in request.messages)
        assert used <= limits.room
    last = chat[-1]
    assert "SHORT SUMMARY" in last.messages[0].text
    folded = "\n".join(r.messages[1].text for r in fold)
    shown = [m.text.split()[0] for m in last.messages if m.role == "user"]
    # Every earlier question is either folded or still shown, never both, never lost.
    for n in range(8):
        in_summary = f"user: q{n} " in folded
        assert in_summary != (f"q{n}" in shown), f"q{n}"


def test_the_summary_must_come_after_its_history() -> None:
    summary = SummaryProvider("summary")
    agent = Agent(model=ScriptedModel(), providers=[summary, InMemoryHistoryProvider("history")])
    with pytest.raises(Exception, match="must come after the history it summarises"):
        asyncio.run(agent.run(Session(), "hi"))
