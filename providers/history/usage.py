"""The usage ledger's rows: the one written with a stored turn, and the sums `usage` reads.

A turn's tokens are what its model calls reported, summed; when any call of the turn
reported nothing, the turn's usage is unknown (None), never a partial count taken for the
whole. The sums are one grouped query over this user's rows, by the group and the model
(the model decides the price), so reading the ledger costs one pass of the index, not a
parse of every message.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ctxchat import Message
from ctxchat.kit import Database, Grouping, UsageGroup, owner_values

from .usage_schema import USAGE

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from ctxchat.kit import Owner


def turn_tokens(produced: Sequence[Message]) -> tuple[int | None, int | None]:
    """The turn's (input, output) tokens from its model replies; (None, None) when a reply
    came without usage (or the turn made no model call)."""
    replies = [m for m in produced if m.role == "assistant"]
    if not replies or any(m.usage is None for m in replies):
        return None, None
    return (
        sum(m.usage.input_tokens for m in replies if m.usage is not None),
        sum(m.usage.output_tokens for m in replies if m.usage is not None),
    )


def usage_row(
    key: str,
    turn_id: str,
    now: datetime,
    *,
    model: str | None,
    role: str | None,
    tokens: tuple[int | None, int | None],
    owner: Owner,
) -> dict[str, Any]:
    return {
        **owner_values(owner),
        "history_key": key,
        "turn_id": turn_id,
        "created_at": now,
        "model": model,
        "role": role,
        "recorded": True,
        "input_tokens": tokens[0],
        "output_tokens": tokens[1],
    }


def insert_usage(conn: Connection, row: dict[str, Any]) -> None:
    conn.execute(USAGE.tables.insert(), [row])


def discard_usage(conn: Connection, key: str, turn_id: str) -> None:
    """A turn taken back because its session never counted it (a failed commit): it was
    not stored, so it has no ledger row either."""
    table = USAGE.tables
    conn.execute(table.delete().where(table.c.history_key == key, table.c.turn_id == turn_id))


def usage_groups(
    database: Database,
    user: str,
    by: Grouping,
    since: datetime | None,
    keys: Collection[str] | None,
) -> list[UsageGroup]:
    import sqlalchemy as sa

    table = USAGE.tables
    group = _group_column(database, by)
    known = table.c.recorded & table.c.input_tokens.is_not(None)
    query = (
        sa.select(
            group.label("group_key"),
            sa.func.coalesce(table.c.model, "").label("model_name"),
            sa.func.sum(sa.case((table.c.recorded, 1), else_=0)).label("turns"),
            sa.func.sum(sa.case((table.c.recorded & ~known, 1), else_=0)).label("unknown"),
            sa.func.sum(sa.case((table.c.recorded, 0), else_=1)).label("unrecorded"),
            sa.func.coalesce(sa.func.sum(table.c.input_tokens), 0).label("input"),
            sa.func.coalesce(sa.func.sum(table.c.output_tokens), 0).label("output"),
        )
        .where(table.c.user_key == user)
        # By the labels: PostgreSQL takes two copies of an expression with a bound value
        # for two expressions.
        .group_by(sa.literal_column("group_key"), sa.literal_column("model_name"))
    )
    if since is not None:
        query = query.where(table.c.created_at >= since)
    if keys is not None:
        query = query.where(table.c.history_key.in_(list(keys)))
    rows = database.read(lambda conn: conn.execute(query).all())
    return [
        UsageGroup(
            str(r.group_key or ""),
            str(r.model_name),
            int(r.turns),
            int(r.unknown),
            int(r.unrecorded),
            int(r.input),
            int(r.output),
        )
        for r in rows
    ]


def _group_column(database: Database, by: Grouping) -> Any:
    import sqlalchemy as sa

    table = USAGE.tables
    if by == "model":
        return sa.func.coalesce(table.c.model, "")
    if by == "session":
        return table.c.history_key
    if by == "role":
        return sa.func.coalesce(table.c.role, "")
    # The UTC day: SQLite keeps the time as UTC text, PostgreSQL as timestamptz.
    if database.is_sqlite:
        return sa.func.substr(table.c.created_at, 1, 10)
    return sa.func.to_char(sa.func.timezone("UTC", table.c.created_at), "YYYY-MM-DD")
