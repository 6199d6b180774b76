"""The saved sessions as a list, without a model or a provider pipeline: what `sessions
list`, shell completion and `sessions prune` choose from. Costs a directory scan and the
header index, nothing more (no agent is built)."""

from __future__ import annotations

import builtins
from datetime import UTC, datetime, timedelta

from ctxchat.storage.store import SessionStore, SessionSummary


class SessionCatalog:
    def __init__(self, store: SessionStore) -> None:
        self.store = store

    def list(self, limit: int | None = None) -> list[SessionSummary]:
        """Sessions, most recently used first."""
        return self.store.list(limit=limit)

    def last_used_before(self, cutoff: datetime) -> builtins.list[SessionSummary]:
        """Sessions last used before `cutoff`, oldest first."""
        chosen = [s for s in self.store.list() if s.updated_at < cutoff]
        return sorted(chosen, key=lambda s: s.updated_at)


def cutoff_for(age: timedelta, now: datetime | None = None) -> datetime:
    """The moment `age` before now; the earliest moment there is for an age beyond it."""
    now = now or datetime.now(UTC)
    try:
        return now - age
    except OverflowError:
        return datetime.min.replace(tzinfo=UTC)
