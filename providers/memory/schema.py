"""The memory store (`user_memory`'s tables): its migrations and current definition.

One row per fact, keyed by the user it belongs to: a team sharing one PostgreSQL database
keeps each person's memory apart. The fact itself (value, history of values, provenance)
is its JSON document; slot and status are columns so a turn finds a slot's facts by index.
A second table holds one counter per user, bumped in every write: a process that cached a
user's facts sees at the cost of one indexed read whether another process changed them.

Step 2 keeps what a forget leaves (`memory.forgotten`): per forget, its date and the word
digests of the values (never the values), so summaries can be cleaned before their next
use; and the session and message each forgotten fact was learnt from, so recall and
`search_sessions` can leave those messages out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ctxchat.kit import Store

if TYPE_CHECKING:
    import sqlalchemy as sa
    from sqlalchemy import Table
    from sqlalchemy.engine import Connection

FACTS_TABLE = "ctxchat_memory"
VERSIONS_TABLE = "ctxchat_memory_version"
FORGOTTEN_TABLE = "ctxchat_memory_forgotten"
FORGOTTEN_FROM_TABLE = "ctxchat_memory_forgotten_from"


class MemoryTables(NamedTuple):
    facts: Table
    versions: Table
    forgotten: Table
    forgotten_from: Table


def _m1_memory(conn: Connection) -> None:
    """Facts by user, and each user's change counter."""
    import sqlalchemy as sa

    metadata = sa.MetaData()
    facts = sa.Table(
        FACTS_TABLE,
        metadata,
        sa.Column("user_key", sa.Text, primary_key=True),
        sa.Column("fact_id", sa.Text, primary_key=True),
        sa.Column("slot", sa.Text),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("fact", sa.Text, nullable=False),
    )
    sa.Index("ctxchat_memory_slot", facts.c.user_key, facts.c.slot)
    sa.Table(
        VERSIONS_TABLE,
        metadata,
        sa.Column("user_key", sa.Text, primary_key=True),
        sa.Column("version", sa.BigInteger, nullable=False),
    )
    metadata.create_all(conn)


def _m2_forgotten(conn: Connection) -> None:
    """What each forget leaves: its date and value digests, and the facts' provenance."""
    import sqlalchemy as sa

    metadata = sa.MetaData()
    forgotten = sa.Table(
        FORGOTTEN_TABLE,
        metadata,
        sa.Column("user_key", sa.Text, primary_key=True),
        sa.Column("forget_id", sa.Text, primary_key=True),
        sa.Column("forgotten_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("digests", sa.Text, nullable=False),
    )
    sa.Index("ctxchat_memory_forgotten_at", forgotten.c.user_key, forgotten.c.forgotten_at)
    forgotten_from = sa.Table(
        FORGOTTEN_FROM_TABLE,
        metadata,
        sa.Column("user_key", sa.Text, nullable=False),
        sa.Column("forget_id", sa.Text, nullable=False),
        sa.Column("session_id", sa.Text, nullable=False),
        sa.Column("message_id", sa.Text),
    )
    sa.Index("ctxchat_memory_forgotten_from_user", forgotten_from.c.user_key)
    metadata.create_all(conn)


def _forgotten_tables(metadata: sa.MetaData) -> tuple[Table, Table]:
    """The step-2 tables as they are now, for queries."""
    import sqlalchemy as sa

    forgotten = sa.Table(
        FORGOTTEN_TABLE,
        metadata,
        sa.Column("user_key", sa.Text, primary_key=True),
        sa.Column("forget_id", sa.Text, primary_key=True),
        sa.Column("forgotten_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("digests", sa.Text, nullable=False),  # JSON: [[word count, sha256], ...]
    )
    forgotten_from = sa.Table(
        FORGOTTEN_FROM_TABLE,
        metadata,
        sa.Column("user_key", sa.Text, nullable=False),
        sa.Column("forget_id", sa.Text, nullable=False),
        sa.Column("session_id", sa.Text, nullable=False),
        sa.Column("message_id", sa.Text),
    )
    return forgotten, forgotten_from


def _memory_tables() -> MemoryTables:
    import sqlalchemy as sa

    metadata = sa.MetaData()
    facts = sa.Table(
        FACTS_TABLE,
        metadata,
        sa.Column("user_key", sa.Text, primary_key=True),
        sa.Column("fact_id", sa.Text, primary_key=True),
        sa.Column("slot", sa.Text),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("fact", sa.Text, nullable=False),
    )
    versions = sa.Table(
        VERSIONS_TABLE,
        metadata,
        sa.Column("user_key", sa.Text, primary_key=True),
        sa.Column("version", sa.BigInteger, nullable=False),
    )
    return MemoryTables(facts, versions, *_forgotten_tables(metadata))


# Numbered steps, applied in order; append only, never edit a step that has shipped.
MEMORY = Store("memory", {1: _m1_memory, 2: _m2_forgotten}, _memory_tables)
