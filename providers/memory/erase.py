"""Every row of one user in the memory store, deleted in one transaction: facts active and
retired, their versions, and the marks of forgotten facts.

A user's own forgetting (`/memory forget`, `/memory clear`) deletes facts but records what
was forgotten, so that recall and the search tool keep leaving out the messages it came
from; a user that was never a person, as the ones `recall eval` makes up for each
conversation, must leave nothing behind, marks included.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .schema import MEMORY

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from ctxchat.kit import Database


def erase_user(database: Database, user_key: str) -> int:
    """The rows deleted."""
    tables = MEMORY.tables

    def write(conn: Connection) -> int:
        deleted = 0
        for table in (tables.forgotten_from, tables.forgotten, tables.facts, tables.versions):
            deleted += conn.execute(table.delete().where(table.c.user_key == user_key)).rowcount
        return deleted

    return database.write(write)
