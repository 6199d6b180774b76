"""`sessions prune --orphans`: what providers keep outside session files (SQL history rows,
audit rows) under keys no session on disk claims any more, found and removed.

A session file deleted by hand, or moved aside because it could not be read, leaves its
rows behind; nothing else would ever reach them. Each provider says which keys it keeps
(`stored_keys`) and which of them a session claims (`session_keys`); a key is an orphan
when no session file has it as its id and no readable session claims it. An unreadable
file's id still counts as claimed: its rows are kept until the file is moved aside.

Before anything is removed, the key's session lock is taken and the file looked for again:
a first turn under way holds that lock, and its session file may appear only as it ends.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ctxchat.core.capabilities import KeepsSessionData

if TYPE_CHECKING:
    from ctxchat.services.conversations import ChatService


@dataclass(frozen=True)
class Orphan:
    """A key no session claims, and how many records each provider keeps under it."""

    key: str
    records: dict[str, int] = field(default_factory=dict)  # source_id -> count


async def find_orphans(service: ChatService) -> list[Orphan]:
    """Every orphaned key, in key order."""
    store = service.store
    claimed = store.ids()
    keepers = [
        (p.source_id, p) for p in service.agent.run_providers() if isinstance(p, KeepsSessionData)
    ]
    for session in store.every_session():
        for source_id, provider in keepers:
            claimed |= provider.session_keys(session, session.provider_state(source_id))
    found: dict[str, dict[str, int]] = {}
    for source_id, provider in keepers:
        for key, count in (await provider.stored_keys()).items():
            if key not in claimed:
                found.setdefault(key, {})[source_id] = count
    return [Orphan(key, found[key]) for key in sorted(found)]


async def remove_orphans(
    service: ChatService,
    orphans: Sequence[Orphan],
    *,
    on_removed: Callable[[Orphan], None] | None = None,
) -> list[str]:
    """Remove what each provider keeps under each orphan's key; the keys kept because a
    session appeared for them meanwhile."""
    kept: list[str] = []
    for orphan in orphans:
        if await _remove(service, orphan):
            if on_removed is not None:
                on_removed(orphan)
        else:
            kept.append(orphan.key)
    return kept


async def _remove(service: ChatService, orphan: Orphan) -> bool:
    async with contextlib.AsyncExitStack() as stack:
        # A key that is no session id (a history key named by hand) has no lock to take.
        if service.store.is_session_id(orphan.key):
            await stack.enter_async_context(service.session_lock(orphan.key))
            if service.store.exists(orphan.key):
                return False
        for source_id in orphan.records:
            provider = service.agent.provider(source_id)
            if isinstance(provider, KeepsSessionData):
                await provider.forget_keys([orphan.key])
    return True
