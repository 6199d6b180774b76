"""The memory store (`user_memory`'s tables): its migrations and current definition.

One row per fact, keyed by the user it belongs to: a team sharing one PostgreSQL database
keeps each person's memory apart. The fact itself (value, history of values, provenance)
is its JSON document; slot and status are columns so a turn finds a slot's facts by index.
A second table holds one counter per user, bumped in every write: a process that cached a
user's facts sees at the cost of one indexed read whether another process changed them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ._sqlschema import Store

if TYPE_CHECKING:
    from sqlalchemy import Table
    from sqlalchemy.engine import Connection

FACTS_TABLE = "ctxchat_memory"
VERSIONS_TABLE = "ctxchat_memory_version"


class MemoryTables(NamedTuple):
    facts: Table
    versions: Table


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
    return MemoryTables(facts, versions)


# Numbered steps, applied in order; append only, never edit a step that has shipped.
MEMORY = Store("memory", {1: _m1_memory}, _memory_tables)
