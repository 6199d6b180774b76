"""Where `user_memory` keeps facts: one user's in the SQL database (scope "user"), or one
session's in its state (scope "session"), behind the `FactSet` the update step works on.

The SQL store keeps the user's facts in the process between turns, with a live BM25 index
of their values: a turn with 10,000 stored facts reads one counter to know the cache is
current, instead of parsing every fact again. A change is applied to the cached facts and
written in one transaction that first locks and checks the counter (another process may
have changed the memory meanwhile: then the facts are read again and the change is applied
to those), writes only the facts that changed and bumps the counter in SQL. If anything
fails the cache is dropped, so the next turn reads the facts as the database has them.

Every fact written passes the secret screen first (`TrackedFacts`, which every change of
either store goes through): a value that looks like a secret is `SecretRefused` and nothing
of that change is written, whichever extractor, command or import produced it.

Forgetting deletes the row, so neither the value nor its history stays in the store (what
is kept, in the same transaction, is the forget's date, its values' word digests and where
they were learnt: `memory.forgotten`); on
SQLite the write runs with `secure_delete`, so the bytes are overwritten, not just unlinked.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ctxchat.kit import as_json, utc

from .facts import Fact
from .factset import FactSet, InMemoryFactSet
from .forgotten import forgettings_since, record_forget
from .schema import MEMORY
from .secrets import refuse_secret_facts

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from ctxchat.kit import Database, Forgetting, LiveLexicalIndex

FactsWork = Callable[[FactSet], Any]


class TrackedFacts:
    """A `FactSet` over cached facts that notes which facts a change touched (the rows to
    write) and keeps the relevance index in step with them."""

    def __init__(self, facts: InMemoryFactSet, index: LiveLexicalIndex | None) -> None:
        self.facts = facts
        self.index = index  # None: not built yet, nothing to keep in step
        self.touched: dict[str, Fact | None] = {}  # id -> fact as stored now, None: deleted
        self.forgotten: list[Fact] = []  # deleted facts as they were: a forget to record

    def all(self) -> list[Fact]:
        return self.facts.all()

    def active(self) -> list[Fact]:
        return self.facts.active()

    def in_slot(self, slot: str | None) -> list[Fact]:
        return self.facts.in_slot(slot)

    def add(self, fact: Fact) -> None:
        refuse_secret_facts([fact])  # the write boundary: no path into memory skips it
        self.facts.add(fact)
        self._track(fact)

    def replace(self, fact: Fact) -> None:
        before = self.facts.get(fact.id)
        if before is None or before.value != fact.value:
            refuse_secret_facts([replace(fact, history=())])  # its past values were screened
        self.facts.replace(fact)
        self._track(fact)

    def delete(self, fact_id: str) -> None:
        gone = self.facts.get(fact_id)
        if gone is not None:
            self.forgotten.append(gone)
        self.facts.delete(fact_id)
        if self.index is not None:
            self.index.remove(fact_id)
        self.touched[fact_id] = None

    def _track(self, fact: Fact) -> None:
        if self.index is not None and fact.active:
            self.index.add(fact.id, fact.value)
        elif self.index is not None:
            self.index.remove(fact.id)
        self.touched[fact.id] = fact


def build_index(facts: Iterable[Fact]) -> LiveLexicalIndex:
    from ctxchat.kit import LiveLexicalIndex

    index = LiveLexicalIndex()
    for fact in facts:
        if fact.active:
            index.add(fact.id, fact.value)
    return index


def relevance_of(index: LiveLexicalIndex) -> Callable[[str, Sequence[Fact]], list[float]]:
    def relevance(query: str, facts: Sequence[Fact]) -> list[float]:
        scores = index.scores(query)
        return [scores.get(f.id, 0.0) for f in facts]

    return relevance


@dataclass
class _Cached:
    version: int
    facts: InMemoryFactSet
    _index: LiveLexicalIndex | None = field(default=None, init=False)

    @property
    def index(self) -> LiveLexicalIndex:
        """Built when first asked for: a memory with nothing in it never needs one."""
        if self._index is None:
            self._index = build_index(self.facts.all())
        return self._index


class SqlMemory:
    """One user's facts in the database. Shared by every session of the process (it is the
    user's memory, not a session's); the lock keeps two threads from racing on the cache."""

    def __init__(self, database: Callable[[], Database], user_key: str) -> None:
        self._database = database
        self.user_key = user_key
        self._cached: _Cached | None = None
        self._lock = threading.Lock()

    def facts(self) -> tuple[InMemoryFactSet, Callable[[], LiveLexicalIndex]]:
        """The user's facts as stored now, and how to get the index of their values (do
        not change them: use `change`)."""
        with self._lock:
            database = self._database()
            version = database.read(self._version)
            cached = self._cached
            if cached is None or cached.version != version:
                cached = self._cached = database.read(self._load)
            return cached.facts, lambda: cached.index

    def change(self, work: FactsWork) -> Any:
        """Run `work` on the user's facts and store what it changed, in one transaction;
        returns what `work` returned."""
        with self._lock:
            database = self._database()
            try:
                return database.write(lambda conn: self._apply(database, conn, work))
            except BaseException:
                self._cached = None
                raise

    def _apply(self, database: Database, conn: Connection, work: FactsWork) -> Any:
        version = self._lock_version(database, conn)
        cached = self._cached
        if cached is None or cached.version != version:
            cached = self._cached = self._load(conn)
        tracked = TrackedFacts(cached.facts, cached._index)
        try:
            result = work(tracked)
            if tracked.touched:
                self._write(database, conn, tracked.touched)
                if tracked.forgotten:
                    record_forget(conn, self.user_key, tracked.forgotten, datetime.now(UTC))
                cached.version = self._bump(conn, version)
        except BaseException:
            # The cached facts were changed in place: a retried or later change must read
            # them again from the database.
            self._cached = None
            raise
        return result

    def forgettings_since(self, since: datetime | None) -> list[Forgetting]:
        return self._database().read(lambda conn: forgettings_since(conn, self.user_key, since))

    # -- SQL ----------------------------------------------------------------------------------
    def _version(self, conn: Connection) -> int:
        import sqlalchemy as sa

        table = MEMORY.tables.versions
        found = conn.execute(
            sa.select(table.c.version).where(table.c.user_key == self.user_key)
        ).scalar()
        return int(found or 0)

    def _load(self, conn: Connection) -> _Cached:
        import sqlalchemy as sa

        table = MEMORY.tables.facts
        rows = conn.execute(
            sa.select(table.c.fact)
            .where(table.c.user_key == self.user_key)
            .order_by(table.c.last_seen, table.c.fact_id)
        )
        facts = InMemoryFactSet([Fact.from_dict(json.loads(row.fact)) for row in rows])
        return _Cached(self._version(conn), facts)

    def _write(self, database: Database, conn: Connection, touched: dict[str, Fact | None]) -> None:
        table = MEMORY.tables.facts
        if database.is_sqlite:
            conn.exec_driver_sql("PRAGMA secure_delete = ON")
        ids = list(touched)
        conn.execute(
            table.delete().where(table.c.user_key == self.user_key, table.c.fact_id.in_(ids))
        )
        rows = [
            {
                "user_key": self.user_key,
                "fact_id": fact.id,
                "slot": fact.slot,
                "status": fact.status,
                "last_seen": utc(fact.last_seen),
                "fact": as_json(fact.to_dict()),
            }
            for fact in touched.values()
            if fact is not None
        ]
        if rows:
            conn.execute(table.insert(), rows)

    def _lock_version(self, database: Database, conn: Connection) -> int:
        """The user's counter, its row locked until the transaction ends.

        Without the lock two PostgreSQL writers both read version N, both apply their
        change to the facts as of N and the second overwrites the first's (six processes
        telling one user six cities kept four). The row is made first if it is missing
        (a conflict does nothing: the other writer's row is the one locked), so even the
        first change of a user has a row to lock. SQLite's writers are serialised by
        BEGIN IMMEDIATE already, and `FOR UPDATE` renders as nothing there.
        """
        import sqlalchemy as sa

        table = MEMORY.tables.versions
        from sqlalchemy.dialects import postgresql, sqlite

        dialect = sqlite if database.is_sqlite else postgresql
        conn.execute(
            dialect.insert(table)
            .values(user_key=self.user_key, version=0)
            .on_conflict_do_nothing(index_elements=[table.c.user_key])
        )
        found = conn.execute(
            sa.select(table.c.version).where(table.c.user_key == self.user_key).with_for_update()
        ).scalar()
        return int(found or 0)

    def _bump(self, conn: Connection, version: int) -> int:
        table = MEMORY.tables.versions
        where = table.c.user_key == self.user_key
        # In SQL, not from the value read: the row is locked, but the database has the say.
        conn.execute(table.update().where(where).values(version=table.c.version + 1))
        return version + 1


class SessionMemory:
    """A session's own facts, in its provider state (scope "session")."""

    KEY = "facts"

    def __init__(self, state: dict[str, Any]) -> None:
        self.state = state

    def facts(self) -> tuple[InMemoryFactSet, Callable[[], LiveLexicalIndex]]:
        facts = InMemoryFactSet([Fact.from_dict(d) for d in self.state.get(self.KEY, [])])
        return facts, lambda: build_index(facts.all())

    def change(self, work: FactsWork) -> Any:
        facts, _ = self.facts()
        tracked = TrackedFacts(facts, None)
        result = work(tracked)
        if tracked.touched:
            self.state[self.KEY] = [f.to_dict() for f in facts.all()]
        return result
