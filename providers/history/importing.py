"""A whole imported conversation stored in one transaction (`ctxchat import`).

All its turns or none: a file that fails half way, a kill or a full disk leaves no part
of a conversation behind. Rows this home left under the key by an import whose session
file was never written (a process killed between the two) are replaced in the same
transaction, so importing again never doubles them: the key is the imported session's id,
which no session file of this home holds yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ctxchat.kit import new_id

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from ctxchat.kit import Database, ImportedTurn, Owner


def store_conversation(
    database: Database, key: str, turns: Sequence[ImportedTurn], owner: Owner
) -> None:
    from .schema import HISTORY
    from .writing import message_row

    table = HISTORY.tables
    rows: list[dict[str, Any]] = []
    for turn in turns:
        turn_id = new_id()
        for message in turn.messages:
            row = message_row(key, turn_id, turn.at, message, owner)
            rows.append({**row, "seq": len(rows) + 1})

    def write(conn: Connection) -> None:
        conn.execute(
            table.delete().where(table.c.history_key == key, table.c.home_id == owner.home)
        )
        if rows:
            conn.execute(table.insert(), rows)

    database.write(write)
