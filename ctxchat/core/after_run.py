"""What follows a turn's model calls (`Agent.run`'s steps 3 to 5): the histories store it,
the caller commits it, every provider records it, the others learn from it.

Storing, the commit and recording cannot be cut short by Ctrl-C (each store is one short
transaction): a turn the session counts is never half in a history. Learning can, and the
turn stands (`context.learning_interrupted`). A provider whose hook leaves values in its
state that are not plain JSON gets its state back as it was, and a warning.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from ctxchat.core.context import RunContext
from ctxchat.core.errors import CtxchatError, TurnNotStored
from ctxchat.core.jsonstate import check_state, snapshot
from ctxchat.core.model_types import EventSink, ProviderWarning
from ctxchat.core.provider import ContextProvider, HistoryProvider
from ctxchat.core.session import Session

if TYPE_CHECKING:
    from ctxchat.core.agent import Agent

T = TypeVar("T")
AnyProvider = ContextProvider[Any]
# The caller's commit of a stored turn (see `Agent.run`).
Commit = Callable[[RunContext], Awaitable[None]]
# The stages after the model: the histories store, every provider records, the rest learn.
Stage = Literal["store", "record", "learn"]


async def after_run(
    agent: Agent,
    session: Session,
    context: RunContext,
    providers: Sequence[AnyProvider],
    on_event: EventSink,
    on_stored: Commit | None,
) -> list[ProviderWarning]:
    warnings: list[ProviderWarning] = []
    storing = [p for p in reversed(providers) if p.stores_turn]
    learning = [p for p in reversed(providers) if not p.stores_turn]
    for provider in storing:
        failure = await _after_run_of(agent, provider, session, context, stage="store")
        if failure is not None and context.error is None:
            context.error = TurnNotStored.by_history(provider.source_id, failure)
        elif failure is not None:
            warnings.append(_warn(provider, failure, on_event, emit=False))
    if context.error is None and on_stored is not None:
        await _commit(on_stored, session, context, storing)
    context.stored = context.error is None
    # A failed turn's warnings go into its one error line instead.
    emit = context.error is None
    for provider in providers:  # the turn is settled: record it, in config order
        failure = await _after_run_of(agent, provider, session, context, stage="record")
        if failure is not None:
            warnings.append(_warn(provider, failure, on_event, emit=emit))
    learner = None
    try:
        for learner in learning:
            failure = await _after_run_of(agent, learner, session, context, stage="learn")
            if failure is not None:
                warnings.append(_warn(learner, failure, on_event, emit=emit))
    except asyncio.CancelledError:
        # Ctrl-C while providers learn from the turn: they stop, the turn stands, and
        # the caller says so (a script exits 130).
        task = asyncio.current_task()
        if task is not None:
            task.uncancel()
        context.learning_interrupted = True
        kept = "kept" if context.stored else "not kept"
        interrupted = f"interrupted while learning: the turn was {kept}, nothing more was learnt"
        assert learner is not None  # only a learner's hook can be cut short
        # Not an event: the caller says it in its own one line (a script's exit 130).
        warnings.append(_warn(learner, interrupted, on_event, emit=False))
    return warnings


async def _commit(
    on_stored: Commit,
    session: Session,
    context: RunContext,
    storing: Sequence[AnyProvider],
) -> None:
    """Await the caller's commit; when it fails, take the turn back out of every
    history that stored it, and fail the turn saying which (if any) still hold it."""
    try:
        await finish_despite_cancel(asyncio.ensure_future(on_stored(context)))
    except Exception as exc:
        reason = str(exc) if isinstance(exc, CtxchatError) else f"{type(exc).__name__}: {exc}"
    else:
        return
    kept: list[str] = []
    for provider in storing:
        if not isinstance(provider, HistoryProvider):
            continue
        state = session.provider_state(provider.source_id)
        try:
            discard = provider.discard_turn(session.id, context.turn_id, state=state)
            undone = await finish_despite_cancel(asyncio.ensure_future(discard))
        except Exception:
            undone = False
        if not undone:
            kept.append(provider.source_id)
    if kept:
        names = ", ".join(f"'{k}'" for k in kept)
        reason += f"; history {names} still holds it until the session is next opened"
    context.error = TurnNotStored(reason, kept_by=tuple(kept))


async def _after_run_of(
    agent: Agent, provider: AnyProvider, session: Session, context: RunContext, *, stage: Stage
) -> str | None:
    """Run one provider's hook of an after-run stage (`record_turn` for "record",
    `after_run` otherwise); what went wrong, or None. Storing and recording cannot be
    cut short by Ctrl-C; learning can. A provider that leaves non-JSON values in its
    state gets its state back as it was before."""
    state = session.provider_state(provider.source_id)
    before = snapshot(state)
    if stage == "record":
        name = "record_turn"
        hook = provider.record_turn(agent=agent, session=session, context=context, state=state)
    else:
        name = "after_run"
        hook = provider.after_run(agent=agent, session=session, context=context, state=state)
    try:
        if stage == "learn":
            await hook
        else:
            await finish_despite_cancel(asyncio.ensure_future(hook))
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        return f"{name} failed: {str(exc) or type(exc).__name__}"
    problem = check_state(state)
    if problem is None:
        return None
    if before is not None:
        session.state[provider.source_id] = json.loads(before)
    return f"{name} failed: {problem}; its state is left as it was before the turn"


def _warn(
    provider: AnyProvider, message: str, on_event: EventSink, *, emit: bool = True
) -> ProviderWarning:
    warning = ProviderWarning(provider.source_id, message)
    if emit:
        on_event(warning)
    return warning


async def finish_despite_cancel(task: asyncio.Future[T]) -> T:
    """Wait for a store (a history's after_run, the commit, an undo) even through Ctrl-C:
    stopping it half-way would leave a turn the session counts but a history never stored
    (each store is one transaction, so it is short)."""
    while True:
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            if task.done():
                return task.result()  # re-raises the store's own error, if it had one
