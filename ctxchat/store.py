"""Sessions on disk: one JSON file each, written atomically, locked per session, indexed.

The index is a small SQLite file of session headers so `sessions list` never parses every
session. It is a cache: on each listing it is reconciled with the directory (new, changed
or vanished files), so a crash between writing a session and updating the index heals.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ctxchat.errors import SessionCorrupt, SessionError, SessionInUse, SessionNotFound
from ctxchat.fsutil import atomic_write_text, ensure_private_dir, touch_private
from ctxchat.session import Session, SessionFormatError, SessionTooNew

_SAFE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
_INDEX_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    title TEXT,
    model TEXT,
    turns INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    mtime_ns INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_updated ON sessions (updated_at);
CREATE INDEX IF NOT EXISTS sessions_title ON sessions (title);
"""


@dataclass(frozen=True)
class SessionSummary:
    id: str
    title: str | None
    model: str | None
    turns: int
    created_at: datetime
    updated_at: datetime


class SessionStore:
    def __init__(self, root: Path) -> None:
        self.root = root

    # -- paths --------------------------------------------------------------------------------
    def path_for(self, session_id: str) -> Path:
        if not _SAFE_ID.match(session_id):
            raise SessionNotFound(f"not a session id: {session_id!r}")
        return self.root / f"{session_id}.json"

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
            moved = self._quarantine(path)
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
            session = Session.from_dict(json.loads(raw.decode("utf-8")))
        except SessionTooNew as exc:
            raise SessionError(f"{path}: {exc}") from exc
        except (UnicodeDecodeError, json.JSONDecodeError, SessionFormatError) as exc:
            raise _Unreadable(_reason(exc)) from exc
        if session.id != session_id:
            raise _Unreadable(f"it holds the id {session.id!r}")
        return session

    def save(self, session: Session) -> None:
        ensure_private_dir(self.root)
        path = self.path_for(session.id)
        text = json.dumps(session.to_dict(), ensure_ascii=False, separators=(",", ":"))
        atomic_write_text(path, text)
        with self._index() as index:
            self._index_upsert(index, session, path.stat().st_mtime_ns)

    def delete(self, session_id: str) -> None:
        path = self.path_for(session_id)
        try:
            path.unlink()
        except FileNotFoundError:
            raise SessionNotFound(f"no session '{session_id}'") from None
        with contextlib.suppress(FileNotFoundError):
            self._lock_path(session_id).unlink()
        with self._index() as index:
            index.execute("DELETE FROM sessions WHERE id = ?", (session_id,))

    def _quarantine(self, path: Path) -> Path:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
        target = path.with_name(f"{path.name}.corrupt-{stamp}")
        os.replace(path, target)
        with contextlib.suppress(SessionError), self._index() as index:
            index.execute("DELETE FROM sessions WHERE id = ?", (path.stem,))
        return target

    # -- locking ------------------------------------------------------------------------------
    @contextlib.contextmanager
    def locked(self, session_id: str, *, wait: float = 30.0) -> Iterator[None]:
        """Hold the session's lock; wait up to `wait` seconds for another process to finish."""
        lock_path = self._lock_path(session_id)
        touch_private(lock_path)
        fd = os.open(lock_path, os.O_RDWR)
        try:
            deadline = time.monotonic() + wait
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise SessionInUse(
                            f"session {session_id} is in use by another ctxchat process"
                        ) from None
                    time.sleep(0.05)
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)

    # -- listing and lookup -------------------------------------------------------------------
    def list(self, limit: int | None = None) -> list[SessionSummary]:
        """Sessions, most recently used first."""
        with self._index() as index:
            self._reconcile(index)
            sql = "SELECT id, title, model, turns, created_at, updated_at FROM sessions"
            sql += " ORDER BY updated_at DESC, id DESC"
            params: tuple[int, ...] = ()
            if limit is not None:
                sql += " LIMIT ?"
                params = (limit,)
            rows = index.execute(sql, params).fetchall()
        return [_summary(row) for row in rows]

    def latest(self) -> str | None:
        found = self.list(limit=1)
        return found[0].id if found else None

    def resolve(self, ref: str) -> str:
        """An id from a full id, a unique id prefix, or an exact title."""
        ref = ref.strip()
        if not ref:
            raise SessionNotFound("empty session reference")
        if _SAFE_ID.match(ref) and self.exists(ref):
            return ref
        ids = self._ids_on_disk()
        upper = ref.upper()
        by_prefix = sorted(i for i in ids if i.upper().startswith(upper))
        with self._index() as index:
            self._reconcile(index)
            by_title = [
                str(row[0])
                for row in index.execute(
                    "SELECT id FROM sessions WHERE title = ? ORDER BY updated_at DESC", (ref,)
                )
            ]
        candidates = list(dict.fromkeys(by_prefix + by_title))
        if len(candidates) == 1:
            return candidates[0]
        if not candidates:
            raise SessionNotFound(f"no session matches '{ref}' (by id prefix or title)")
        shown = ", ".join(candidates[:8]) + (" ..." if len(candidates) > 8 else "")
        raise SessionError(f"'{ref}' is ambiguous: {len(candidates)} sessions match ({shown})")

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

    # -- the index ----------------------------------------------------------------------------
    @contextlib.contextmanager
    def _index(self) -> Iterator[sqlite3.Connection]:
        ensure_private_dir(self.root)
        path = self.root / "index.sqlite3"
        touch_private(path)
        try:
            conn = sqlite3.connect(path, timeout=30.0, isolation_level=None)
        except sqlite3.Error as exc:
            raise SessionError(f"cannot open session index {path}: {exc}") from exc
        try:
            conn.executescript(_INDEX_SCHEMA)
            conn.execute("BEGIN IMMEDIATE")
            yield conn
            conn.execute("COMMIT")
        except sqlite3.DatabaseError as exc:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            conn.close()
            # The index is only a cache: a damaged one is rebuilt from the session files.
            path.unlink(missing_ok=True)
            raise SessionError(f"session index {path} was damaged and was reset: {exc}") from exc
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            raise
        finally:
            conn.close()

    @staticmethod
    def _index_upsert(index: sqlite3.Connection, session: Session, mtime_ns: int) -> None:
        index.execute(
            "INSERT OR REPLACE INTO sessions VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                session.id,
                session.title,
                session.model,
                session.turns,
                session.created_at.astimezone(UTC).isoformat(),
                session.updated_at.astimezone(UTC).isoformat(),
                mtime_ns,
            ),
        )

    def _reconcile(self, index: sqlite3.Connection) -> None:
        on_disk = self._ids_on_disk()
        indexed = dict(index.execute("SELECT id, mtime_ns FROM sessions").fetchall())
        for gone in indexed.keys() - on_disk.keys():
            index.execute("DELETE FROM sessions WHERE id = ?", (gone,))
        for session_id, mtime_ns in on_disk.items():
            if indexed.get(session_id) == mtime_ns:
                continue
            try:
                session = self._parse(self.path_for(session_id), session_id)
            except (SessionError, _Unreadable):
                continue  # left for `load` to report and move aside
            self._index_upsert(index, session, mtime_ns)


def _summary(row: tuple[str, str | None, str | None, int, str, str]) -> SessionSummary:
    return SessionSummary(
        id=row[0],
        title=row[1],
        model=row[2],
        turns=row[3],
        created_at=datetime.fromisoformat(row[4]),
        updated_at=datetime.fromisoformat(row[5]),
    )


def _reason(exc: Exception) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"invalid JSON at line {exc.lineno} column {exc.colno}"
    if isinstance(exc, UnicodeDecodeError):
        return "not UTF-8"
    return str(exc)


class _Unreadable(Exception):
    """A session file that exists but cannot be understood."""
