"""Searching `ctxchat_history` through its full-text index (built by `history.index`).

A query is planned first (`plan_query`): each word's messages counted in the user's rows,
and the words too common there to tell messages apart left out (see
`ctxchat.ranking.message_rank`, which the kit exports), so that the query's vector, when
there is one, is made of the words searched. The database then finds candidates, any
remaining word matching, through its own index: FTS5 ranked by its bm25 on SQLite; on
PostgreSQL the GIN-indexed tsvector, ranked by the idf of the words a message holds, then
`ts_rank_cd`. `ctxchat.ranking.message_rank` then ranks the candidates the same way on both backends
(BM25, all words and phrases higher), a message is lifted by a matched neighbour, and the
snippets are made (`history.hits`). Only the user's rows are read, filtered in the query.

Terms reach the database as bound values made of letters, digits and underscores only, each
quoted as an FTS5 string or turned into a tsquery by `plainto_tsquery` (a prefix match
appends `:*` to what PostgreSQL itself made of the word), so no input is read as query
syntax.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ctxchat.kit import (
    DF_CAP,
    Candidate,
    MessageHit,
    Ranked,
    Term,
    common,
    count_limit,
    distinctive,
    lifted_by_neighbours,
    query_plan,
    rank,
    rare_enough,
)

from .hits import completed, hit_of
from .index import FTS_TABLE, TS_CONFIG, TSV_COLUMN

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from ctxchat.kit import Database, Owner

    from .hybrid import QueryVector

MIN_CANDIDATES = 50  # ranked by the database, re-ranked here: enough that a good one is in
TOTAL_CAP = 20_000  # the user's messages counted, for idf


@dataclass(frozen=True)
class PlannedQuery:
    """A query's terms as searched (its common words left out), each word's count of the
    user's messages, and how many messages the user has (both capped)."""

    plan: list[Term]
    words: list[str]  # the query's words without its common ones: what its vector is made of
    df: dict[str, int]
    total: int
    # Whether `df` counts the user's messages alone: SQLite counts every user's when the
    # table holds only the user's rows (or the word is common), PostgreSQL always the user's.
    own: bool = True


def plan_query(
    database: Database, terms: Sequence[str], keys: Collection[str] | None, owner: Owner
) -> PlannedQuery | None:
    """The query to search by; None when it has nothing to search for."""
    plan = query_plan(terms)
    if not plan or (keys is not None and not keys):
        return None
    return database.read(lambda conn: _planned(conn, database, plan, terms, keys, owner))


def _planned(
    conn: Connection,
    database: Database,
    plan: list[Term],
    terms: Sequence[str],
    keys: Collection[str] | None,
    owner: Owner,
) -> PlannedQuery:
    if len(plan) == 1:
        # One term is searched whatever its count (it is never left out: `distinctive`),
        # and its idf scales every candidate's score alike, which ranking normalises away
        # and relevance (a share of the query's weight) never sees. Counting it, and the
        # user's messages, was a third of a one-word search at 100,000 messages.
        return PlannedQuery(plan, list(terms), {}, 0)
    params: dict[str, Any] = {"u": owner.user}
    where = _key_filter(keys, params)
    own = True
    if database.is_sqlite:
        own = not _shared(conn, params)
        total = _total(conn, params, own)
        params["cap"] = count_limit(total, DF_CAP)
        df = _sqlite_df(conn, plan, params, total, own)
    else:
        df, total = _postgres_df(conn, plan, where, params)
    kept = distinctive(plan, df, total)
    dropped = {t.key for t in plan} - {t.key for t in kept}
    words = [w for w in terms if not any(t.key in dropped for t in query_plan([w]))]
    return PlannedQuery(kept, words, df, total, own)


def search_by_words(
    database: Database,
    terms: Sequence[str],
    limit: int,
    keys: Collection[str] | None,
    owner: Owner,
    exclude: Callable[[MessageHit], bool] | None = None,
) -> list[MessageHit]:
    """`plan_query` and `search` in one read transaction, for a search by words alone.

    Called in the caller's thread, not through a worker thread as the history's other
    reads are: it is a few milliseconds of work that nothing waits beside (a turn runs its
    providers' hooks and its tool calls one at a time, and `sessions search` runs nothing
    else), while each trip to a thread and back costs two wake-ups, and on a busy machine
    each waits for a free core. Measured at 100,000 messages on a loaded 2-core machine
    (`bench/session_search.py`): the two trips a search made took more time than its SQL and
    ranking together."""
    plan = query_plan(terms)
    if not plan or (keys is not None and not keys) or limit < 1:
        return []

    def read(conn: Connection) -> list[MessageHit]:
        planned = _planned(conn, database, plan, terms, keys, owner)
        return _found(conn, database, planned, limit, keys, owner, exclude, None)

    return database.read(read)


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
    if limit < 1:
        return []
    return database.read(
        lambda conn: _found(conn, database, planned, limit, keys, owner, exclude, meaning)
    )


