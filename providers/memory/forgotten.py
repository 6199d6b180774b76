"""What a forget leaves in the memory store (`memory.schema` step 2), and how it is read.

A forget deletes the facts (`memory.store`) and, in the same transaction, records here
its date, the word digests of every value the facts held (current and past, see
`ctxchat.core.forgetting`: never the values themselves), and the session and message each
value was learnt from. Summaries are cleaned against the digests before their next use;
recall and `search_sessions` leave out the messages `forgotten_message_ids` returns.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from ctxchat.kit import Forgetting, new_id, utc

from .schema import MEMORY

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from ctxchat.kit import Database

    from .facts import Fact


def values_of(facts: Sequence[Fact]) -> list[str]:
    """Every value the facts hold or held."""
    return [v for f in facts for v in (f.value, *(p.value for p in f.history))]


def record_forget(conn: Connection, user_key: str, facts: Sequence[Fact], at: datetime) -> None:
    tables = MEMORY.tables
    forgetting = Forgetting.of(values_of(facts), at)
    forget_id = new_id()
    conn.execute(
        tables.forgotten.insert().values(
            user_key=user_key,
            forget_id=forget_id,
            forgotten_at=utc(at),
            digests=json.dumps([list(d) for d in forgetting.digests]),
        )
    )
    origins = {
        (origin.session_id, origin.message_id)
        for fact in facts
        for origin in (fact.provenance, *(p.provenance for p in fact.history))
        if origin.session_id is not None
    }
    if origins:
        conn.execute(
            tables.forgotten_from.insert(),
            [
                {"user_key": user_key, "forget_id": forget_id, "session_id": s, "message_id": m}
                for s, m in sorted(origins, key=str)
            ],
        )


def forgettings_since(conn: Connection, user_key: str, since: datetime | None) -> list[Forgetting]:
    """This user's forgets after `since` (all of them for None), oldest first."""
    import sqlalchemy as sa

    table = MEMORY.tables.forgotten
    query = sa.select(table.c.forgotten_at, table.c.digests).where(table.c.user_key == user_key)
    if since is not None:
        query = query.where(table.c.forgotten_at > utc(since))
    rows = conn.execute(query.order_by(table.c.forgotten_at))
    return [
        Forgetting(
            utc(row.forgotten_at), tuple((int(n), str(d)) for n, d in json.loads(row.digests))
        )
        for row in rows
    ]


def forgotten_message_ids(database: Database, user_key: str) -> set[str]:
    """The ids of the messages this user's forgotten facts were learnt from: what recall and
    `search_sessions` leave out (`sessions search` by the user still shows them)."""
    import sqlalchemy as sa

    table = MEMORY.tables.forgotten_from
    query = sa.select(table.c.message_id).where(
        table.c.user_key == user_key, table.c.message_id.is_not(None)
    )
    return {str(row.message_id) for row in database.read(lambda conn: list(conn.execute(query)))}
