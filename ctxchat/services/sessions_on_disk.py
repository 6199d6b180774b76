"""A chat's sessions on disk, each worked on under its lock and reloaded inside it, so two
processes on one session take turns instead of overwriting each other's; or, for a
temporary chat (`run --temp`), never locked nor written at all."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Iterator
from datetime import UTC, datetime

from ctxchat.core.errors import SessionNotFound
from ctxchat.core.session import Session
from ctxchat.services import journal
from ctxchat.storage.store import SessionStore


class SessionsOnDisk:
    def __init__(
        self,
        store: SessionStore,
        *,
        lock_wait: float,
        on_lock_wait: Callable[[str], None] | None,
        ephemeral: bool,
    ) -> None:
        self.store = store
        self.ephemeral = ephemeral
        self.writer: journal.SessionWriter = _Unsaved() if ephemeral else store
        self.lock_wait = lock_wait
        # Told the session id when another process holds its lock and waiting begins.
        self.on_lock_wait = on_lock_wait

    @contextlib.contextmanager
    def locked(self, session_id: str) -> Iterator[None]:
        """The session's lock, announcing a wait; a lock file left for a session that has
        no file (never saved, or deleted meanwhile) is removed on the way out."""
        if self.ephemeral:
            yield
            return
        with self.store.locked(
            session_id, wait=self.lock_wait, on_wait=self._announcer(session_id)
        ):
            try:
                yield
            finally:
                self._drop_orphan_lock(session_id)

    @contextlib.asynccontextmanager
    async def locked_async(self, session_id: str) -> AsyncIterator[None]:
        """`locked` for turns: waiting for the lock can be cancelled (Ctrl-C)."""
        if self.ephemeral:
            yield
            return
        lock = self.store.locked_async(
            session_id, wait=self.lock_wait, on_wait=self._announcer(session_id)
        )
        async with lock:
            try:
                yield
            finally:
                self._drop_orphan_lock(session_id)

    def _announcer(self, session_id: str) -> Callable[[], None]:
        announce = self.on_lock_wait

        def on_wait() -> None:
            if announce is not None:
                announce(session_id)

        return on_wait

    def _drop_orphan_lock(self, session_id: str) -> None:
        if not self.store.exists(session_id):
            self.store.discard_lock(session_id)

    def fresh(self, session: Session, *, saved: bool) -> Session:
        """The session as on disk now (another process may have added turns); the one in
        memory when it was never saved, or the chat is temporary."""
        session_id = session.id
        if not saved or self.ephemeral:
            return session
        if not self.store.exists(session_id):
            # Writing the in-memory copy back would resurrect it with a stale turn count.
            raise SessionNotFound(
                f"session {session_id} was deleted by another process while open here"
            )
        return self.store.load(session_id)

    def save(self, session: Session, *, used: bool = True) -> None:
        if used:
            session.updated_at = datetime.now(UTC)
        if not self.ephemeral:
            self.store.save(session)


class _Unsaved:
    """The journal's writer for a temporary chat: its session is never written."""

    def save(self, session: Session) -> None:
        return None

    def delete(self, session_id: str) -> None:
        return None

    def exists(self, session_id: str) -> bool:
        return False