def _found(
    conn: Connection,
    database: Database,
    planned: PlannedQuery,
    limit: int,
    keys: Collection[str] | None,
    owner: Owner,
    exclude: Callable[[MessageHit], bool] | None,
    meaning: QueryVector | None,
) -> list[MessageHit]:
    plan, df, total = planned.plan, planned.df, planned.total
    wanted = max(MIN_CANDIDATES, 4 * limit)
    params: dict[str, Any] = {"u": owner.user, "c": wanted}
    where = _key_filter(keys, params)
    # A message's document is read for its id only when `exclude` may ask for it; else the
    # ids of the hits kept are read with their neighbours.
    shown = _COLUMNS if exclude is None else f"{_COLUMNS}, {MESSAGE_COLUMN}"
    columns = shown if meaning is None else f"{shown}, {VECTOR_COLUMNS}"
    # Only the rarest words' messages are read when they hold the best candidates (see
    # `rare_enough`); every word of the plan still ranks them. A word's count must then be
    # the user's own, or it may promise messages the user does not have.
    searched = rare_enough(plan, df, total, wanted) if planned.own else plan
    if database.is_sqlite:
        rows = _sqlite(conn, plan, searched, where, params, columns)
    else:
        rows = _postgres(conn, plan, searched, df, total, where, params, columns)
    by_id = dict(enumerate(rows))
    candidates = [Candidate(i, str(row.body)) for i, row in by_id.items()]
    ranked_rows = [(by_id[r.ident], r) for r in rank(plan, candidates, df, total)]
    if meaning is not None:
        from .hybrid import hybrid_order

        ranked_rows = hybrid_order(conn, database, owner, keys, meaning, ranked_rows, wanted, shown)
    ranked_rows = _lifted(ranked_rows)
    hits: list[MessageHit] = []
    for row, ranked in ranked_rows:
        hit = hit_of(row, ranked, plan, owner.home, with_id=exclude is not None)
        if exclude is not None and exclude(hit):
            continue
        hits.append(hit)
        if len(hits) == limit:
            break
    return completed(conn, hits, ids=exclude is None)


