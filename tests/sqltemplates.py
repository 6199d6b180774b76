"""Databases migrated once per test process and handed to each case as a copy.

Migrating every store of a new database took 19 ms of CPU on SQLite and, on PostgreSQL,
48 ms in the test process and 59 ms in the server (SQLAlchemy's DDL, the inspections, one
transaction per store): with about 190 cases on each backend in the fast loop, a quarter
of its CPU. So each test process migrates one database of each kind, and a case gets:

- on SQLite, a copy of the migrated file (0.1 ms), made where ctxchat would make it, with
  the modes it would give it (a private file in a private directory);
- on PostgreSQL, a new schema of its own built by the statements the migrations sent
  when they built the template, replayed in one transaction (5 ms here, 24 ms in the
  server). The replay is checked once per process against the migrated schema, catalog
  by catalog, so a migration the recording cannot see (a statement sent around
  SQLAlchemy) fails every case loudly instead of handing out a wrong schema.

Each case still has a database nobody else touches, built fresh: nothing is reused or
emptied between cases. Tests of migrations themselves, which need a database that no
migration has reached, are marked `unmigrated` (see `sqlfixtures`).
"""

from __future__ import annotations

import functools
import os
import shutil
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

import outside

from ctxchat.core.handles import Handles
from ctxchat.core.registry import load_provider_class, provider_entry_points
from ctxchat.storage.sql.store import Database, SqlBacked, open_database

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from ctxchat.storage.sql.schema import Store


@functools.cache
def every_store() -> tuple[Store[Any], ...]:
    """The stores of every installed SQL-backed provider: whatever a case's URL may be
    opened for."""
    stores: dict[str, Store[Any]] = {}
    for name in sorted(provider_entry_points()):
        cls = load_provider_class(name)
        if isinstance(cls, type) and issubclass(cls, SqlBacked):
            stores.update((store.name, store) for store in cls.stores)
    return tuple(stores.values())


def migrate_every_store(url: str) -> Database:
    """Open `url` and migrate every store in it, on an engine of its own (the caller
    closes it), as the providers would on first use."""
    database = open_database(url, (), databases=Handles())
    database.ensure(every_store())
    return database


# -- SQLite -------------------------------------------------------------------------------------
class SqliteTemplate:
    """A migrated SQLite file, copied for each case."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "template.sqlite3"
        migrate_every_store(f"sqlite:///{self.path}").close()
        # The last connection's close checkpoints the WAL into the file and removes it.
        left = [p.name for p in folder.iterdir() if p != self.path]
        if left:
            raise RuntimeError(f"the SQLite template left {left} beside it")

    def copy_to(self, path: Path) -> None:
        """The template at `path`, in a directory made as ctxchat makes its own (0700), as
        a file of mode 0600."""
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "wb") as target, self.path.open("rb") as source:
            shutil.copyfileobj(source, target)


# -- PostgreSQL ---------------------------------------------------------------------------------
Statement = tuple[str, Any]


class PostgresTemplate:
    """The statements that migrate a new PostgreSQL schema, replayed for each case."""

    def __init__(self, base: str, statements: list[Statement]) -> None:
        self.base = base
        self.statements = statements

    @classmethod
    def recorded(cls, base: str) -> PostgresTemplate:
        """The statements migrating a new schema sends, checked: replayed, they build the
        schema migrating built."""
        recorded = new_schema(base)
        template = cls(base, record(base, recorded))
        replayed = template.create()
        try:
            expected, got = shape(base, recorded), shape(base, replayed)
            if expected != got:
                differ = sorted(set(expected) ^ set(got))[:5]
                raise RuntimeError(
                    "replaying the recorded migrations builds another schema than "
                    f"migrating does (first differences: {differ}); see sqltemplates"
                )
        finally:
            drop_schema(base, recorded)
            drop_schema(base, replayed)
        return template

    def create(self) -> str:
        """A new schema, migrated: its name."""
        schema = f"t_{uuid.uuid4().hex[:16]}"
        with outside.server_engine(self.base).begin() as conn:
            conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
            conn.exec_driver_sql(f"SET LOCAL search_path TO {schema}")
            for sql, parameters in self.statements:
                conn.exec_driver_sql(sql, parameters)
        return schema


def new_schema(base: str) -> str:
    schema = f"t_{uuid.uuid4().hex[:16]}"
    with outside.server_engine(base).begin() as conn:
        conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
    return schema


def record(base: str, schema: str) -> list[Statement]:
    """What migrating every store in `schema` sends, but the reads (inspections, the
    migration lock), which change nothing."""
    from sqlalchemy import event

    url = outside.schema_url(base, schema)
    database = open_database(url, (), databases=Handles())
    sent: list[Statement] = []

    def keep(_conn: Connection, _cursor: Any, sql: str, parameters: Any, *_: Any) -> None:
        if not sql.lstrip().upper().startswith("SELECT"):
            sent.append((sql, parameters))

    event.listen(database.engine, "before_cursor_execute", keep)
    try:
        database.ensure(every_store())
    finally:
        database.close()
        outside.forget(url)
    if any(schema in sql for sql, _ in sent):
        raise RuntimeError(f"a migration names its schema ({schema}): it cannot be replayed")
    return sent


def drop_schema(base: str, schema: str) -> None:
    with outside.server_engine(base).begin() as conn:
        conn.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")


# What a schema is made of, in the catalogs' own words, its name left out: each relation
# and its kind, each column, each index, constraint, trigger and function as PostgreSQL
# prints them, and the steps `ctxchat_migrations` records.
_SHAPE = """
SELECT 'relation'::text, c.relname::text || ' ' || c.relkind::text FROM pg_class c
  WHERE c.relnamespace = to_regnamespace(%(s)s)
UNION ALL
SELECT 'column', c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
    || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END
    || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '')
  FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
  LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
  WHERE c.relnamespace = to_regnamespace(%(s)s) AND a.attnum > 0 AND NOT a.attisdropped
UNION ALL
SELECT 'index', pg_get_indexdef(i.indexrelid) FROM pg_index i
  JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relnamespace = to_regnamespace(%(s)s)
UNION ALL
SELECT 'constraint', conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint
  WHERE connamespace = to_regnamespace(%(s)s)
UNION ALL
SELECT 'trigger', pg_get_triggerdef(t.oid) FROM pg_trigger t
  JOIN pg_class c ON c.oid = t.tgrelid
  WHERE c.relnamespace = to_regnamespace(%(s)s) AND NOT t.tgisinternal
UNION ALL
SELECT 'function', pg_get_functiondef(p.oid) FROM pg_proc p
  WHERE p.pronamespace = to_regnamespace(%(s)s)
"""


def shape(base: str, schema: str) -> list[tuple[str, str]]:
    with outside.server_engine(base).begin() as conn:
        rows = conn.exec_driver_sql(_SHAPE, {"s": schema}).all()
        conn.exec_driver_sql(f"SET LOCAL search_path TO {schema}")
        steps = conn.exec_driver_sql("SELECT store, version FROM ctxchat_migrations").all()
    found = [(str(kind), str(text).replace(f"{schema}.", "")) for kind, text in rows]
    found += [("step", f"{store} {version}") for store, version in steps]
    return sorted(found)
