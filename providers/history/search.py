"""Searching `ctxchat_history` through its full-text index (built by `history.index`).

A query is planned first (`plan_query`): each word's messages counted in the user's rows,
and the words too common there to tell messages apart left out (see
`ctxchat.ranking.message_rank`), so that the query's vector, when there is one, is made
of the words searched. The database then finds candidates, any remaining word matching,
through its own index: FTS5 ranked by its bm25 on SQLite; on PostgreSQL the GIN-indexed
tsvector, ranked by the idf of the words a message holds, then `ts_rank_cd`.
`ctxchat.ranking.message_rank` then ranks the candidates the same way on both backends
(BM25, all words and phrases higher), a message is lifted by a matched neighbour, and the
snippets are made. Only the user's rows are read, filtered in the query.

Terms reach the database as bound values made of letters, digits and underscores only, each
quoted as an FTS5 string or turned into a tsquery by `plainto_tsquery` (a prefix match
appends `:*` to what PostgreSQL itself made of the word), so no input is read as query
syntax.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ctxchat.kit import MATCH_END, MATCH_START, MessageHit, Neighbour, utc
from ctxchat.ranking.message_rank import (
    DF_CAP,
    Candidate,
    Ranked,
    Term,
    common,
    count_limit,
    distinctive,
    lifted_by_neighbours,
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


@dataclass(frozen=True)
class PlannedQuery:
    """A query's terms as searched (its common words left out), each word's count of the
    user's messages, and how many messages the user has (both capped)."""

    plan: list[Term]
    words: list[str]  # the query's words without its common ones: what its vector is made of
    df: dict[str, int]
    total: int


def plan_query(
    database: Database, terms: Sequence[str], keys: Collection[str] | None, owner: Owner
) -> PlannedQuery | None:
    """The query to search by; None when it has nothing to search for."""
    plan = query_plan(terms)
    if not plan or (keys is not None and not keys):
        return None

    def read(conn: Connection) -> tuple[dict[str, int], int]:
        params: dict[str, Any] = {"u": owner.user}
        where = _key_filter(keys, params)
        total = _total(conn, params)
        params["cap"] = count_limit(total, DF_CAP)
        if database.is_sqlite:
            return _sqlite_df(conn, plan, params, total), total
        return _postgres_df(conn, plan, where, params), total

    df, total = database.read(read)
    kept = distinctive(plan, df, total)
    dropped = {t.key for t in plan} - {t.key for t in kept}
    words = [w for w in terms if not any(t.key in dropped for t in query_plan([w]))]
    return PlannedQuery(kept, words, df, total)


def search(
    database: Database,
    planned: PlannedQuery,
    limit: int,
    keys: Collection[str] | None,
    owner: Owner,
    exclude: Callable[[MessageHit], bool] | None = None,
    meaning: QueryVector | None = None,
) -> list[MessageHit]:
    """The user's best messages for the planned query, each with its neighbouring turn;
    none that `exclude` refuses (read beyond the limit, so that refused ones leave room).
    With `meaning` (the query's vector and its model), ranked by words and meaning together
    (see `history.hybrid`)."""
    plan, df, total = planned.plan, planned.df, planned.total
    if limit < 1:
        return []
    wanted = max(MIN_CANDIDATES, 4 * limit)

    def read(conn: Connection) -> list[MessageHit]:
        params: dict[str, Any] = {"u": owner.user, "c": wanted}
        where = _key_filter(keys, params)
        columns = _COLUMNS if meaning is None else f"{_COLUMNS}, {VECTOR_COLUMNS}"
        if database.is_sqlite:
            rows = _sqlite(conn, plan, where, params, columns)
        else:
            rows = _postgres(conn, plan, df, total, where, params, columns)
        by_id = dict(enumerate(rows))
        candidates = [Candidate(i, str(row.body)) for i, row in by_id.items()]
        ranked_rows = [(by_id[r.ident], r) for r in rank(plan, candidates, df, total)]
        if meaning is not None:
            from .hybrid import hybrid_order

            ranked_rows = hybrid_order(conn, database, owner, keys, meaning, ranked_rows, wanted)
        ranked_rows = _lifted(ranked_rows)
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


