"""The SQL schema of ctxchat's stores and the numbered migrations that build it.

`ctxchat_schema_version` holds one row per applied migration. Opening a database applies the
missing ones in a single transaction, so an interrupted upgrade leaves the old version
whole. Each migration spells out its own DDL and never uses the current table definitions:
those change, while a migration must do tomorrow exactly what it did the day it shipped.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ctxchat.messages import Message, MessageFormatError
from ctxchat.tokens import count_message_tokens, estimate_tokens

if TYPE_CHECKING:
    from sqlalchemy import Table
    from sqlalchemy.engine import Connection

VERSION_TABLE = "ctxchat_schema_version"
HISTORY_TABLE = "ctxchat_history"
AUDIT_TABLE = "ctxchat_audit"
BACKFILL_BATCH = 500


def _version_table() -> Table:
    import sqlalchemy as sa

    return sa.Table(
        VERSION_TABLE,
        sa.MetaData(),
        sa.Column("version", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("applied_at", sa.DateTime(timezone=True), nullable=False),
    )


def schema_version(conn: Connection) -> int | None:
    """The newest applied migration, or None for a database ctxchat never set up."""
    import sqlalchemy as sa

    if not sa.inspect(conn).has_table(VERSION_TABLE):
        return None
    table = _version_table()
    value = conn.execute(sa.select(sa.func.max(table.c.version))).scalar()
    return int(value) if value is not None else 0


# -- migrations ------------------------------------------------------------------------------
def _m1_history(conn: Connection) -> None:
    """The history: one row per message, numbered per history key."""
    import sqlalchemy as sa

    sa.Table(
        HISTORY_TABLE,
        sa.MetaData(),
        sa.Column("history_key", sa.Text, primary_key=True),
        sa.Column("seq", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("turn_id", sa.Text, nullable=False),
        sa.Column("role", sa.Text, nullable=False),
        sa.Column("kind", sa.Text),
        sa.Column("source_id", sa.Text),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("message", sa.Text, nullable=False),
    ).create(conn)


def _m2_token_counts(conn: Connection) -> None:
    """Token counts stored per message, so a token-limited window is read backwards without
    parsing every message; and an index to find a turn's rows (undo)."""
    import sqlalchemy as sa

    conn.execute(
        sa.text(f"ALTER TABLE {HISTORY_TABLE} ADD COLUMN token_count INTEGER NOT NULL DEFAULT 0")
    )
    table = sa.Table(
        HISTORY_TABLE,
        sa.MetaData(),
        sa.Column("history_key", sa.Text, primary_key=True),
        sa.Column("seq", sa.BigInteger, primary_key=True),
        sa.Column("turn_id", sa.Text),
        sa.Column("message", sa.Text),
        sa.Column("token_count", sa.Integer),
    )
    last: tuple[str, int] | None = None
    while True:
        query = sa.select(table.c.history_key, table.c.seq, table.c.message)
        if last is not None:
            query = query.where(sa.tuple_(table.c.history_key, table.c.seq) > sa.tuple_(*last))
        rows = conn.execute(
            query.order_by(table.c.history_key, table.c.seq).limit(BACKFILL_BATCH)
        ).all()
        if not rows:
            break
        conn.execute(
            table.update()
            .where(table.c.history_key == sa.bindparam("k"), table.c.seq == sa.bindparam("s"))
            .values(token_count=sa.bindparam("n")),
            [{"k": r.history_key, "s": r.seq, "n": _tokens_of_json(r.message)} for r in rows],
        )
        last = (rows[-1].history_key, rows[-1].seq)
    sa.Index("ctxchat_history_turn", table.c.history_key, table.c.turn_id).create(conn)


def _m3_audit(conn: Connection) -> None:
    """The audit trail: one row per turn, failed ones included."""
    import sqlalchemy as sa

    sa.Table(
        AUDIT_TABLE,
        sa.MetaData(),
        sa.Column("session_key", sa.Text, primary_key=True),
        sa.Column("seq", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("turn_id", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ok", sa.Boolean, nullable=False),
        sa.Column("error", sa.Text),
        sa.Column("input_tokens", sa.Integer),
        sa.Column("output_tokens", sa.Integer),
        sa.Column("record", sa.Text, nullable=False),
    ).create(conn)


def _tokens_of_json(text: str) -> int:
    try:
        return count_message_tokens(Message.from_dict(json.loads(text)))
    except (ValueError, MessageFormatError):
        return estimate_tokens(text)  # unreadable rows still need a plausible size


# Numbered steps, applied in order; append only, never edit a step that has shipped.
MIGRATIONS: dict[int, Callable[[Connection], None]] = {
    1: _m1_history,
    2: _m2_token_counts,
    3: _m3_audit,
}
SCHEMA_VERSION = max(MIGRATIONS)


def migrate(conn: Connection, current: int) -> None:
    """Apply every migration after `current`, inside the caller's transaction."""
    table = _version_table()
    if current == 0:
        table.create(conn, checkfirst=True)
    for version in range(current + 1, SCHEMA_VERSION + 1):
        MIGRATIONS[version](conn)
        conn.execute(table.insert().values(version=version, applied_at=datetime.now(UTC)))


# -- the current schema, for queries -----------------------------------------------------------
@dataclass(frozen=True)
class Tables:
    history: Table
    audit: Table

    @classmethod
    def build(cls) -> Tables:
        import sqlalchemy as sa

        metadata = sa.MetaData()
        history = sa.Table(
            HISTORY_TABLE,
            metadata,
            sa.Column("history_key", sa.Text, primary_key=True),
            sa.Column("seq", sa.BigInteger, primary_key=True, autoincrement=False),
            sa.Column("turn_id", sa.Text, nullable=False),
            sa.Column("role", sa.Text, nullable=False),
            sa.Column("kind", sa.Text),
            sa.Column("source_id", sa.Text),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
            sa.Column("message", sa.Text, nullable=False),
            sa.Column("token_count", sa.Integer, nullable=False),
        )
        audit = sa.Table(
            AUDIT_TABLE,
            metadata,
            sa.Column("session_key", sa.Text, primary_key=True),
            sa.Column("seq", sa.BigInteger, primary_key=True, autoincrement=False),
            sa.Column("turn_id", sa.Text, nullable=False),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
            sa.Column("ok", sa.Boolean, nullable=False),
            sa.Column("error", sa.Text),
            sa.Column("input_tokens", sa.Integer),
            sa.Column("output_tokens", sa.Integer),
            sa.Column("record", sa.Text, nullable=False),
        )
        return cls(history, audit)


def utc(value: datetime) -> datetime:
    """A stored time as an aware UTC datetime (SQLite hands back naive ones)."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def as_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
