"""The usage ledger's table (`sql_history`'s second store): one row per stored turn, with
the tokens the endpoint reported for it, kept apart from the history so that pruning,
deleting or forgetting a session never takes its spend with it.

Step 1 also writes a row for every turn already in the history, marked unrecorded: what
those turns cost was never kept, and `usage` says so rather than counting them as free.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ctxchat.kit import Store, add_owner_columns

from .schema import HISTORY_TABLE

if TYPE_CHECKING:
    from sqlalchemy import Column, Table
    from sqlalchemy.engine import Connection

USAGE_TABLE = "ctxchat_usage"


def _columns() -> list[Column[Any]]:
    import sqlalchemy as sa

    return [
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("history_key", sa.Text, nullable=False),
        sa.Column("turn_id", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("model", sa.Text),
        sa.Column("role", sa.Text),
        # False: a turn stored before the ledger, whose usage was never kept.
        sa.Column("recorded", sa.Boolean, nullable=False),
        # None: the endpoint did not report it (unknown, never 0).
        sa.Column("input_tokens", sa.BigInteger),
        sa.Column("output_tokens", sa.BigInteger),
    ]


def _m1_usage(conn: Connection) -> None:
    """The ledger, owned like the history (home and user), and a row per turn already
    stored, unrecorded, carrying its history rows' owner."""
    import sqlalchemy as sa

    sa.Table(USAGE_TABLE, sa.MetaData(), *_columns()).create(conn)
    add_owner_columns(conn, USAGE_TABLE, "history_key")
    conn.execute(
        sa.text(f"CREATE INDEX {USAGE_TABLE}_turn ON {USAGE_TABLE} (history_key, turn_id)")
    )
    conn.execute(
        sa.text(
            f"INSERT INTO {USAGE_TABLE} (history_key, turn_id, created_at, recorded, "
            "home_id, user_key) "
            "SELECT history_key, turn_id, MIN(created_at), :no, MIN(home_id), MIN(user_key) "
            f"FROM {HISTORY_TABLE} GROUP BY history_key, turn_id"
        ),
        {"no": False},
    )


def _usage_table() -> Table:
    import sqlalchemy as sa

    return sa.Table(
        USAGE_TABLE,
        sa.MetaData(),
        *_columns(),
        sa.Column("home_id", sa.Text),
        sa.Column("user_key", sa.Text),
    )


# Numbered steps, append only. Readable from 0: a read-only database from before the
# ledger still opens (its history reads; only `usage` needs the table).
USAGE = Store("usage", {1: _m1_usage}, _usage_table, readable_from=0)
