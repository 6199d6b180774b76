"""Searching `ctxchat_history` through its full-text index (built by `_history_index`):
FTS5 ranked by bm25 on SQLite, the GIN-indexed tsvector ranked by ts_rank_cd on
PostgreSQL. Terms reach the database as bound values only, each quoted as a phrase (FTS5)
or as plain words (plainto_tsquery), so no input is ever read as query syntax."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any

from ctxchat.core.search import MATCH_END, MATCH_START, MessageHit

from ._history_index import FTS_TABLE, TS_CONFIG, TSV_COLUMN
from ._sqlschema import utc

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from ctxchat.storage.owner import Owner

    from ._sqlstore import Database

SNIPPET_WORDS = 16


def search(
    database: Database,
    terms: Sequence[str],
    limit: int,
    keys: Collection[str] | None,
    owner: Owner,
) -> list[MessageHit]:
    """The user's best messages: rows of other users never reach the ranking."""
    if not terms or limit < 1 or (keys is not None and not keys):
        return []

    def read(conn: Connection) -> list[MessageHit]:
        if database.is_sqlite:
            hits = _sqlite(conn, terms, limit, keys, owner.user)
        else:
            hits = _postgres(conn, terms, limit, keys, owner.user)
        return [_hit(row, score, owner.home) for row, score in hits]

    return database.read(read)


def _fts5_query(terms: Sequence[str]) -> str:
    """Each term a quoted FTS5 string (its quotes doubled): a phrase of whatever tokens the
    tokenizer makes of it, never an operator; side by side they must all match."""
    return " ".join('"' + term.replace('"', '""') + '"' for term in terms)


def _key_filter(keys: Collection[str] | None, user: str, params: dict[str, Any]) -> str:
    params["u"] = user
    if keys is None:
        return " AND h.user_key = :u"
    names = []
    for i, key in enumerate(sorted(keys)):
        params[f"k{i}"] = key
        names.append(f":k{i}")
    return f" AND h.user_key = :u AND h.history_key IN ({', '.join(names)})"


def _sqlite(
    conn: Connection, terms: Sequence[str], limit: int, keys: Collection[str] | None, user: str
) -> list[tuple[Any, float]]:
    import sqlalchemy as sa

    params: dict[str, Any] = {
        "q": _fts5_query(terms),
        "n": limit,
        "a": MATCH_START,
        "b": MATCH_END,
    }
    where = _key_filter(keys, user, params)
    # The best rowids first, by FTS5's own rank (bm25, which it can order cheaply); then
    # the snippets for those rows only: asked for in the same query as the ordering, SQLite
    # would build one for every match before sorting.
    sql = (
        f"SELECT h.history_key, h.seq, h.role, h.created_at, h.home_id, "
        f"snippet({FTS_TABLE}, 0, :a, :b, '…', {SNIPPET_WORDS}) AS snippet, "
        f"{FTS_TABLE}.rank AS rank "
        f"FROM {FTS_TABLE} JOIN ctxchat_history h ON h.rowid = {FTS_TABLE}.rowid "
        f"WHERE {FTS_TABLE} MATCH :q AND {FTS_TABLE}.rowid IN ("
        f"SELECT f.rowid FROM {FTS_TABLE}(:q) AS f JOIN ctxchat_history h "
        f"ON h.rowid = f.rowid WHERE 1 = 1{where} ORDER BY f.rank LIMIT :n) "
        f"ORDER BY rank"
    )
    rows = conn.execute(sa.text(sql), params).all()
    # bm25 is lower for better matches: negated, so that higher is better on both backends.
    return [(r, -float(r.rank)) for r in rows]


def _postgres(
    conn: Connection, terms: Sequence[str], limit: int, keys: Collection[str] | None, user: str
) -> list[tuple[Any, float]]:
    import sqlalchemy as sa

    params: dict[str, Any] = {
        "q": " ".join(terms),
        "n": limit,
        "opts": (
            f'StartSel="{MATCH_START}", StopSel="{MATCH_END}", MaxWords={SNIPPET_WORDS}, '
            'MinWords=6, ShortWord=0, MaxFragments=1, FragmentDelimiter="…"'
        ),
    }
    where = _key_filter(keys, user, params)
    # The headline is made for the chosen rows only: it re-reads the text, which costs.
    sql = (
        f"WITH q AS (SELECT plainto_tsquery('{TS_CONFIG}', :q) AS query), "
        f"top AS (SELECT h.history_key, h.seq, h.role, h.created_at, h.home_id, h.body, "
        f"ts_rank_cd(h.{TSV_COLUMN}, q.query) AS rank "
        f"FROM ctxchat_history h, q WHERE h.{TSV_COLUMN} @@ q.query{where} "
        f"ORDER BY rank DESC, h.created_at DESC LIMIT :n) "
        f"SELECT top.history_key, top.seq, top.role, top.created_at, top.home_id, top.rank, "
        f"ts_headline('{TS_CONFIG}', top.body, q.query, :opts) AS snippet "
        f"FROM top, q ORDER BY top.rank DESC, top.created_at DESC"
    )
    rows = conn.execute(sa.text(sql), params).all()
    return [(r, float(r.rank)) for r in rows]


def _hit(row: Any, score: float, home: str) -> MessageHit:
    created = row.created_at
    if isinstance(created, str):  # SQLite through a text() query hands back the stored text
        from datetime import datetime

        created = datetime.fromisoformat(created)
    return MessageHit(
        key=str(row.history_key),
        seq=int(row.seq),
        role=str(row.role),
        created_at=utc(created),
        snippet=str(row.snippet or ""),
        score=score,
        local=row.home_id == home,
    )
