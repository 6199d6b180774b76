"""The history's full-text index: step 3 of the history store, which builds the index and
fills it from the history already stored (what is searchable of a message:
`history.schema.searchable_text`).

Every row of `ctxchat_history` gets a `body`: the message's searchable text. The index is
kept by the database itself, so it changes in the very transaction that stores a turn or
deletes a session, whichever code path does it (a turn, undo, a journal rollback, delete,
prune):

- SQLite: an FTS5 table over `body` with the history as its external content (no second
  copy of the text), kept in step by triggers on insert, update and delete. The
  `unicode61` tokenizer with `remove_diacritics 2` folds case and accents in every script,
  so "Café" finds "cafe".
- PostgreSQL: a stored generated `tsvector` column over `body`, with a GIN index. Its text
  search configuration is 'simple': conversations mix languages, and a language's stemmer
  (english) would mangle the words of every other one, while 'simple' only lowercases and
  splits, as SQLite's tokenizer does, so both backends find the same messages.

The FTS5 table is keyed by the history's rowid. SQLite keeps rowids unless the file is
VACUUMed by hand; `INSERT INTO ctxchat_history_fts(ctxchat_history_fts) VALUES('rebuild')`
puts the index right after that.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from ctxchat import Message, MessageFormatError, StorageError

from .schema import searchable_text

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

FTS_TABLE = "ctxchat_history_fts"
TSV_COLUMN = "body_tsv"
TS_CONFIG = "simple"
BATCH = 1000
PROGRESS_FROM = 5000  # rows: below this the step is quick and shows no bar


def _body_of_json(text: str) -> str:
    try:
        return searchable_text(Message.from_dict(json.loads(text)))
    except (ValueError, MessageFormatError):
        return ""  # an unreadable row is still shown as unreadable, just never found


def m3_search_index(conn: Connection) -> None:
    """The searchable text of each message, and the full-text index over it, filled from
    the history already stored (with its progress, when there is much of it)."""
    import sqlalchemy as sa

    conn.execute(sa.text("ALTER TABLE ctxchat_history ADD COLUMN body TEXT NOT NULL DEFAULT ''"))
    _fill_bodies(conn)
    if conn.dialect.name == "sqlite":
        _sqlite_index(conn)
    else:
        _postgres_index(conn)


def _fill_bodies(conn: Connection) -> None:
    import sqlalchemy as sa

    from ctxchat.kit import migration_progress

    table = sa.Table(
        "ctxchat_history",
        sa.MetaData(),
        sa.Column("history_key", sa.Text, primary_key=True),
        sa.Column("seq", sa.BigInteger, primary_key=True),
        sa.Column("message", sa.Text),
        sa.Column("body", sa.Text),
    )
    total = int(conn.execute(sa.select(sa.func.count()).select_from(table)).scalar() or 0)
    progress = migration_progress("indexing the history for search")
    shown = total >= PROGRESS_FROM
    done = 0
    last: tuple[str, int] | None = None
    try:
        while True:
            query = sa.select(table.c.history_key, table.c.seq, table.c.message)
            if last is not None:
                query = query.where(sa.tuple_(table.c.history_key, table.c.seq) > sa.tuple_(*last))
            rows = conn.execute(query.order_by(table.c.history_key, table.c.seq).limit(BATCH)).all()
            if not rows:
                break
            changed = [
                {"k": r.history_key, "s": r.seq, "b": body}
                for r in rows
                if (body := _body_of_json(r.message))
            ]
            if changed:
                conn.execute(
                    table.update()
                    .where(
                        table.c.history_key == sa.bindparam("k"), table.c.seq == sa.bindparam("s")
                    )
                    .values(body=sa.bindparam("b")),
                    changed,
                )
            last = (rows[-1].history_key, rows[-1].seq)
            done += len(rows)
            if shown:
                progress(done, total)
    finally:
        if shown:
            progress(total, total)  # over, or failed: the bar goes either way


def _sqlite_index(conn: Connection) -> None:
    import sqlalchemy as sa
    from sqlalchemy.exc import OperationalError

    try:
        conn.exec_driver_sql(
            f"CREATE VIRTUAL TABLE {FTS_TABLE} USING fts5(body, content='ctxchat_history', "
            "content_rowid='rowid', tokenize='unicode61 remove_diacritics 2')"
        )
    except OperationalError as exc:
        if "fts5" not in str(exc):
            raise
        import sqlite3

        raise StorageError(
            f"this Python's SQLite ({sqlite3.sqlite_version}) is built without FTS5, which "
            "the searchable history needs; use a Python whose sqlite3 has FTS5 (python.org "
            "and most distributions' builds do), or a PostgreSQL database ([storage] url)"
        ) from exc
    conn.execute(sa.text(f"INSERT INTO {FTS_TABLE}({FTS_TABLE}) VALUES ('rebuild')"))
    remove = (
        f"INSERT INTO {FTS_TABLE}({FTS_TABLE}, rowid, body) VALUES ('delete', old.rowid, old.body);"
    )
    add = f"INSERT INTO {FTS_TABLE}(rowid, body) VALUES (new.rowid, new.body);"
    for name, event, action in (
        ("insert", "AFTER INSERT", add),
        ("delete", "AFTER DELETE", remove),
        ("update", "AFTER UPDATE OF body", remove + " " + add),
    ):
        conn.exec_driver_sql(
            f"CREATE TRIGGER {FTS_TABLE}_{name} {event} ON ctxchat_history BEGIN {action} END"
        )


def _postgres_index(conn: Connection) -> None:
    conn.exec_driver_sql(
        f"ALTER TABLE ctxchat_history ADD COLUMN {TSV_COLUMN} tsvector "
        f"GENERATED ALWAYS AS (to_tsvector('{TS_CONFIG}', body)) STORED"
    )
    conn.exec_driver_sql(
        f"CREATE INDEX ctxchat_history_search ON ctxchat_history USING GIN ({TSV_COLUMN})"
    )