def _lifted(ranked_rows: Sequence[tuple[Any, Ranked]]) -> list[tuple[Any, Ranked]]:
    """The ranked rows, each lifted by its ranked neighbours, best first again."""
    import dataclasses

    places = [(str(row.history_key), int(row.seq)) for row, _ in ranked_rows]
    lifted = lifted_by_neighbours(
        {place: r.score for place, (_, r) in zip(places, ranked_rows, strict=True)}
    )
    again = [
        (row, dataclasses.replace(r, score=lifted[place]))
        for place, (row, r) in zip(places, ranked_rows, strict=True)
    ]
    again.sort(key=lambda pair: -pair[1].score)
    return again


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
) -> list[Any]:
    import sqlalchemy as sa

    params["q"] = " OR ".join(_fts5_term(t) for t in plan)
    # The best rowids by FTS5's own rank (bm25, which it orders cheaply), then their rows.
    sql = (
        f"SELECT {columns} FROM (SELECT f.rowid AS rowid FROM {FTS_TABLE}(:q) AS f "
        f"JOIN ctxchat_history h ON h.rowid = f.rowid WHERE 1 = 1{where} "
        f"ORDER BY f.rank LIMIT :c) top JOIN ctxchat_history h ON h.rowid = top.rowid"
    )
    return list(conn.execute(sa.text(sql), params))


def _sqlite_df(
    conn: Connection, plan: Sequence[Term], params: dict[str, Any], total: int
) -> dict[str, int]:
    """Each term's messages, counted in the index to `cap`: every user's, which costs no
    row lookup; the user's own for a term that would count as common by every user's (a
    database other users share must not make a word common in this user's history)."""
    import sqlalchemy as sa

    df: dict[str, int] = {}
    every = sa.text(
        f"SELECT count(*) FROM (SELECT 1 FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH :t LIMIT :cap)"
    )
    # CROSS JOIN keeps the index's matches as the outer loop: SQLite's planner may otherwise
    # walk every row of the user and ask the index of each (seconds at 100,000 rows).
    mine = sa.text(
        f"SELECT count(*) FROM (SELECT 1 FROM {FTS_TABLE} f CROSS JOIN ctxchat_history h "
        f"ON h.rowid = f.rowid WHERE {FTS_TABLE} MATCH :t AND h.user_key = :u LIMIT :cap)"
    )
    for term in plan:
        asked = {"t": _fts5_term(term), "cap": params["cap"], "u": params["u"]}
        df[term.key] = int(conn.execute(every, asked).scalar() or 0)
        if common(term, df, total):
            df[term.key] = int(conn.execute(mine, asked).scalar() or 0)
    return df


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


def _tsqueries(plan: Sequence[Term], params: dict[str, Any]) -> list[str]:
    queries = []
    for i, term in enumerate(plan):
        params[f"t{i}"] = term.key
        queries.append(_tsquery(term, f"t{i}"))
    return queries


def _postgres_df(
    conn: Connection, plan: Sequence[Term], where: str, params: dict[str, Any]
) -> dict[str, int]:
    """Each term's messages of the user, counted to `cap`."""
    import sqlalchemy as sa

    queries = _tsqueries(plan, params)
    counts = ", ".join(
        f"(SELECT count(*) FROM (SELECT 1 FROM ctxchat_history h WHERE h.{TSV_COLUMN} @@ "
        f"{q}{where} LIMIT :cap) s{i})"
        for i, q in enumerate(queries)
    )
    found = conn.execute(sa.text(f"SELECT {counts}"), params).one()
    return {term.key: int(n) for term, n in zip(plan, found, strict=True)}


def _postgres(
    conn: Connection,
    plan: Sequence[Term],
    df: dict[str, int],
    total: int,
    where: str,
    params: dict[str, Any],
    columns: str,
) -> list[Any]:
    import sqlalchemy as sa

    from ctxchat.ranking.message_rank import idf

    queries = _tsqueries(plan, params)
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
    return list(conn.execute(sa.text(sql), params))


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
