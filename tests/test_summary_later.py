"""The summary's fold left for later, and the request after a fold that did not happen:
the engine with a scripted model.

What is checked: a caller that offers to run learning later gets the fold as deferred work
with its label, and nothing is folded within the turn; the work, run on the session, folds
and says so; when it never runs (skipped) or the summariser failed after the budget
trimmed the request, the next request still shows every earlier turn, in full or in the
summary it folds first."""

from __future__ import annotations

import asyncio
from typing import Any

from cli_support import FOLD_MARK

from ctxchat.core.agent import Agent
from ctxchat.core.context import RunContext
from ctxchat.core.errors import CtxchatError
from ctxchat.core.model_types import Event, ModelRequest, ProviderNotice
from ctxchat.core.session import Session
from ctxchat.providers.history.in_memory import InMemoryHistoryProvider
from ctxchat.providers.summary.provider import SummaryProvider
from ctxchat.testing import ScriptedModel

WORDS = "lorem ipsum dolor sit amet " * 12  # ~80 tokens a message


def is_fold(request: ModelRequest) -> bool:
    return request.messages[0].text.startswith(FOLD_MARK)


class Summariser:
    """Replies to fold requests with SUMMARY-n (or fails them while `down`), else 'ok'."""

    def __init__(self) -> None:
        self.down = False
        self.count = 0

    def __call__(self, request: ModelRequest) -> str:
        if not is_fold(request):
            return "ok"
        if self.down:
            raise CtxchatError("the summariser is down")
        self.count += 1
        return f"SUMMARY-{self.count}"


def run(agent: Agent, session: Session, text: str, **kwargs: Any) -> RunContext:
    return asyncio.run(agent.run(session, text, **kwargs))


def user_words(request: ModelRequest) -> list[str]:
    return [m.text.split()[0] for m in request.messages if m.role == "user"]


def test_a_deferred_fold_is_left_to_the_caller_and_folds_when_run() -> None:
    model = ScriptedModel(*[Summariser()] * 100)
    history = InMemoryHistoryProvider("history", InMemoryHistoryProvider.Options(max_messages=4))
    agent = Agent(
        model=model,
        providers=[history, SummaryProvider("summary", SummaryProvider.Options(keep_turns=1))],
    )
    session = Session()
    for n in (1, 2):
        run(agent, session, f"q{n}", defer=True)
    context = run(agent, session, "q3", defer=True)  # q1 falls out of the window
    assert not [r for r in model.requests if is_fold(r)]  # not within the turn
    assert context.deferred is not None
    [work] = context.deferred
    assert work.source_id == "summary"
    assert work.label == "summarising 4 older messages"  # q1 dropped, q2 ahead

    events: list[Event] = []
    asyncio.run(work.run(session, session.provider_state("summary"), events.append))
    [fold] = [r for r in model.requests if is_fold(r)]
    assert "user: q1" in fold.messages[1].text
    assert "user: q2" in fold.messages[1].text
    assert session.state["summary"]["summary"] == "SUMMARY-1"
    assert "shown_from" not in session.state["summary"]
    assert any(isinstance(e, ProviderNotice) and "summarised 4" in e.message for e in events)
    run(agent, session, "q4")
    assert len([r for r in model.requests if is_fold(r)]) == 1  # nothing left to catch up
    assert "SUMMARY-1" in model.requests[-1].messages[0].text


def test_a_skipped_fold_is_caught_up_first_with_only_what_fell_out() -> None:
    model = ScriptedModel(*[Summariser()] * 100)
    history = InMemoryHistoryProvider("history", InMemoryHistoryProvider.Options(max_messages=4))
    agent = Agent(
        model=model,
        providers=[history, SummaryProvider("summary", SummaryProvider.Options(keep_turns=1))],
    )
    session = Session()
    for n in (1, 2, 3):
        run(agent, session, f"q{n}", defer=True)  # the deferred fold is never run
    progress: list[Event] = []
    run(agent, session, "q4", on_event=progress.append, defer=True)
    [fold] = [r for r in model.requests if is_fold(r)]
    assert "user: q1" in fold.messages[1].text  # what fell out, not the window ahead
    assert "user: q2" not in fold.messages[1].text
    chat = [r for r in model.requests if not is_fold(r)][-1]
    assert "SUMMARY-1" in chat.messages[0].text
    assert user_words(chat) == ["q2", "q3", "q4"]
    labels = {getattr(e, "label", None) for e in progress}
    assert "summarising 2 older messages" in labels


def test_the_request_after_a_trim_whose_fold_failed_still_shows_every_earlier_turn() -> None:
    summariser = Summariser()
    model = ScriptedModel(*[summariser] * 100, window=700)
    history = InMemoryHistoryProvider(
        "history", InMemoryHistoryProvider.Options(max_messages=0)
    )  # only the budget drops
    agent = Agent(
        model=model,
        providers=[history, SummaryProvider("summary", SummaryProvider.Options(keep_turns=1))],
    )
    session = Session()
    summariser.down = True
    n = 0
    while True:  # until the budget trims the request (and the fold after it fails)
        context = run(agent, session, f"q{n} {WORDS}")
        n += 1
        if context.budget is not None and context.budget.trimmed:
            break
    summariser.down = False
    before = len(model.requests)
    run(agent, session, f"q{n} {WORDS}")
    asked = model.requests[before:]
    folded = "\n".join(r.messages[1].text for r in asked if is_fold(r))
    [chat, *_] = [r for r in asked if not is_fold(r)]
    assert "SUMMARY-" in chat.messages[0].text
    shown = user_words(chat)
    for earlier in range(n):
        assert (f"user: q{earlier} " in folded) or (f"q{earlier}" in shown), f"q{earlier}"
