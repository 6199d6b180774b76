"""The summary's folds around a turn: after it (within the turn, or left for the caller to
run in the background once the prompt is back) and, before the next request, whatever fell
out of the window that is not in the summary yet.

The catch-up is why a skipped or failed fold costs nothing the model needs: the request
after it shows every earlier turn, in full or summarised, never neither. Where the last
request's history started is kept in the state (`SHOWN_FROM`) until a fold covers what
fell out before it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ctxchat import (
    AgentView,
    CtxchatError,
    EventSink,
    HistoryProvider,
    Message,
    ProviderNotice,
    ProviderWarning,
    RunContext,
    Session,
)
from ctxchat.kit import turns

if TYPE_CHECKING:
    from ctxchat import ChatModel

    from .provider import SummaryProvider

RETRY_NOTE = "it is tried again after the next turn"


class SummaryFailed(CtxchatError):
    """The model could not fold the dropped turns into the summary."""


# In the state: where the last request's history started while a fold of what fell out
# before it is due (skipped, failed, or still running in the background).
SHOWN_FROM = "shown_from"
# In a run's metadata: the summariser failed before the request; not asked again after it.
FAILED_BEFORE_RUN = "{}.failed_before_run"


async def fold_after_turn(
    provider: SummaryProvider,
    agent: AgentView,
    session: Session,
    state: dict[str, Any],
    model: ChatModel,
    window: Sequence[Message],
    on_event: EventSink,
) -> None:
    """The fold after a stored turn (within it, or later in the background), its
    outcome said as a notice or a warning."""
    history = provider.history_of(agent)
    if history is None:
        return
    from .forget import forgettings, pending_forgets

    try:
        fold = await provider.fold(
            history,
            session,
            state,
            model,
            window,
            limit=provider.options.max_calls,
            only_if_dropped=True,
            forgotten=[*await forgettings(agent), *pending_forgets(state)],
        )
    except SummaryFailed as exc:
        state["failed"] = str(exc)
        message = f"the summary was not updated: {exc}; {RETRY_NOTE}"
        on_event(ProviderWarning(provider.source_id, message))
        return
    if fold.complete:
        state.pop(SHOWN_FROM, None)
    if fold.messages:
        more = "" if fold.complete else " (more on later turns)"
        message = f"summarised {fold.messages} older messages{more}: /context full shows it"
        on_event(ProviderNotice(provider.source_id, message))


async def catch_up(
    provider: SummaryProvider,
    agent: AgentView,
    session: Session,
    context: RunContext,
    state: dict[str, Any],
    history: HistoryProvider[Any],
) -> None:
    """Before the request: fold what fell out of the last request's window and is not in
    the summary yet (its fold was skipped, failed or is still due), so the model is
    shown every earlier turn, in full or summarised, never neither."""
    shown_from = state.get(SHOWN_FROM)
    model = context.model
    if not isinstance(shown_from, str) or model is None:
        return
    hstate = session.provider_state(history.source_id)
    window = window_from(await history.get_messages(session.id, state=hstate), shown_from)
    dropped, _ = await provider.uncovered(history, session, state, window)
    if not dropped:
        state.pop(SHOWN_FROM, None)
        return
    from .forget import forgettings, pending_forgets

    label = f"summarising {len(dropped)} older messages"
    context.progress(provider.source_id, label, 0, len(dropped))
    try:
        fold = await provider.fold(
            history,
            session,
            state,
            model,
            window,
            keep_turns=max(1, len(turns(window))),  # nothing ahead: only what fell out
            limit=provider.options.max_calls,
            only_if_dropped=True,
            forgotten=[*await forgettings(agent), *pending_forgets(state)],
        )
    except SummaryFailed as exc:
        state["failed"] = str(exc)
        context.metadata[FAILED_BEFORE_RUN.format(provider.source_id)] = True
        context.progress(provider.source_id, label, len(dropped), len(dropped))
        context.warn(
            provider.source_id,
            f"{len(dropped)} older messages are neither shown nor summarised in this "
            f"request: {exc}; {RETRY_NOTE}",
        )
        return
    context.progress(provider.source_id, label, len(dropped), len(dropped))
    if fold.complete:
        state.pop(SHOWN_FROM, None)


def told(context: RunContext) -> EventSink:
    """A sink that says a fold's notice or warning through the turn's context."""

    def tell(event: object) -> None:
        if isinstance(event, ProviderWarning):
            context.warn(event.source_id, event.message)
        elif isinstance(event, ProviderNotice):
            context.notify(event.source_id, event.message)

    return tell


def window_from(window: list[Message], first: object) -> list[Message]:
    """`window` from the message `first` on (whole when it holds no such message)."""
    ids = [m.id for m in window]
    return window[ids.index(first) :] if isinstance(first, str) and first in ids else window


def shown_next(window: list[Message], context: RunContext, history_id: str) -> list[Message]:
    """The part of the history's next window the model will be shown: when the context
    budget trimmed the oldest history from this turn's request, the window starts where
    this request's history started (or at this turn itself, if all of it went)."""
    budget = context.budget
    if budget is None or not budget.trimmed.get(history_id):
        return window
    sent = [m for m in context.context_messages.get(history_id, []) if m.kind == "history"]
    turn = [*context.input_messages, *(context.response.messages if context.response else ())]
    start = sent[0].id if sent else (turn[0].id if turn else None)
    ids = [m.id for m in window]
    return window[ids.index(start) :] if start in ids else window
