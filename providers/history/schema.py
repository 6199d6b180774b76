"""The history store (`sql_history`'s tables): its migrations and current definition.

Steps 1 and 2 are ctxchat 0.1's schema versions 1 and 2, unchanged, so a 0.1 database maps
onto them (see `ctxchat.kit`). Step 3 makes the history searchable (see `history.search`);
step 4 gives each row an owner, its home and user (see `ctxchat.kit`); step 5 a place for
its vector (see `history.vectors`).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from ctxchat import Message, MessageFormatError, TextPart, ToolResultPart
from ctxchat.kit import Store, count_message_tokens, estimate_tokens

if TYPE_CHECKING:
    from sqlalchemy import Table
    from sqlalchemy.engine import Connection

HISTORY_TABLE = "ctxchat_history"
BACKFILL_BATCH = 500
MAX_BODY = 200_000  # characters indexed per message: a huge tool result is cut, not refused
# The marks a search puts around matched words (`ctxchat.core.search.MATCH_START`/`END`),
# taken out of the text indexed so that a snippet's marks are always the search's own.
_NO_MARKS = str.maketrans("", "", "\x02\x03")


def searchable_text(message: Message) -> str:
    """What a search finds a message by (the `body` column, see `history.index`): its
    text and its tool results; not its reasoning, which is kept apart and is no part of the
    conversation, nor tool call arguments."""
    pieces = [
        p.text if isinstance(p, TextPart) else p.content
        for p in message.parts
        if isinstance(p, TextPart | ToolResultPart)
    ]
    text = "\n\n".join(piece for piece in pieces if piece)
    return text[:MAX_BODY].translate(_NO_MARKS)


def _m1_history(conn: Connection) -> None:
    """The history: one row per message, numbered per history key."""
    import sqlalchemy as sa

    sa.Table(
        HISTORY_TABLE,
        sa.MetaData(),
        sa.Column("history_key", sa.Text, primary_key=True),
        sa.Column("seq", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("turn_id", sa.Text, nullable=False),
        sa.Column("role", sa.Text, nullable=False),
        sa.Column("kind", sa.Text),
        sa.Column("source_id", sa.Text),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("message", sa.Text, nullable=False),
    ).create(conn)


def _m2_token_counts(conn: Connection) -> None:
    """Token counts stored per message, so a token-limited window is read backwards without
    parsing every message; and an index to find a turn's rows (undo)."""
    import sqlalchemy as sa

    conn.execute(
        sa.text(f"ALTER TABLE {HISTORY_TABLE} ADD COLUMN token_count INTEGER NOT NULL DEFAULT 0")
    )
    table = sa.Table(
        HISTORY_TABLE,
        sa.MetaData(),
        sa.Column("history_key", sa.Text, primary_key=True),
        sa.Column("seq", sa.BigInteger, primary_key=True),
        sa.Column("turn_id", sa.Text),
        sa.Column("message", sa.Text),
        sa.Column("token_count", sa.Integer),
    )
    last: tuple[str, int] | None = None
    while True:
        query = sa.select(table.c.history_key, table.c.seq, table.c.message)
        if last is not None:
            query = query.where(sa.tuple_(table.c.history_key, table.c.seq) > sa.tuple_(*last))
        rows = conn.execute(
            query.order_by(table.c.history_key, table.c.seq).limit(BACKFILL_BATCH)
        ).all()
        if not rows:
            break
        conn.execute(
            table.update()
            .where(table.c.history_key == sa.bindparam("k"), table.c.seq == sa.bindparam("s"))
            .values(token_count=sa.bindparam("n")),
            [{"k": r.history_key, "s": r.seq, "n": _tokens_of_json(r.message)} for r in rows],
        )
        last = (rows[-1].history_key, rows[-1].seq)
    sa.Index("ctxchat_history_turn", table.c.history_key, table.c.turn_id).create(conn)


def _tokens_of_json(text: str) -> int:
    try:
        return count_message_tokens(Message.from_dict(json.loads(text)))
    except (ValueError, MessageFormatError):
        return estimate_tokens(text)  # unreadable rows still need a plausible size


def _m3_search_index(conn: Connection) -> None:
    """The full-text index (its module is imported only when the step runs)."""
    from .index import m3_search_index

    m3_search_index(conn)


def _m4_owners(conn: Connection) -> None:
    """Whose each row is: the home that wrote it and its user (existing rows unowned)."""
    from ctxchat.kit import add_owner_columns

    add_owner_columns(conn, HISTORY_TABLE, "history_key")


def _m5_vectors(conn: Connection) -> None:
    """A vector per row, for hybrid search (none yet: rows are embedded when asked)."""
    from .vectors import m5_vectors

    m5_vectors(conn)


def _history_table() -> Table:
    """`ctxchat_history` as the migrations leave it, for queries."""
    import sqlalchemy as sa

    from .vectors import vector_type

    return sa.Table(
        HISTORY_TABLE,
        sa.MetaData(),
        sa.Column("history_key", sa.Text, primary_key=True),
        sa.Column("seq", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("turn_id", sa.Text, nullable=False),
        sa.Column("role", sa.Text, nullable=False),
        sa.Column("kind", sa.Text),
        sa.Column("source_id", sa.Text),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("message", sa.Text, nullable=False),
        sa.Column("token_count", sa.Integer, nullable=False),
        # The message's searchable text (`searchable_text`), indexed by step 3.
        sa.Column("body", sa.Text, nullable=False),
        # Whose the row is (step 4): None for a row from before owners no home adopted.
        sa.Column("home_id", sa.Text),
        sa.Column("user_key", sa.Text),
        # The message's vector and what made it (step 5): None until embedded.
        sa.Column("embedding", vector_type()),
        sa.Column("embedding_model", sa.Text),
    )


# Numbered steps, applied in order; append only, never edit a step that has shipped.
# Reading the conversation needs step 2 at least (token counts); steps 3 to 5 only add
# search, owners and vectors.
HISTORY = Store(
    "history",
    {1: _m1_history, 2: _m2_token_counts, 3: _m3_search_index, 4: _m4_owners, 5: _m5_vectors},
    _history_table,
    readable_from=2,
)
