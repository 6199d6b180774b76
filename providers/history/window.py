"""Reading the newest rows of a history backwards, in batches, so that loading a window
costs the window and not the history: a count-limited window is one `LIMIT n` query, a
token-limited one doubles its batch until the stored token counts cover the limit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .rows import Row, read_rows, select_rows
from .schema import HISTORY

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from ctxchat import Message
    from ctxchat.kit import Database

FIRST_BATCH = 64  # rows read first for a token-limited window; doubled until it is covered


def newest_rows(
    database: Database, conn: Connection, key: str, limit: int | None, budget: int | None
) -> list[Row]:
    """The newest rows, oldest first, enough for the window whatever its unit boundaries.

    The window never takes a unit it cannot take whole, so once the rows read hold more
    tokens than `budget` (or as many rows as `limit`), the unit they cut into lies outside it.
    """
    table = HISTORY.tables
    newest_first: list[Row] = []
    tokens = 0
    batch = limit if budget is None else min(FIRST_BATCH, limit or FIRST_BATCH)
    while True:
        query = select_rows().where(table.c.history_key == key)
        if newest_first:
            query = query.where(table.c.seq < newest_first[-1].seq)
        query = query.order_by(table.c.seq.desc())
        if batch is not None:
            query = query.limit(batch)
        got = read_rows(database, conn, conn.execute(query))
        newest_first.extend(got)
        tokens += sum(r.tokens for r in got)
        if batch is None or len(got) < batch:
            break  # the whole history is read
        if limit is not None and len(newest_first) >= limit:
            break
        if budget is not None and tokens > budget:
            break
        batch *= 2
        if limit is not None:
            batch = min(batch, limit - len(newest_first))
    return newest_first[::-1]


def messages_between(
    database: Database, conn: Connection, key: str, first_kept: str | None, after: str | None
) -> list[Message] | None:
    """The messages after the one with id `after` (all when None) and before `first_kept`,
    read backwards from the newest row: what lies between the two marks costs the window
    and the rows that fell out of it since `after`, not the whole history. None when
    `after` is not in the history."""
    table = HISTORY.tables
    newest_first: list[Message] = []
    reached_after = after is None
    below: int | None = None
    batch = FIRST_BATCH
    while True:
        query = select_rows().where(table.c.history_key == key)
        if below is not None:
            query = query.where(table.c.seq < below)
        query = query.order_by(table.c.seq.desc()).limit(batch)
        rows = read_rows(database, conn, conn.execute(query))
        for row in rows:
            if row.message.id == after:
                reached_after = True
                break
            newest_first.append(row.message)
        if (reached_after and after is not None) or len(rows) < batch:
            break
        below = rows[-1].seq
        batch *= 2
    if not reached_after:
        return None
    since = newest_first[::-1]
    ids = [m.id for m in since]
    return since[: ids.index(first_kept)] if first_kept in ids else since
