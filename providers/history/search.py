"""Searching `ctxchat_history` through its full-text index (built by `history.index`).

A query is planned first (`plan_query`): each word's messages counted in the user's rows,
and the words too common there to tell messages apart left out (see
`ctxchat.ranking.message_rank`, which the kit exports), so that the query's vector, when
there is one, is made of the words searched (a query of one word counts nothing: its idf
changes no order). The database then finds candidates, any remaining word matching by
one of its stem's forms (`ctxchat.ranking.inflections`; on SQLite those its vocabulary
holds), through its own index: FTS5 ranked by its bm25 on SQLite; on PostgreSQL the
GIN-indexed tsvector, ranked by the idf of the words a message holds, then `ts_rank_cd`,
each candidate read with the turn beside it (a search by words). When the
query's rarest words hold the best candidates (`rare_enough`), only their messages are
read, which spares the database its ranking of every message of the commoner words.
`ctxchat.ranking.message_rank` then ranks the candidates the same way on both backends
(BM25, all words and phrases higher), a message is lifted by a matched neighbour, and the
snippets are made (`history.hits`). Only the user's rows are read, filtered in the query.

The SQL of both backends is in `history.candidates`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ctxchat.kit import (
    Candidate,
    MessageHit,
    Ranked,
    Term,
    distinctive,
    lifted_by_neighbours,
    query_plan,
    rank,
    rare_enough,
)

from .candidates import (
    Tokens,
    postgres_candidates,
    postgres_counts,
    sqlite_candidates,
    sqlite_counts,
    sqlite_tokens,
)
from .hits import completed, hit_of

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from ctxchat.kit import Database, Owner

    from .hybrid import QueryVector

MIN_CANDIDATES = 50  # ranked by the database, re-ranked here: enough that a good one is in


@dataclass(frozen=True)
class PlannedQuery:
    """A query's terms as searched (its common words left out), each word's count of the
    user's messages, and how many messages the user has (both capped)."""

    plan: list[Term]
    words: list[str]  # the query's words without its common ones: what its vector is made of
    df: dict[str, int]
    total: int
    # Whether `df` counts exactly the messages searched: PostgreSQL counts the user's (in
    # the sessions searched); SQLite every user's, in every session, which are the same
    # only in a table of the user's rows alone and a search of all their sessions.
    exact: bool = True
    # On SQLite, the tokens the index holds of each term's forms (`sqlite_tokens`).
    tokens: Tokens = dataclasses.field(default_factory=dict)


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
    tokens = sqlite_tokens(conn, plan) if database.is_sqlite else {}
    if len(plan) == 1:
        # One term is searched whatever its count (it is never left out: `distinctive`),
        # and its idf scales every candidate's score alike, which ranking normalises away
        # and relevance (a share of the query's weight) never sees. Counting it, and the
        # user's messages, was a third of a one-word search at 100,000 messages.
        return PlannedQuery(plan, list(terms), {}, 0, tokens=tokens)
    params: dict[str, Any] = {"u": owner.user}
    where = _key_filter(keys, params)
    exact = True
    if database.is_sqlite:
        df, total, own = sqlite_counts(conn, plan, params, tokens)
        exact = own and keys is None
    else:
        df, total = postgres_counts(conn, plan, where, params)
    kept = distinctive(plan, df, total)
    dropped = {t.key for t in plan} - {t.key for t in kept}
    words = [w for w in terms if not any(t.key in dropped for t in query_plan([w]))]
    return PlannedQuery(kept, words, df, total, exact, tokens)


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

    return database.read(read, snapshot=False)


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
    # By words alone, each candidate is read with its document (for its id) and its
    # neighbour. Ranked by meaning too, rows found by their vectors are read apart, and a
    # message's document is read for its id only when `exclude` may ask for it; else the
    # ids of the hits kept are read with their neighbours.
    joined = meaning is None
    shown = _COLUMNS if exclude is None and not joined else f"{_COLUMNS}, {MESSAGE_COLUMN}"
    columns = shown if joined else f"{shown}, {VECTOR_COLUMNS}"
    # Only the rarest words' messages are read when they hold the best candidates (see
    # `rare_enough`); every word of the plan still ranks them. A word's count must then be
    # of the very messages searched, or it may promise messages the search cannot find.
    searched = rare_enough(plan, df, total, wanted) if planned.exact else plan
    if database.is_sqlite:
        tokens = planned.tokens
        rows = sqlite_candidates(conn, plan, searched, tokens, where, params, columns, joined)
    else:
        rows = postgres_candidates(conn, plan, searched, df, total, where, params, columns, joined)
    by_id = dict(enumerate(rows))
    candidates = [Candidate(i, str(row.body)) for i, row in by_id.items()]
    ranked_rows = [(by_id[r.ident], r) for r in rank(plan, candidates, df, total)]
    if meaning is not None:
        from .hybrid import hybrid_order

        ranked_rows = hybrid_order(conn, database, owner, keys, meaning, ranked_rows, wanted, shown)
    ranked_rows = _lifted(ranked_rows)
    hits: list[MessageHit] = []
    for row, ranked in ranked_rows:
        hit = hit_of(row, ranked, plan, owner.home, with_id=exclude is not None, joined=joined)
        if exclude is not None and exclude(hit):
            continue
        hits.append(hit)
        if len(hits) == limit:
            break
    return hits if joined else completed(conn, hits, ids=exclude is None)


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


_COLUMNS = "h.rowid AS rid, h.history_key, h.seq, h.role, h.created_at, h.home_id, h.body"
MESSAGE_COLUMN = "h.message"
VECTOR_COLUMNS = "h.embedding, h.embedding_model"  # read too when ranking by meaning
