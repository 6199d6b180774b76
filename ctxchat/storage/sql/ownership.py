"""Owned rows: the columns that say whose a history or audit row is (see
`ctxchat.storage.owner`), the migration step that adds them, and the adoption of rows
written before there were owners.

A migration is plain DDL and cannot know the home that runs it, so the step leaves every
existing row unowned. The rows are then adopted by the first process of a home that opens
the database: those whose key is a session file in this home get its id and user; any
other is left unowned and untouched, since another home (sharing the database) may hold
its session. Adoption is one indexed UPDATE per batch of session ids, done once per
engine (`Database.first_adoption`) and only while unowned rows remain.
"""

from __future__ import annotations

import functools
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ctxchat.storage.owner import Owner, home_id, user_key

if TYPE_CHECKING:
    from sqlalchemy import Table
    from sqlalchemy.engine import Connection

    from .store import Database

HOME_COLUMN = "home_id"
USER_COLUMN = "user_key"
ADOPT_BATCH = 500


def add_owner_columns(conn: Connection, table: str, key_column: str) -> None:
    """Migration DDL: nullable owner columns (unowned = written before owners), indexed for
    what reads them: a home's keys (prune, orphans), a user's rows (search)."""
    import sqlalchemy as sa

    conn.execute(sa.text(f"ALTER TABLE {table} ADD COLUMN {HOME_COLUMN} TEXT"))
    conn.execute(sa.text(f"ALTER TABLE {table} ADD COLUMN {USER_COLUMN} TEXT"))
    conn.execute(sa.text(f"CREATE INDEX {table}_home ON {table} ({HOME_COLUMN}, {key_column})"))
    conn.execute(sa.text(f"CREATE INDEX {table}_user ON {table} ({USER_COLUMN})"))


def owner_values(owner: Owner) -> dict[str, str]:
    return {HOME_COLUMN: owner.home, USER_COLUMN: owner.user}


def adopt_unowned(
    database: Database,
    table: Table,
    key_column: str,
    rows: OwnedRows,
) -> None:
    """Give this home's owner to the unowned rows whose key is one of this home's sessions
    (once per engine of the database). A read-only database is left as it is (and a
    read-only home, which cannot keep an id, never gets that far)."""
    import sqlalchemy as sa

    if database.read_only:
        return
    owner = rows.owner
    if not database.first_adoption(table.name, owner.home):
        return
    home, key = table.c[HOME_COLUMN], table.c[key_column]
    probe = sa.select(sa.literal(1)).select_from(table).where(home.is_(None)).limit(1)
    if database.read(lambda conn: conn.execute(probe).first()) is None:
        return
    ids = sorted(rows.home_session_ids())
    for start in range(0, len(ids), ADOPT_BATCH):
        batch = ids[start : start + ADOPT_BATCH]
        update = table.update().where(home.is_(None), key.in_(batch)).values(**owner_values(owner))
        database.write(functools.partial(_run, statement=update))


def _run(conn: Connection, statement: Any) -> None:
    conn.execute(statement)


def count_owned(database: Database, table: Table, key_column: str, home: str) -> dict[str, int]:
    """How many rows this home wrote under each key (what `--orphans` may remove)."""
    import sqlalchemy as sa

    key = table.c[key_column]
    query = sa.select(key, sa.func.count()).where(table.c[HOME_COLUMN] == home).group_by(key)
    return database.read(lambda conn: {str(k): int(n) for k, n in conn.execute(query)})


class OwnedRows:
    """For a SQL-backed provider whose rows are owned: its owner, read lazily (the home's id
    is made on first use, never at config time) and shared by every session, since one
    process serves one home and one user."""

    env: Any
    options: Any

    @cached_property
    def owner(self) -> Owner:
        data_dir: Path = self.env.data_dir
        return Owner(home_id(data_dir), user_key(getattr(self.options, "user", None)))

    def home_session_ids(self) -> set[str]:
        from ctxchat.core.paths import sessions_dir
        from ctxchat.storage.store import SessionStore

        return SessionStore(sessions_dir(self.env.data_dir)).ids()
