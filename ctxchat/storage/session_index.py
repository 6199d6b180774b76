"""The session index: a small SQLite file of session headers, so `sessions list` never
parses every session file.

It is a cache. Each listing reconciles it with the directory (new, changed or vanished
files), so a crash between writing a session and updating its row heals. An index that
cannot be written (a read-only home) or is damaged (then deleted, to be rebuilt) raises
`IndexUnavailable`, and the store reads the session files instead.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ctxchat.core.session import ForkPoint, Session
from ctxchat.storage.fsutil import ensure_private_dir, touch_private

INDEX_NAME = "index.sqlite3"
# SQLite result codes that mean the index file itself is damaged (rebuilt from the session
# files); any other failure (read-only, cannot open, locked) means it is only unavailable.
_DAMAGED = ("SQLITE_CORRUPT", "SQLITE_NOTADB")
# The index's own version (PRAGMA user_version): an index of an older one is dropped and
# rebuilt from the session files, as a cache can be. 1: where a session was forked from;
# 2: its role and project.
_VERSION = 2
_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    title TEXT,
    model TEXT,
    turns INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    mtime_ns INTEGER NOT NULL,
    forked_from TEXT,
    forked_at INTEGER,
    role TEXT,
    project TEXT
);
CREATE INDEX IF NOT EXISTS sessions_updated ON sessions (updated_at);
CREATE INDEX IF NOT EXISTS sessions_title ON sessions (title);
"""
_COLUMNS = "id, title, model, turns, created_at, updated_at, forked_from, forked_at, role, project"


@dataclass(frozen=True)
class SessionSummary:
    id: str
    title: str | None
    model: str | None
    turns: int
    created_at: datetime
    updated_at: datetime
    forked_from: ForkPoint | None = None
    role: str | None = None
    project: str | None = None

    @classmethod
    def of(cls, session: Session) -> SessionSummary:
        return cls(
            session.id,
            session.title,
            session.model,
            session.turns,
            session.created_at.astimezone(UTC),
            session.updated_at.astimezone(UTC),
            session.forked_from,
            session.role,
            session.project,
        )


class IndexUnavailable(Exception):
    """The index cannot be opened for writing (a read-only home, say)."""


class SessionIndex:
    """One write transaction per use: `with index.open() as rows: rows.upsert(...)`."""

    def __init__(self, root: Path) -> None:
        self.path = root / INDEX_NAME

    @contextlib.contextmanager
    def open(self) -> Iterator[IndexRows]:
        """A write transaction on the index; `IndexUnavailable` when it cannot be had."""
        path = self.path
        try:
            ensure_private_dir(path.parent)
            touch_private(path)
            conn = sqlite3.connect(path, timeout=30.0, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise IndexUnavailable(str(exc)) from exc
        try:
            if conn.execute("PRAGMA user_version").fetchone()[0] < _VERSION:
                conn.executescript(
                    f"DROP TABLE IF EXISTS sessions; PRAGMA user_version = {_VERSION};"
                )
            conn.executescript(_SCHEMA)
            conn.execute("BEGIN IMMEDIATE")
            yield IndexRows(conn)
            conn.execute("COMMIT")
        except sqlite3.DatabaseError as exc:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            conn.close()
            if getattr(exc, "sqlite_errorname", "") in _DAMAGED:
                # Only a cache: a damaged one is deleted, to be rebuilt by the next use,
                # and this one reads the session files.
                with contextlib.suppress(OSError):
                    path.unlink(missing_ok=True)
            raise IndexUnavailable(str(exc)) from exc
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            raise
        finally:
            conn.close()


class IndexRows:
    """The index's rows inside one transaction."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def upsert(self, session: Session, mtime_ns: int) -> None:
        self.conn.execute(
            "INSERT OR REPLACE INTO sessions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                session.id,
                session.title,
                session.model,
                session.turns,
                session.created_at.astimezone(UTC).isoformat(),
                session.updated_at.astimezone(UTC).isoformat(),
                mtime_ns,
                session.forked_from.session if session.forked_from else None,
                session.forked_from.turn if session.forked_from else None,
                session.role,
                session.project,
            ),
        )

    def remove(self, session_id: str) -> None:
        self.conn.execute("DELETE FROM sessions WHERE id = ?", (session_id,))

    def reconcile(self, on_disk: dict[str, int], read: Callable[[str], Session | None]) -> None:
        """Match the rows to the files (`on_disk`: id -> mtime_ns); `read` parses a changed
        file, or returns None for one it cannot (left for `load` to report)."""
        indexed = dict(self.conn.execute("SELECT id, mtime_ns FROM sessions").fetchall())
        for gone in indexed.keys() - on_disk.keys():
            self.remove(gone)
        for session_id, mtime_ns in on_disk.items():
            if indexed.get(session_id) == mtime_ns:
                continue
            session = read(session_id)
            if session is not None:
                self.upsert(session, mtime_ns)
            elif session_id in indexed:
                self.remove(session_id)  # what the row says is no longer what the file says

    def newest(self, limit: int | None) -> list[SessionSummary]:
        sql = f"SELECT {_COLUMNS} FROM sessions ORDER BY updated_at DESC, id DESC"
        params: tuple[int, ...] = ()
        if limit is not None:
            sql += " LIMIT ?"
            params = (limit,)
        return [_summary(row) for row in self.conn.execute(sql, params).fetchall()]

    def titled(self, title: str) -> list[str]:
        rows = self.conn.execute(
            "SELECT id FROM sessions WHERE title = ? ORDER BY updated_at DESC", (title,)
        ).fetchall()
        return [str(row[0]) for row in rows]


def _summary(
    row: tuple[
        str, str | None, str | None, int, str, str, str | None, int | None, str | None, str | None
    ],
) -> SessionSummary:
    return SessionSummary(
        id=row[0],
        title=row[1],
        model=row[2],
        turns=row[3],
        created_at=datetime.fromisoformat(row[4]),
        updated_at=datetime.fromisoformat(row[5]),
        forked_from=ForkPoint(row[6], row[7] or 0) if row[6] is not None else None,
        role=row[8],
        project=row[9],
    )
