"""The audit store (`audit`'s table): its migrations and current definition.

Step 1 is ctxchat 0.1's schema version 3, unchanged, so a 0.1 database maps onto it (see
`ctxchat.kit`). Step 2 gives each row an owner, its home and user (see `ctxchat.kit`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ctxchat.kit import Store

if TYPE_CHECKING:
    from sqlalchemy import Table
    from sqlalchemy.engine import Connection

AUDIT_TABLE = "ctxchat_audit"


def _m1_audit(conn: Connection) -> None:
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


def _m2_owners(conn: Connection) -> None:
    """Whose each row is: the home that wrote it and its user (existing rows unowned)."""
    from ctxchat.kit import add_owner_columns

    add_owner_columns(conn, AUDIT_TABLE, "session_key")


def _audit_table() -> Table:
    """`ctxchat_audit` as the migrations leave it, for queries."""
    import sqlalchemy as sa

    return sa.Table(
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
        sa.Column("home_id", sa.Text),
        sa.Column("user_key", sa.Text),
    )


# Numbered steps, applied in order; append only, never edit a step that has shipped.
# Reading the trail needs step 1 only: a read-only database is read without owners.
AUDIT = Store("audit", {1: _m1_audit, 2: _m2_owners}, _audit_table, readable_from=1)
