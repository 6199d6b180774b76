"""The audit store (`audit`'s table): its migrations and current definition.

Step 1 is ctxchat 0.1's schema version 3, unchanged, so a 0.1 database maps onto it (see
`_sqlschema`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._sqlschema import Store

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
    )


# Numbered steps, applied in order; append only, never edit a step that has shipped.
AUDIT = Store("audit", {1: _m1_audit}, _audit_table)