def _lifted(ranked_rows: Sequence[tuple[Any, Ranked]]) -> list[tuple[Any, Ranked]]:
    """The ranked rows, each lifted by its ranked neighbours, best first again."""
    places = [(str(row.history_key), int(row.seq)) for row, _ in ranked_rows]
    lifted = lifted_by_neighbours(
        {place: r.score for place, (_, r) in zip(places, ranked_rows, strict=True)}
    )
    again = [
        (row, Ranked(r.ident, lifted[place], r.relevance))
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


_COLUMNS = "h.rowid AS rid, h.history_key, h.seq, h.role, h.created_at, h.home_id, h.body"
MESSAGE_COLUMN = "h.message"
VECTOR_COLUMNS = "h.embedding, h.embedding_model"  # read too when ranking by meaning


def _sqlite(
    conn: Connection,
    plan: Sequence[Term],
    searched: Sequence[Term],
    where: str,
    params: dict[str, Any],
    columns: str,
) -> list[Any]:
    import sqlalchemy as sa

    params["q"] = " OR ".join(_fts5_term(t) for t in searched)

    def best(name: str) -> str:
        # The best rowids by FTS5's own rank (bm25, which it orders cheaply).
        return (
            f"SELECT f.rowid AS rowid, f.rank AS r FROM {FTS_TABLE}(:{name}) AS f "
            f"JOIN ctxchat_history h ON h.rowid = f.rowid WHERE 1 = 1{where} "
            f"ORDER BY f.rank LIMIT :c"
        )

    if len(searched) == len(plan):
        sql = (
            f"SELECT {columns} FROM ({best('q')}) top JOIN ctxchat_history h ON h.rowid = top.rowid"
        )
        return list(conn.execute(sa.text(sql), params))
    # FTS5 ranks the rare words' messages by those words alone, so the messages holding
    # every word, which the others lift most, are read first on their own.
    params["every"] = " AND ".join(_fts5_term(t) for t in plan)
    sql = (
        f"WITH every AS MATERIALIZED ({best('every')}), rare AS ({best('q')}), "
        "top AS (SELECT rowid, 0 AS o, r FROM every UNION ALL SELECT rowid, 1 AS o, r "
        "FROM rare WHERE rowid NOT IN (SELECT rowid FROM every) ORDER BY o, r LIMIT :c) "
        f"SELECT {columns} FROM top JOIN ctxchat_history h ON h.rowid = top.rowid "
        "ORDER BY top.o, top.r"
    )
    return list(conn.execute(sa.text(sql), params))


def _sqlite_df(
    conn: Connection, plan: Sequence[Term], params: dict[str, Any], total: int, own: bool
) -> dict[str, int]:
    """Each term's messages, counted in the index to `cap`: every user's, which costs no
    row lookup; unless the table is `own` (holds the user's rows alone), the user's own for
    a term that would count as common by every user's (a database other users share must
    not make a word common in this user's history)."""
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
        # In a table of this user's rows alone (one person's history, the usual case)
        # every user's count is the user's own, and counting it again through the rows
        # was a sixth of a search at 100,000 messages.
        if not own and common(term, df, total):
            df[term.key] = int(conn.execute(mine, asked).scalar() or 0)
    return df


def _shared(conn: Connection, params: dict[str, Any]) -> bool:
    """Whether the history table holds rows of anyone but the user."""
    import sqlalchemy as sa

    least, most, unowned = conn.execute(sa.text(_WHOSE)).one()
    return bool(unowned) or least != params["u"] or most != params["u"]


# Each an index seek (an OR of the three is a scan of the index to SQLite's planner).
_WHOSE = (
    "SELECT (SELECT min(user_key) FROM ctxchat_history), (SELECT max(user_key) FROM "
    "ctxchat_history), EXISTS (SELECT 1 FROM ctxchat_history WHERE user_key IS NULL)"
)


# Capped, as document frequencies are: an exact count of a large history costs a scan of
# its user's index (200 ms at 100,000 rows on PostgreSQL), and past the cap idf orders words
# the same.
_TOTAL = (
    "SELECT count(*) FROM (SELECT 1 FROM ctxchat_history h WHERE h.user_key = :u "
    "LIMIT :most) AS mine"
)


def _total(conn: Connection, params: dict[str, Any], own: bool) -> int:
    """The user's messages, counted to `TOTAL_CAP`. In a table of the user's rows alone,
    the table's count: SQLite counts a whole table from its smallest index's pages without
    a step per row (12 us at 100,000 rows, where counting the user's rows to the cap took
    0.6 ms)."""
    import sqlalchemy as sa

    if own:
        every = int(conn.execute(sa.text("SELECT count(*) FROM ctxchat_history")).scalar() or 0)
        return min(every, TOTAL_CAP)
    query = sa.text(_TOTAL)
    return int(conn.execute(query, {"u": params["u"], "most": TOTAL_CAP}).scalar() or 0)


def _tsquery(term: Term, name: str) -> str:
    plain = f"plainto_tsquery('{TS_CONFIG}', :{name})"
    return f"(({plain})::text || ':*')::tsquery" if term.prefix else plain


def _once(tsquery: str) -> str:
    """The tsquery made once per statement (an init plan), not once per row it is matched
    or ranked against, as a stable function's call otherwise is: a seventh of a search of a
    word in a thousand messages went to making its tsquery again for each."""
    return f"(SELECT {tsquery})"


def _tsqueries(plan: Sequence[Term], params: dict[str, Any]) -> list[str]:
    queries = []
    for i, term in enumerate(plan):
        params[f"t{i}"] = term.key
        queries.append(_tsquery(term, f"t{i}"))
    return queries


def _postgres_df(
    conn: Connection, plan: Sequence[Term], where: str, params: dict[str, Any]
) -> tuple[dict[str, int], int]:
    """Each term's messages of the user, counted to `count_limit` of the user's (capped)
    count, and that count: one statement, a server's round trip fewer. Each term is counted
    as far as the largest count could need and cut to its own limit here, which gives the
    counts a `LIMIT` of that limit would."""
    import sqlalchemy as sa

    queries = _tsqueries(plan, params)
    params["most"], params["cap"] = TOTAL_CAP, count_limit(TOTAL_CAP, DF_CAP)
    counts = ", ".join(
        f"(SELECT count(*) FROM (SELECT 1 FROM ctxchat_history h WHERE h.{TSV_COLUMN} @@ "
        f"{_once(q)}{where} LIMIT :cap) s{i})"
        for i, q in enumerate(queries)
    )
    found = conn.execute(sa.text(f"SELECT ({_TOTAL}), {counts}"), params).one()
    total = int(found[0])
    cap = count_limit(total, DF_CAP)
    df = {term.key: min(int(n), cap) for term, n in zip(plan, found[1:], strict=True)}
    return df, total


def _postgres(
    conn: Connection,
    plan: Sequence[Term],
    searched: Sequence[Term],
    df: dict[str, int],
    total: int,
    where: str,
    params: dict[str, Any],
    columns: str,
) -> list[Any]:
    import sqlalchemy as sa

    from ctxchat.kit import idf

    queries = _tsqueries(plan, params)
    any_word = _once(" || ".join(queries))
    by_words = ""  # the idf of the words a message holds: all the same for a single word
    if len(plan) > 1:
        for i, term in enumerate(plan):
            params[f"w{i}"] = idf(total, df[term.key])
        weighted = " + ".join(
            f"CASE WHEN h.{TSV_COLUMN} @@ {_once(q)} THEN :w{i} ELSE 0 END"
            for i, q in enumerate(queries)
        )
        by_words = f"({weighted}) DESC, "
    # Only the rare words' messages are read (`rare_enough`): the ordering by the words
    # held puts them first whatever the others hold, so the candidates are the same.
    read = _once(" || ".join(q for q, t in zip(queries, plan, strict=True) if t in searched))
    sql = (
        f"SELECT {columns.replace('h.rowid AS rid, ', '')} FROM ctxchat_history h "
        f"WHERE h.{TSV_COLUMN} @@ ({read}){where} "
        f"ORDER BY {by_words}ts_rank_cd(h.{TSV_COLUMN}, {any_word}, 1) DESC, "
        f"h.created_at DESC LIMIT :c"
    )
    return list(conn.execute(sa.text(sql), params))
