"""Reading and rewriting `ctxchat_history` rows whose attachments live in the attachment
store (`history.attachments`): a row's message with its blobs put back, and the searchable
text of a message whose attachments were taken out of it."""

from __future__ import annotations

import dataclasses
import json
from typing import TYPE_CHECKING, Any, NamedTuple

from ctxchat import Message, MessageFormatError, StorageError, TextPart

from . import attachments as blobs
from .schema import HISTORY, searchable_text

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from ctxchat.kit import Database


class Row(NamedTuple):
    seq: int
    turn_id: str
    message: Message
    tokens: int


def select_rows() -> Any:
    """The columns a row is read by: those of the history since step 2, so that a
    read-only database from before owners (step 4) still reads."""
    import sqlalchemy as sa

    table = HISTORY.tables
    return sa.select(
        table.c.history_key, table.c.seq, table.c.turn_id, table.c.message, table.c.token_count
    )


def read_rows(database: Database, conn: Connection, raws: Any) -> list[Row]:
    """The rows read, each message with its attachments put back from their blobs (those
    of the row's owner): the owners of the rows that refer to one, then the blobs, one
    query per owner."""
    read = []
    for raw in raws:
        try:
            read.append((raw, json.loads(raw.message)))
        except ValueError as exc:
            raise _unreadable(database, raw, exc) from exc
    referring = [(raw, document) for raw, document in read if blobs.references(document)]
    owners = _owners(conn, [(str(raw.history_key), int(raw.seq)) for raw, _ in referring])
    wanted = {
        (*owners[(str(raw.history_key), int(raw.seq))], sha)
        for raw, document in referring
        for sha in blobs.references(document)
    }
    found = blobs.load_blobs(conn, wanted) if wanted else {}
    rows = []
    for raw, document in read:
        owner = owners.get((str(raw.history_key), int(raw.seq)))
        owned = {sha: blob for (*whose, sha), blob in found.items() if tuple(whose) == owner}
        try:
            message = Message.from_dict(blobs.put_back(document, owned) if owner else document)
        except blobs.MissingBlob as exc:
            raise blobs.missing_blob(database.masked, int(raw.seq), exc) from exc
        except (ValueError, MessageFormatError) as exc:
            raise _unreadable(database, raw, exc) from exc
        rows.append(Row(int(raw.seq), str(raw.turn_id), message, int(raw.token_count)))
    return rows


def _owners(
    conn: Connection, rows: list[tuple[str, int]]
) -> dict[tuple[str, int], tuple[str, str]]:
    """The (home, user) of each (history key, seq)."""
    import sqlalchemy as sa

    table = HISTORY.tables
    by_key: dict[str, list[int]] = {}
    for key, seq in rows:
        by_key.setdefault(key, []).append(seq)
    found: dict[tuple[str, int], tuple[str, str]] = {}
    for key, seqs in by_key.items():
        query = sa.select(table.c.seq, table.c.home_id, table.c.user_key).where(
            table.c.history_key == key, table.c.seq.in_(seqs)
        )
        for seq, home, user in conn.execute(query):
            found[(key, int(seq))] = (str(home), str(user))
    return found


def reindex(database: Database, conn: Connection, turns: list[blobs.Reindex]) -> None:
    """Give each turn's rows the searchable text of the attachment it now holds (their
    vectors, of the old text, are dropped, to be made again when asked)."""
    table = HISTORY.tables
    for turn in turns:
        where = (table.c.history_key == turn.history_key) & (table.c.turn_id == turn.turn_id)
        raws = conn.execute(select_rows().where(where)).all()
        indexed = blobs.indexed_in(conn, turn.history_key, turn.turn_id, turn.home, turn.user)
        for raw, row in zip(raws, read_rows(database, conn, raws), strict=True):
            document = json.loads(raw.message)
            if turn.sha256 not in blobs.references(document):
                continue
            conn.execute(
                table.update()
                .where(table.c.history_key == turn.history_key, table.c.seq == row.seq)
                .values(
                    body=searchable_body(row.message, document, indexed),
                    embedding=None,
                    embedding_model=None,
                )
            )


def _unreadable(database: Database, raw: Any, exc: Exception) -> StorageError:
    return StorageError(f"database {database.masked}: history row {raw.seq} cannot be read: {exc}")


def searchable_body(message: Message, document: dict[str, Any], indexed: set[str]) -> str:
    """The searchable text of a message whose attachments were taken out of `document`:
    an attachment's text is searchable on the turn its use is `indexed` (the first that
    stored it for its owner); elsewhere only its name line is (see `history.attachments`)."""
    parts: list[Any] = []
    for part, stored in zip(message.parts, document["parts"], strict=True):
        sha = stored.get(blobs.REF_KEY) if isinstance(stored, dict) else None
        if sha is not None and sha not in indexed and isinstance(part, TextPart):
            part = TextPart(part.text.split("\n", 1)[0], part.origin)
        parts.append(part)
    return searchable_text(dataclasses.replace(message, parts=tuple(parts)))
