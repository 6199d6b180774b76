"""Stores: each SQL-backed provider's own tables and the numbered migrations that build them.

A `Store` is one provider's share of the database: a name, its migrations (1, 2, ...) and
the current definitions of its tables, for queries. The history store belongs to
`sql_history`, the audit store to `audit`; a new provider brings a store of its own and
never edits another's list. Every applied step is one row of `ctxchat_migrations`, keyed by
(store, version), so each store moves on its own.

Each store is upgraded in its own transaction, so an interrupted upgrade leaves that store
at its old version, whole, and never touches another; `ctxchat_migrations` itself is
created in a transaction of its own, before any store's. Each migration spells out its own DDL
and never uses the current table definitions: those change, while a migration must do
tomorrow exactly what it did the day it shipped.

ctxchat 0.1 kept one global version in `ctxchat_schema_version` (1: the history table,
2: its token counts and turn index, 3: the audit table). A database without
`ctxchat_migrations` is read through that table (history at min(v, 2), audit at 1 if
v >= 3); opening it for a provider records that mapping in `ctxchat_migrations`, in the
transaction that creates it (a read-only file whose stores are current under the mapping is
read as it is). The old table is kept, not dropped, and given a version
0.1 does not know (`SUPERSEDED`): a dropped table would make 0.1 take the database for an
empty one and fail on "table ctxchat_history already exists", while this way 0.1 refuses it
with its own clear "newer than this ctxchat understands; upgrade ctxchat" line, before it
writes a row into tables a later migration may have changed.
"""

from __future__ import annotations

import contextlib
import functools
import json
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeVar

from ctxchat.core.errors import StorageError
from ctxchat.core.progress import Progress, ProgressBars, no_bars

if TYPE_CHECKING:
    from sqlalchemy import Table
    from sqlalchemy.engine import Connection

TablesT = TypeVar("TablesT")
Migration = Callable[["Connection"], None]

VERSION_TABLE = "ctxchat_migrations"
LEGACY_TABLE = "ctxchat_schema_version"  # ctxchat 0.1's single version
LEGACY_LATEST = 3  # the newest version 0.1 wrote
SUPERSEDED = 1000  # written into the legacy table once upgraded: 0.1 refuses the database
# The PostgreSQL advisory lock every migration transaction takes: two processes opening a
# database at once never migrate together; the second finds the work done. One key for all
# stores, since they share the version table and migrations are rare; 0.1's key, so a 0.1
# process migrating the same database at that moment is kept out too.
MIGRATION_LOCK = 7432811

# The progress display lent to the migrations under way in this thread (`migrating`): a
# step keeps its one-argument form, and a long one asks `migration_progress` for its bar.
_bars: ContextVar[ProgressBars] = ContextVar("ctxchat_migration_bars", default=no_bars)


@contextlib.contextmanager
def migrating(progress: ProgressBars) -> Iterator[None]:
    """Migrations run inside show their progress on `progress`."""
    token = _bars.set(progress)
    try:
        yield
    finally:
        _bars.reset(token)


def migration_progress(label: str) -> Progress:
    """The `Progress` of a long migration step, under `label`, on the display its caller
    lent (`SqlBacked` lends `ProviderEnv.progress`); shown nowhere without one."""
    return _bars.get()(label)


class SchemaTooNew(StorageError):
    """A store (or a 0.1 database) newer than this ctxchat; the message lacks the database's
    name, which the caller adds."""

    @classmethod
    def of(cls, store: Store[Any], version: int) -> SchemaTooNew:
        return cls(
            f"{store.name} schema version {version}, newer than this ctxchat understands "
            f"(up to {store.version}); upgrade ctxchat to use it"
        )


class Store(Generic[TablesT]):
    """A provider's tables: `name` keys its rows in `ctxchat_migrations`; `migrations` are
    its numbered steps (1..n, append only, never edit one that has shipped); `define` builds
    the current table definitions (built once, on first use, so that importing a provider
    does not import SQLAlchemy)."""

    def __init__(
        self,
        name: str,
        migrations: Mapping[int, Migration],
        define: Callable[[], TablesT],
        *,
        readable_from: int | None = None,
    ) -> None:
        if sorted(migrations) != list(range(1, len(migrations) + 1)):
            raise ValueError(f"store {name!r}: migrations must be numbered 1..n")
        self.name = name
        self.migrations = dict(migrations)
        self.version = len(migrations)
        # The oldest version this ctxchat can still read as it is (later steps only add
        # what reading does not need): a read-only database that old is read, not refused.
        self.readable_from = self.version if readable_from is None else readable_from
        self._define = functools.cache(define)

    @property
    def tables(self) -> TablesT:
        """The store's current tables, for queries."""
        return self._define()

    def __repr__(self) -> str:
        return f"Store({self.name!r}, version {self.version})"


