"""Sessions on disk: one JSON file each, written atomically, locked per session, indexed
(see `ctxchat.storage.session_index`: a cache of headers, so listing never parses every file).
"""

from __future__ import annotations

import asyncio
import builtins
import contextlib
import fcntl
import json
import os
import re
import time
from collections.abc import AsyncIterator, Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

from ctxchat.core.errors import (
    FileWriteError,
    SessionCorrupt,
    SessionError,
    SessionInUse,
    SessionNotFound,
)
from ctxchat.core.session import Session, SessionFormatError, SessionTooNew
from ctxchat.core.text import local_time, preview, title_or_untitled
from ctxchat.storage.fsutil import atomic_write_text, ensure_private_dir, touch_private
from ctxchat.storage.session_index import IndexRows, IndexUnavailable, SessionIndex, SessionSummary

_SAFE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")

__all__ = ["SessionStore", "SessionSummary"]


class SessionStore:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.index = SessionIndex(root)
        # Session files a listing could not read, with why: left out of the list (one bad
        # file never fails it), reported by whoever lists. A damaged one (`damaged`) is
        # moved aside by `load`; one from a newer ctxchat is only waiting for an upgrade.
        self.unreadable: dict[str, str] = {}
        self.damaged: set[str] = set()

    # -- paths --------------------------------------------------------------------------------
    def path_for(self, session_id: str) -> Path:
        if not _SAFE_ID.match(session_id):
            raise SessionNotFound(f"not a session id: {session_id!r}")
        return self.root / f"{session_id}.json"

    @staticmethod
    def is_session_id(text: str) -> bool:
        return bool(_SAFE_ID.match(text))

    def _lock_path(self, session_id: str) -> Path:
        return self.root / f"{session_id}.lock"

    def exists(self, session_id: str) -> bool:
        return self.path_for(session_id).is_file()

    # -- read/write ---------------------------------------------------------------------------
    def load(self, session_id: str) -> Session:
        """The session; a corrupt file is moved aside (never overwritten) and reported."""
        path = self.path_for(session_id)
        try:
            return self._parse(path, session_id)
        except _Unreadable as exc:
            try:
                moved = self._quarantine(path)
            except OSError as move_failed:
                raise SessionCorrupt(
                    f"session file {path} is unreadable ({exc}); it could not be moved "
                    f"aside: {move_failed.strerror or move_failed}"
                ) from exc
            raise SessionCorrupt(
                f"session file {path} is unreadable ({exc}); moved aside to {moved.name}"
            ) from exc

    @staticmethod
    def _parse(path: Path, session_id: str) -> Session:
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            raise SessionNotFound(f"no session '{session_id}'") from None
        except OSError as exc:
            raise SessionError(f"cannot read session file {path}: {exc.strerror}") from exc
        try:
            session = Session.from_dict(json.loads(raw.decode("utf-8")), copy=False)
        except SessionTooNew as exc:
            raise SessionError(f"{path}: {exc}") from exc
        except (UnicodeDecodeError, json.JSONDecodeError, SessionFormatError) as exc:
            raise _Unreadable(_reason(exc)) from exc
        if session.id != session_id:
            raise _Unreadable(f"it holds the id {session.id!r}")
        return session

    def save(self, session: Session) -> None:
        path = self.path_for(session.id)
        text = json.dumps(session.to_dict(), ensure_ascii=False, separators=(",", ":"))
        with _writing(path):
            ensure_private_dir(self.root)
            atomic_write_text(path, text)
            mtime_ns = path.stat().st_mtime_ns
        # The index is a cache the next listing reconciles by mtime: the session is saved
        # whether or not its row could be written now.
        with contextlib.suppress(IndexUnavailable), self.index.open() as rows:
            rows.upsert(session, mtime_ns)

    def delete(self, session_id: str) -> None:
        path = self.path_for(session_id)
        try:
            path.unlink()
        except FileNotFoundError:
            raise SessionNotFound(f"no session '{session_id}'") from None
        except OSError as exc:
            raise FileWriteError.of(path, exc) from exc
        self.discard_lock(session_id)
        with contextlib.suppress(IndexUnavailable), self.index.open() as rows:
            rows.remove(session_id)

    def _quarantine(self, path: Path) -> Path:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
        target = path.with_name(f"{path.name}.corrupt-{stamp}")
        os.replace(path, target)
        with contextlib.suppress(IndexUnavailable), self.index.open() as rows:
            rows.remove(path.stem)
        return target

    # -- locking ------------------------------------------------------------------------------
    @contextlib.contextmanager
    def locked(
        self,
        session_id: str,
        *,
        wait: float = 30.0,
        on_wait: Callable[[], None] | None = None,
    ) -> Iterator[None]:
        """Hold the session's lock; wait up to `wait` seconds for another process to finish.

        `on_wait` is called once, when the lock is taken and waiting begins, so a user is
        not left staring at a silent terminal for up to `wait` seconds.
        """
        fd = self._open_lock(session_id)
        try:
            waiter = _LockWaiter(session_id, wait, on_wait)
            while not _try_flock(fd):
                time.sleep(waiter.next_pause())
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)

    @contextlib.asynccontextmanager
    async def locked_async(
        self,
        session_id: str,
        *,
        wait: float = 30.0,
        on_wait: Callable[[], None] | None = None,
    ) -> AsyncIterator[None]:
        """`locked` for coroutines: the wait yields to the event loop, so Ctrl-C (a task
        cancellation) ends it at once instead of after up to `wait` seconds."""
        fd = self._open_lock(session_id)
        try:
            waiter = _LockWaiter(session_id, wait, on_wait)
            while not _try_flock(fd):
                await asyncio.sleep(waiter.next_pause())
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)

    def _open_lock(self, session_id: str) -> int:
        lock_path = self._lock_path(session_id)
        with _writing(lock_path):
            touch_private(lock_path)
            return os.open(lock_path, os.O_RDWR)

    def discard_lock(self, session_id: str) -> None:
        """Remove the lock file of a session that has no file (never saved, or deleted).

        Only for ids no other process can be waiting on: a waiter would go on to lock the
        unlinked file while a newcomer locks a new one."""
        with contextlib.suppress(OSError):
            self._lock_path(session_id).unlink()

    # -- listing and lookup -------------------------------------------------------------------
    def list(self, limit: int | None = None) -> list[SessionSummary]:
        """Sessions, most recently used first."""
        try:
            with self._reconciled() as rows:
                return rows.newest(limit)
        except IndexUnavailable:
            return self._scan()[:limit]

    @contextlib.contextmanager
    def _reconciled(self) -> Iterator[IndexRows]:
        with self.index.open() as rows:
            rows.reconcile(self._ids_on_disk(), self._header)
            yield rows

    def peek(self, name: str) -> Session | None:
        """The session called `name`, or None when there is none or it cannot be read
        (nothing is moved aside: for a look that must change nothing, a search's)."""
        return self._header(name) if self.is_session_id(name) else None

    def _header(self, session_id: str) -> Session | None:
        try:
            return self._parse(self.path_for(session_id), session_id)
        except SessionNotFound:
            return None  # deleted since the directory was read
        except _Unreadable as exc:
            self.unreadable[session_id] = f"its file is unreadable ({exc})"
            self.damaged.add(session_id)
            return None  # left for `load` to report and move aside
        except SessionError as exc:  # from a newer ctxchat, or not readable by this user
            self.unreadable[session_id] = str(exc)
            return None

    def _scan(self) -> builtins.list[SessionSummary]:
        """Every session, parsed from its file: the slow way, for when the index cannot be
        written (a read-only home) and so cannot be trusted to be current."""
        found = [
            SessionSummary.of(session)
            for session in map(self._header, self._ids_on_disk())
            if session is not None
        ]
        found.sort(key=lambda s: (s.updated_at, s.id), reverse=True)
        return found

    def ids(self) -> set[str]:
        """The id of every session file, readable or not."""
        return set(self._ids_on_disk())

    def every_session(self) -> Iterator[Session]:
        """Every session whose file can be read, parsed whole: for maintenance, not lists."""
        for session_id in self._ids_on_disk():
            session = self._header(session_id)
            if session is not None:
                yield session

    def latest(self) -> str | None:
        found = self.list(limit=1)
        return found[0].id if found else None

    def resolve(self, ref: str) -> str:
        """An id from a full id, an exact title, or a unique id prefix, in that order: a
        title is what the user typed in full, a prefix only the start of something."""
        ref = ref.strip()
        if not ref:
            raise SessionNotFound("empty session reference")
        if _SAFE_ID.match(ref) and self.exists(ref):
            return ref
        by_title = self._titled(ref)
        if len(by_title) == 1:
            return by_title[0]
        if by_title:
            raise self._ambiguous(ref, by_title, " by title")
        upper = ref.upper()
        by_prefix = sorted(i for i in self._ids_on_disk() if i.upper().startswith(upper))
        if len(by_prefix) == 1:
            return by_prefix[0]
        if not by_prefix:
            raise SessionNotFound(f"no session matches '{ref}' (by id prefix or title)")
        raise self._ambiguous(ref, by_prefix, " by id prefix")

    def _ambiguous(self, ref: str, candidates: builtins.list[str], how: str) -> SessionError:
        """Ids alone do not say which conversation is which: each comes with its title and
        when it was last used, newest first."""
        known = {s.id: s for s in self.list()}
        ordered = sorted(
            candidates,
            key=lambda i: known[i].updated_at if i in known else datetime.min.replace(tzinfo=UTC),
            reverse=True,
        )
        shown = []
        for session_id in ordered[:8]:
            summary = known.get(session_id)
            if summary is None:
                shown.append(session_id)
                continue
            title = preview(title_or_untitled(summary.title), 40)
            shown.append(f'{session_id} "{title}" ({local_time(summary.updated_at)})')
        more = f" and {len(candidates) - 8} more" if len(candidates) > 8 else ""
        return SessionError(
            f"'{ref}' is ambiguous: {len(candidates)} sessions match{how}: {', '.join(shown)}{more}"
        )

    def _titled(self, title: str) -> builtins.list[str]:
        """Ids of the sessions titled exactly `title`, most recently used first."""
        try:
            with self._reconciled() as rows:
                return rows.titled(title)
        except IndexUnavailable:
            return [s.id for s in self._scan() if s.title == title]

    def _ids_on_disk(self) -> dict[str, int]:
        found: dict[str, int] = {}
        try:
            entries = os.scandir(self.root)
        except FileNotFoundError:
            return found
        with entries:
            for entry in entries:
                name = entry.name
                if name.endswith(".json") and not name.startswith("."):
                    with contextlib.suppress(FileNotFoundError):
                        found[name[:-5]] = entry.stat().st_mtime_ns
        return found


def _reason(exc: Exception) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"invalid JSON at line {exc.lineno} column {exc.colno}"
    if isinstance(exc, UnicodeDecodeError):
        return "not UTF-8"
    return str(exc)


@contextlib.contextmanager
def _writing(path: Path) -> Iterator[None]:
    """An OSError while writing `path` as one line naming it, not a traceback."""
    try:
        yield
    except OSError as exc:
        raise FileWriteError.of(path, exc) from exc


class _Unreadable(Exception):
    """A session file that exists but cannot be understood."""


def _try_flock(fd: int) -> bool:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


class _LockWaiter:
    """The patience of one lock acquisition: announces the wait once, gives up in time."""

    PAUSE = 0.05

    def __init__(self, session_id: str, wait: float, on_wait: Callable[[], None] | None) -> None:
        self.session_id = session_id
        self.deadline = time.monotonic() + wait
        self.on_wait = on_wait
        self.waiting = False

    def next_pause(self) -> float:
        if time.monotonic() >= self.deadline:
            raise SessionInUse(f"session {self.session_id} is in use by another ctxchat process")
        if not self.waiting and self.on_wait is not None:
            self.on_wait()
        self.waiting = True
        return self.PAUSE
