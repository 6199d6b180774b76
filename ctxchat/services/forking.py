"""Forking a session: a new session that goes on from the conversation up to one of its
turns, with every provider's state copied and whatever providers keep outside the session
file (SQL history rows) copied under the fork's own keys. The two never share anything
afterwards: a turn, an undo or a deletion on one leaves the other as it was.

The source is read under its lock (no turn of it is under way meanwhile) and is never
written, except to put right a turn a dead process left half stored (`journal.recover`).
"""

from __future__ import annotations

import contextlib
import copy
from typing import TYPE_CHECKING

from ctxchat.core.capabilities import ForgetsSessions, ForksSessions
from ctxchat.core.errors import CtxchatError, UsageError
from ctxchat.core.session import ForkPoint, Session
from ctxchat.core.text import plural
from ctxchat.services import journal

if TYPE_CHECKING:
    from ctxchat.core.provider import ContextProvider
    from ctxchat.services.conversations import ChatService

FORK_MARK = " (fork)"


async def fork_session(service: ChatService, session_id: str, at: int | None = None) -> Session:
    """A saved fork of the session `session_id` with its first `at` turns (None: all)."""
    async with service.session_lock(session_id):
        source = service.store.load(session_id)
        await journal.recover(service.writer, source, service.agent)
        turns = source.turns if at is None else at
        if source.turns == 0:
            raise UsageError(f"session {source.id} has no turns to fork yet")
        if not 1 <= turns <= source.turns:
            raise UsageError(
                f"session {source.id} has {plural(source.turns, 'turn')}: fork at 1 to "
                f"{source.turns}, not {turns}"
            )
        fork = Session(
            title=(source.title + FORK_MARK) if source.title else None,
            model=source.model,
            turns=turns,
            state=copy.deepcopy(source.state),
            forked_from=ForkPoint(source.id, turns),
            role=source.role,
            project=source.project,
        )
        done: list[ContextProvider[object]] = []
        try:
            for provider in service.agent.run_providers():
                state = fork.provider_state(provider.source_id)
                if isinstance(provider, ForksSessions):
                    await provider.fork_session(source, fork, state, turns=turns)
                done.append(provider)
            service.store.save(fork)
        except BaseException:
            await _undo(done, fork)
            raise
    return fork


async def _undo(providers: list[ContextProvider[object]], fork: Session) -> None:
    """Take back what the providers copied for a fork that could not be made."""
    for provider in providers:
        if not isinstance(provider, ForgetsSessions):
            continue
        with contextlib.suppress(CtxchatError):
            await provider.forget_session(fork, fork.provider_state(provider.source_id))