def _version_table() -> Table:
    import sqlalchemy as sa

    return sa.Table(
        VERSION_TABLE,
        sa.MetaData(),
        sa.Column("store", sa.Text, primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("applied_at", sa.DateTime(timezone=True), nullable=False),
    )


def _legacy_table() -> Table:
    import sqlalchemy as sa

    return sa.Table(
        LEGACY_TABLE,
        sa.MetaData(),
        sa.Column("version", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("applied_at", sa.DateTime(timezone=True), nullable=False),
    )


# -- reading versions --------------------------------------------------------------------------
def has_version_table(conn: Connection) -> bool:
    import sqlalchemy as sa

    return sa.inspect(conn).has_table(VERSION_TABLE)


class Versions(NamedTuple):
    recorded: bool  # `ctxchat_migrations` exists (not: a new or a 0.1 database)
    of: dict[str, int]  # store name -> its newest applied step


def read_versions(conn: Connection) -> Versions:
    """Each store's newest applied step: from `ctxchat_migrations`, or as a 0.1 database's
    version maps onto the stores (nothing is written); none for a new database."""
    import sqlalchemy as sa

    if not has_version_table(conn):
        try:
            return Versions(False, {store: version for store, version, _ in _legacy_steps(conn)})
        except SchemaTooNew:
            # On PostgreSQL each statement sees what committed before it: another process
            # may have upgraded a 0.1 database (marking its old table superseded) since the
            # check above. Then the versions are in the table it created.
            if not has_version_table(conn):
                raise
    table = _version_table()
    query = sa.select(table.c.store, sa.func.max(table.c.version)).group_by(table.c.store)
    return Versions(True, {str(store): int(version) for store, version in conn.execute(query)})


def _legacy_steps(conn: Connection) -> list[tuple[str, int, datetime]]:
    """(store, version, applied_at) for each step a 0.1 database recorded."""
    import sqlalchemy as sa

    if not sa.inspect(conn).has_table(LEGACY_TABLE):
        return []
    table = _legacy_table()
    rows = conn.execute(
        sa.select(table.c.version, table.c.applied_at).order_by(table.c.version)
    ).all()
    newest = max((int(r.version) for r in rows), default=0)
    if newest > LEGACY_LATEST:
        raise SchemaTooNew(
            f"schema version {newest}, newer than this ctxchat understands "
            f"(up to {LEGACY_LATEST}); upgrade ctxchat to use it"
        )
    # 0.1's steps: 1 and 2 built the history, 3 the audit.
    where = {1: ("history", 1), 2: ("history", 2), 3: ("audit", 1)}
    return [(*where[int(r.version)], r.applied_at) for r in rows if int(r.version) in where]


# -- writing -----------------------------------------------------------------------------------
def lock_migrations(conn: Connection) -> None:
    """Hold the migration lock until the transaction ends (PostgreSQL; SQLite writers are
    serialised by BEGIN IMMEDIATE already)."""
    if conn.dialect.name == "postgresql":
        import sqlalchemy as sa

        conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})


def create_version_table(conn: Connection) -> None:
    """Create `ctxchat_migrations` if missing, recording a 0.1 database's steps in it (their
    original times kept) and marking the old table superseded, all in the caller's
    transaction. Takes the migration lock first."""
    lock_migrations(conn)
    if has_version_table(conn):
        return  # another process got here first
    steps = _legacy_steps(conn)
    table = _version_table()
    table.create(conn)
    if steps:
        conn.execute(
            table.insert(),
            [{"store": s, "version": v, "applied_at": at} for s, v, at in steps],
        )
        conn.execute(_legacy_table().insert().values(version=SUPERSEDED, applied_at=_now()))


def migrate(conn: Connection, store: Store[Any]) -> int:
    """Apply the store's missing steps in the caller's transaction (under the migration
    lock); the version found before. `SchemaTooNew` if the store is newer than this
    ctxchat."""
    import sqlalchemy as sa

    lock_migrations(conn)
    table = _version_table()
    found = conn.execute(
        sa.select(sa.func.max(table.c.version)).where(table.c.store == store.name)
    ).scalar()
    current = int(found or 0)
    if current > store.version:
        raise SchemaTooNew.of(store, current)
    for version in range(current + 1, store.version + 1):
        store.migrations[version](conn)
        conn.execute(table.insert().values(store=store.name, version=version, applied_at=_now()))
    return current


def _now() -> datetime:
    return datetime.now(UTC)


# -- helpers for the stores' queries -----------------------------------------------------------
def utc(value: datetime) -> datetime:
    """A stored time as an aware UTC datetime (SQLite hands back naive ones)."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def as_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
