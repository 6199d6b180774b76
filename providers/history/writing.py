"""The history's write transactions: a turn stored with its attachments and its row of
the usage ledger, a turn discarded or taken back, a history copied for a fork, keys
forgotten. Each is one transaction, so a kill or a full disk never leaves half a turn, and
each keeps the attachment store's uses (`history.attachments`) and the full-text index in
step with the rows."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ctxchat.kit import as_json, count_message_tokens, owner_values

from . import attachments as blobs
from .attachments_schema import ATTACHMENTS
from .rows import read_rows, reindex, searchable_body, select_rows
from .schema import HISTORY, searchable_text
from .usage import discard_usage, insert_usage, usage_row

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from ctxchat import Message
    from ctxchat.kit import Database, Owner


def message_row(
    key: str, turn_id: str, now: datetime, message: Message, owner: Owner
) -> dict[str, Any]:
    """A message as a `ctxchat_history` row, all but its sequence number."""
    return {
        **owner_values(owner),
        "history_key": key,
        "turn_id": turn_id,
        "role": message.role,
        "kind": message.kind,
        "source_id": message.source_id,
        "created_at": now,
        "message": as_json(message.to_dict()),
        "token_count": count_message_tokens(message),
        "body": searchable_text(message),
    }


def append_turn(
    database: Database,
    owner: Owner,
    key: str,
    messages: Sequence[Message],
    turn_id: str,
    now: datetime,
    usage: dict[str, Any] | None = None,
) -> None:
    """Store the rows and their attachments; with `usage` (a turn of a chat, not one
    imported), its ledger row in the same transaction."""
    import sqlalchemy as sa

    # Serialised before the transaction opens: the write lock is held for inserts only.
    rows = [message_row(key, turn_id, now, m, owner) for m in messages]
    stored = [blobs.take_out(m.to_dict()) for m in messages]
    table = HISTORY.tables
    ledger = None if usage is None else usage_row(key, turn_id, now, owner=owner, **usage)

    def write(conn: Connection) -> None:
        new = blobs.store_blobs(conn, owner, (b for s in stored for b in s.blobs), now)
        last = conn.execute(
            sa.select(sa.func.max(table.c.seq)).where(table.c.history_key == key)
        ).scalar()
        first = int(last or 0) + 1
        numbered = []
        for i, (row, message, kept) in enumerate(zip(rows, messages, stored, strict=True)):
            if kept.blobs:
                row = {**row, "message": as_json(kept.document)}
                row["body"] = searchable_body(message, kept.document, new)
            numbered.append({**row, "seq": first + i})
        conn.execute(table.insert(), numbered)
        hashes = [h for kept in stored for h in blobs.references(kept.document)]
        blobs.record_uses(conn, owner, key, turn_id, hashes, indexed=new)
        if ledger is not None:
            insert_usage(conn, row=ledger)

    database.write(write)


def discard_turn(database: Database, key: str, turn_id: str) -> None:
    """The turn's rows, its ledger row and its uses of attachments, gone."""
    table = HISTORY.tables
    where = (table.c.history_key == key) & (table.c.turn_id == turn_id)
    uses = ATTACHMENTS.tables.uses

    def write(conn: Connection) -> None:
        conn.execute(table.delete().where(where))
        discard_usage(conn, key, turn_id)
        used = (uses.c.history_key == key) & (uses.c.turn_id == turn_id)
        reindex(database, conn, blobs.drop_uses(conn, used))

    database.write(write)


def remove_last_turn(database: Database, key: str) -> list[Message]:
    """The newest turn's rows taken out of the history; its messages, oldest first."""
    table = HISTORY.tables

    def write(conn: Connection) -> list[Message]:
        last = conn.execute(
            select_rows().where(table.c.history_key == key).order_by(table.c.seq.desc()).limit(1)
        ).first()
        if last is None:
            return []
        turn = last.turn_id
        where = (table.c.history_key == key) & (table.c.turn_id == turn)
        rows = read_rows(database, conn, conn.execute(select_rows().where(where)))
        conn.execute(table.delete().where(where))
        uses = ATTACHMENTS.tables.uses
        used = (uses.c.history_key == key) & (uses.c.turn_id == turn)
        reindex(database, conn, blobs.drop_uses(conn, used))
        return [r.message for r in sorted(rows)]

    return database.write(write)


def copy_history(
    database: Database, owner: Owner, key: str, new_key: str, turns: int | None
) -> None:
    """The rows of the first `turns` turns under `key` (all when None), copied under
    `new_key` as `owner`'s: the fork is this home's, whoever wrote the source."""
    import sqlalchemy as sa

    table = HISTORY.tables
    columns = [c for c in table.c if c.name not in ("history_key", "seq")]
    owned = owner_values(owner)

    def write(conn: Connection) -> None:
        query = sa.select(*columns).where(table.c.history_key == key).order_by(table.c.seq)
        rows: list[dict[str, Any]] = []
        kept: set[str] = set()
        for row in conn.execute(query).mappings():
            if row["turn_id"] not in kept:
                if turns is not None and len(kept) == turns:
                    break
                kept.add(row["turn_id"])
            rows.append({**row, **owned, "history_key": new_key, "seq": len(rows) + 1})
        if rows:
            conn.execute(table.insert(), rows)
            uses = blobs.copy_uses(conn, key, new_key, sorted(kept), owner)
            reindex(database, conn, uses)

    database.write(write)


def forget_keys(database: Database, home: str, keys: Sequence[str]) -> None:
    """Only this home's rows: another home sharing the database may use the same key
    for a session of its own, which no file here says anything about."""
    table, uses = HISTORY.tables, ATTACHMENTS.tables.uses
    delete = table.delete().where(table.c.history_key.in_(keys), table.c.home_id == home)

    def write(conn: Connection) -> None:
        conn.execute(delete)
        where = uses.c.history_key.in_(keys) & (uses.c.home_id == home)
        reindex(database, conn, blobs.drop_uses(conn, where))

    database.write(write)
