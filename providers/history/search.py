"""Searching `ctxchat_history` through its full-text index (built by `history.index`).

The database finds candidates, any query word matching, through its own index: FTS5 ranked
by its bm25 on SQLite; on PostgreSQL the GIN-indexed tsvector, ranked by the idf of the
words a message holds, then `ts_rank_cd`. `ctxchat.ranking.message_rank` then ranks the
candidates the same way on both backends (BM25, all words and phrases higher) and makes
the snippets. Only the user's rows are read, filtered in the query.

Terms reach the database as bound values made of letters, digits and underscores only, each
quoted as an FTS5 string or turned into a tsquery by `plainto_tsquery` (a prefix match
appends `:*` to what PostgreSQL itself made of the word), so no input is read as query
syntax.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING, Any

from ctxchat.kit import MATCH_END, MATCH_START, MessageHit, Neighbour, utc
from ctxchat.ranking.message_rank import (
    DF_CAP,
    Candidate,
    Ranked,
    Term,
    query_plan,
    rank,
    snippet,
)

from .index import FTS_TABLE, TS_CONFIG, TSV_COLUMN

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from ctxchat.kit import Database, Owner

    from .hybrid import QueryVector

MIN_CANDIDATES = 50  # ranked by the database, re-ranked here: enough that a good one is in
NEIGHBOUR_CHARS = 400
TOTAL_CAP = 20_000  # the user's messages counted, for idf


def search(
    database: Database,
    terms: Sequence[str],
    limit: int,
    keys: Collection[str] | None,
    owner: Owner,
    exclude: Callable[[MessageHit], bool] | None = None,
    meaning: QueryVector | None = None,
) -> list[MessageHit]:
    """The user's best messages for `terms`, each with its neighbouring turn; none that
    `exclude` refuses (read beyond the limit, so that refused ones leave room). With
    `meaning` (the query's vector and its model), ranked by words and meaning together
    (see `history.hybrid`)."""
    plan = query_plan(terms)
    if not plan or limit < 1 or (keys is not None and not keys):
        return []
    wanted = max(MIN_CANDIDATES, 4 * limit)

    def read(conn: Connection) -> list[MessageHit]:
        params: dict[str, Any] = {"u": owner.user, "cap": DF_CAP, "c": wanted}
        where = _key_filter(keys, params)
        columns = _COLUMNS if meaning is None else f"{_COLUMNS}, {VECTOR_COLUMNS}"
        if database.is_sqlite:
            rows, df, total = _sqlite(conn, plan, where, params, columns)
        else:
            rows, df, total = _postgres(conn, plan, where, params, columns)
        by_id = dict(enumerate(rows))
        candidates = [Candidate(i, str(row.body)) for i, row in by_id.items()]
        ranked_rows = [(by_id[r.ident], r) for r in rank(plan, candidates, df, total)]
        if meaning is not None:
            from .hybrid import hybrid_order

            ranked_rows = hybrid_order(conn, database, owner, keys, meaning, ranked_rows, wanted)
        hits: list[MessageHit] = []
        for row, ranked in ranked_rows:
            hit = _hit(row, ranked, plan, owner.home)
            if exclude is not None and exclude(hit):
                continue
            hits.append(hit)
            if len(hits) == limit:
                break
        return _with_neighbours(conn, hits)

    return database.read(read)


def _key_filter(keys: Collection[str] | None, params: dict[str, Any]) -> str:
    where = " AND h.user_key = :u"
    if keys is None:
        return where
    names = []
    for i, key in enumerate(sorted(keys)):
        params[f"k{i}"] = key
        names.append(f":k{i}")
    return f"{where} AND h.history_key IN ({', '.join(names)})"


def _fts5_term(term: Term) -> str:
    """A quoted FTS5 string (quotes doubled), a prefix query when the term is one."""
    quoted = '"' + term.key.replace('"', '""') + '"'
    return quoted + "*" if term.prefix else quoted


_COLUMNS = (
    "h.rowid AS rid, h.history_key, h.seq, h.role, h.created_at, h.home_id, h.body, h.message"
)
VECTOR_COLUMNS = "h.embedding, h.embedding_model"  # read too when ranking by meaning


def _sqlite(
    conn: Connection, plan: Sequence[Term], where: str, params: dict[str, Any], columns: str
) -> tuple[list[Any], dict[str, int], int]:
    import sqlalchemy as sa

    params["q"] = " OR ".join(_fts5_term(t) for t in plan)
    # The best rowids by FTS5's own rank (bm25, which it orders cheaply), then their rows.
    sql = (
        f"SELECT {columns} FROM (SELECT f.rowid AS rowid FROM {FTS_TABLE}(:q) AS f "
        f"JOIN ctxchat_history h ON h.rowid = f.rowid WHERE 1 = 1{where} "
        f"ORDER BY f.rank LIMIT :c) top JOIN ctxchat_history h ON h.rowid = top.rowid"
    )
    rows = list(conn.execute(sa.text(sql), params))
    df: dict[str, int] = {}
    for term in plan:
        counted = conn.execute(
            sa.text(
                f"SELECT count(*) FROM (SELECT 1 FROM {FTS_TABLE} "
                f"WHERE {FTS_TABLE} MATCH :t LIMIT :cap)"
            ),
            {"t": _fts5_term(term), "cap": DF_CAP},
        ).scalar()
        df[term.key] = int(counted or 0)
    return rows, df, _total(conn, params)


def _total(conn: Connection, params: dict[str, Any]) -> int:
    import sqlalchemy as sa

    # Capped, as document frequencies are: an exact count of a large history costs a scan
    # of its user's index (200 ms at 100,000 rows on PostgreSQL), and past the cap idf
    # orders words the same.
    query = sa.text(
        "SELECT count(*) FROM (SELECT 1 FROM ctxchat_history h WHERE h.user_key = :u "
        "LIMIT :most) AS mine"
    )
    return int(conn.execute(query, {"u": params["u"], "most": TOTAL_CAP}).scalar() or 0)


def _tsquery(term: Term, name: str) -> str:
    plain = f"plainto_tsquery('{TS_CONFIG}', :{name})"
    return f"(({plain})::text || ':*')::tsquery" if term.prefix else plain


def _postgres(
    conn: Connection, plan: Sequence[Term], where: str, params: dict[str, Any], columns: str
) -> tuple[list[Any], dict[str, int], int]:
    import sqlalchemy as sa

    from ctxchat.ranking.message_rank import idf

    queries = []
    for i, term in enumerate(plan):
        params[f"t{i}"] = term.key
        queries.append(_tsquery(term, f"t{i}"))
    counts = ", ".join(
        f"(SELECT count(*) FROM (SELECT 1 FROM ctxchat_history h WHERE h.{TSV_COLUMN} @@ "
        f"{q}{where} LIMIT :cap) s{i})"
        for i, q in enumerate(queries)
    )
    found = conn.execute(sa.text(f"SELECT {counts}"), params).one()
    df = {term.key: int(n) for term, n in zip(plan, found, strict=True)}
    total = _total(conn, params)
    for i, term in enumerate(plan):
        params[f"w{i}"] = idf(total, df[term.key])
    any_word = " || ".join(queries)
    weighted = " + ".join(
        f"CASE WHEN h.{TSV_COLUMN} @@ {q} THEN :w{i} ELSE 0 END" for i, q in enumerate(queries)
    )
    sql = (
        f"SELECT {columns.replace('h.rowid AS rid, ', '')} FROM ctxchat_history h "
        f"WHERE h.{TSV_COLUMN} @@ ({any_word}){where} "
        f"ORDER BY ({weighted}) DESC, ts_rank_cd(h.{TSV_COLUMN}, {any_word}, 1) DESC, "
        f"h.created_at DESC LIMIT :c"
    )
    return list(conn.execute(sa.text(sql), params)), df, total


def _when(value: Any) -> Any:
    if isinstance(value, str):  # SQLite through a text() query hands back the stored text
        from datetime import datetime

        value = datetime.fromisoformat(value)
    return utc(value)


def _hit(row: Any, ranked: Ranked, plan: Sequence[Term], home: str) -> MessageHit:
    return MessageHit(
        key=str(row.history_key),
        seq=int(row.seq),
        role=str(row.role),
        created_at=_when(row.created_at),
        snippet=snippet(str(row.body), plan, (MATCH_START, MATCH_END)),
        score=ranked.score,
        local=row.home_id == home,
        relevance=ranked.relevance,
        text=_clipped(str(row.body)),
        message_id=_message_id(row.message),
    )


def _message_id(document: object) -> str:
    """The id inside a stored message document ("" when it has none)."""
    import json

    try:
        data = json.loads(str(document))
    except ValueError:
        return ""
    found = data.get("id") if isinstance(data, dict) else None
    return found if isinstance(found, str) else ""


def _with_neighbours(conn: Connection, hits: list[MessageHit]) -> list[MessageHit]:
    """Each hit with its neighbouring turn: the reply to a user's message, the message an
    assistant's replied to. An answer often sits in the reply to what matched."""
    import dataclasses

    import sqlalchemy as sa

    from .schema import HISTORY

    if not hits:
        return hits
    table = HISTORY.tables
    wanted = {(h.key, h.seq + 1 if h.role == "user" else h.seq - 1) for h in hits}
    # Pairs ORed, not a row-value IN: SQLite would scan the table for that.
    query = sa.select(
        table.c.history_key, table.c.seq, table.c.role, table.c.created_at, table.c.body
    ).where(sa.or_(*((table.c.history_key == key) & (table.c.seq == seq) for key, seq in wanted)))
    found = {(str(r.history_key), int(r.seq)): r for r in conn.execute(query)}
    with_neighbours = []
    for hit in hits:
        row = found.get((hit.key, hit.seq + 1 if hit.role == "user" else hit.seq - 1))
        neighbour = None
        if row is not None and str(row.body).strip():
            neighbour = Neighbour(
                seq=int(row.seq),
                role=str(row.role),
                created_at=_when(row.created_at),
                text=_clipped(str(row.body)),
            )
        with_neighbours.append(dataclasses.replace(hit, neighbour=neighbour))
    return with_neighbours


def _clipped(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= NEIGHBOUR_CHARS else flat[: NEIGHBOUR_CHARS - 1] + "…"
