"""Deleting sessions: one, several, or those not used since a cut-off (`sessions prune`),
each with what its providers keep elsewhere (SQL rows...), each under its session's lock."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from ctxchat.core.capabilities import ForgetsSessions
from ctxchat.core.errors import CtxchatError, ProblemGroup

if TYPE_CHECKING:
    from ctxchat.services.conversations import ChatService


async def delete_many(
    service: ChatService,
    ids: Sequence[str],
    *,
    on_deleted: Callable[[str], None] | None = None,
) -> None:
    """Delete each session; one failing does not stop the others. The failures are raised
    together afterwards, with the first one's exit code."""
    failures: list[tuple[str, CtxchatError]] = []
    for session_id in ids:
        try:
            await delete(service, session_id)
        except CtxchatError as exc:
            failures.append((session_id, exc))
        else:
            if on_deleted is not None:
                on_deleted(session_id)
    if failures:
        detail = "; ".join(f"{i}: {exc.message}" for i, exc in failures)
        raise ProblemGroup(
            [f"{len(failures)} of {len(ids)} not deleted: {detail}"], failures[0][1].exit_code
        )


async def prune(
    service: ChatService,
    ids: Sequence[str],
    cutoff: datetime,
    *,
    on_deleted: Callable[[str], None] | None = None,
) -> list[str]:
    """Delete those of `ids` still last used before `cutoff`; the ones kept. The age is
    checked again under each session's lock: one used since it was listed (a turn that was
    under way, say) is kept."""
    kept: list[str] = []
    for session_id in ids:
        deleted = await delete(service, session_id, unless_used_since=cutoff)
        if not deleted:
            kept.append(session_id)
        elif on_deleted is not None:
            on_deleted(session_id)
    return kept


async def delete(
    service: ChatService, session_id: str, *, unless_used_since: datetime | None = None
) -> bool:
    """Remove a session and what its providers keep elsewhere (SQL rows...); False when it
    was used at or after `unless_used_since` and so kept."""
    async with service.session_lock(session_id):
        session = service.store.load(session_id)
        if unless_used_since is not None and session.updated_at >= unless_used_since:
            return False
        for provider in service.agent.run_providers():
            if isinstance(provider, ForgetsSessions):
                state = session.provider_state(provider.source_id)
                await provider.forget_session(session, state)
        service.store.delete(session_id)
    return True
