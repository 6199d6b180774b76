"""The database's side of a search (see `history.search`): each word's messages counted in
the user's rows, the user's messages counted, and the candidates found through the
full-text index, in FTS5 on SQLite and tsvector SQL on PostgreSQL.

Terms reach the database as bound values made of letters, digits and underscores only: a
term's spellings (its stem's forms, `ctxchat.ranking.inflections`), each quoted as an FTS5
string or turned into a tsquery by `plainto_tsquery`, ORed, so no input is read as query
syntax.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ctxchat.kit import DF_CAP, Term, common, count_limit

from .hits import NEIGHBOUR_COLUMNS, neighbour_join
from .index import FTS_TABLE, TS_CONFIG, TSV_COLUMN

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

TOTAL_CAP = 20_000  # the user's messages counted, for idf


Tokens = Mapping[str, Mapping[str, int]]  # a term's key -> its forms' tokens in the index


def _fts5_term(term: Term, tokens: Tokens) -> str:
    """The tokens the index holds of the term's forms (`sqlite_tokens`; all its spellings
    when it holds none: a folding the index does otherwise than `fold`), as quoted FTS5
    strings (quotes doubled), ORed: exact tokens, never a prefix query."""
    asked = list(tokens.get(term.key) or term.spellings)
    quoted = ['"' + spelling.replace('"', '""') + '"' for spelling in asked]
    return quoted[0] if len(quoted) == 1 else "(" + " OR ".join(quoted) + ")"


# The index's vocabulary, a table of each connection's own (TEMP: no migration, nothing
# stored): FTS5 lists the tokens in a range with the messages holding each.
VOCAB_TABLE = "temp.ctxchat_history_vocab"


def sqlite_tokens(conn: Connection, plan: Sequence[Term]) -> dict[str, dict[str, int]]:
    """Per term matched by its stem, the tokens of its forms the index holds, with the
    messages holding each (every user's): the few that exist of the half-dozen forms
    asked for, so that the query asks FTS5 for those alone (each token asked for is a
    seek in every segment of the index, found or not), and a term of one token is counted
    without a query of its own."""
    from ctxchat.kit import fold

    if not any(t.stem for t in plan):
        return {}
    info = conn.connection.info
    if not info.get(VOCAB_TABLE):
        conn.exec_driver_sql(
            f"CREATE VIRTUAL TABLE IF NOT EXISTS {VOCAB_TABLE} USING "
            f"fts5vocab(main, {FTS_TABLE}, row)"
        )
        info[VOCAB_TABLE] = True
    found: dict[str, dict[str, int]] = {}
    for term in plan:
        if term.stem is None:
            continue
        wanted = {fold(spelling) for spelling in term.spellings}
        start = _shared_start(wanted)
        rows = conn.exec_driver_sql(
            f"SELECT term, doc FROM {VOCAB_TABLE} WHERE term >= ? AND term < ?",
            (start, start + "\U0010ffff"),
        )
        found[term.key] = {str(t): int(n) for t, n in rows if t in wanted}
    return found


def _shared_start(words: Collection[str]) -> str:
    """The beginning all the words share (the stem, or less for "study" and "studies"):
    one range of the vocabulary holds them all."""
    first, last = min(words), max(words)  # the two furthest apart, in order
    size = 0
    while size < min(len(first), len(last)) and first[size] == last[size]:
        size += 1
    return first[:size]


def sqlite_candidates(
    conn: Connection,
    plan: Sequence[Term],
    searched: Sequence[Term],
    tokens: Tokens,
    where: str,
    params: dict[str, Any],
    columns: str,
    neighbours: bool,
) -> list[Any]:
    """The best candidates, by FTS5's bm25, each with its neighbour when `neighbours`
    (`history.hits.neighbour_join`)."""
    import sqlalchemy as sa

    params["q"] = " OR ".join(_fts5_term(t, tokens) for t in searched)
    beside = ""
    if neighbours:
        columns, beside = f"{columns}, {NEIGHBOUR_COLUMNS}", f" {neighbour_join('h')}"

    def best(name: str) -> str:
        # The best rowids by FTS5's own rank (bm25, which it orders cheaply).
        return (
            f"SELECT f.rowid AS rowid, f.rank AS r FROM {FTS_TABLE}(:{name}) AS f "
            f"JOIN ctxchat_history h ON h.rowid = f.rowid WHERE 1 = 1{where} "
            f"ORDER BY f.rank LIMIT :c"
        )

    if len(searched) == len(plan):
        sql = (
            f"SELECT {columns} FROM ({best('q')}) top JOIN ctxchat_history h "
            f"ON h.rowid = top.rowid{beside}"
        )
        return list(conn.execute(sa.text(sql), params))
    # FTS5 ranks the rare words' messages by those words alone, so the messages holding
    # every word, which the others lift most, are read first on their own.
    params["every"] = " AND ".join(_fts5_term(t, tokens) for t in plan)
    # Each query once (no MATERIALIZED, which SQLite before 3.35 does not parse): a row
    # found by both keeps its place among every word's, `r` taken from the row of the
    # least `o` (SQLite's bare column beside min()).
    sql = (
        f"WITH every AS ({best('every')}), rare AS ({best('q')}), "
        "top AS (SELECT rowid, min(o) AS o, r FROM (SELECT rowid, 0 AS o, r FROM every "
        "UNION ALL SELECT rowid, 1 AS o, r FROM rare) GROUP BY rowid ORDER BY o, r LIMIT :c) "
        f"SELECT {columns} FROM top JOIN ctxchat_history h ON h.rowid = top.rowid{beside} "
        "ORDER BY top.o, top.r"
    )
    return list(conn.execute(sa.text(sql), params))


def sqlite_counts(
    conn: Connection, plan: Sequence[Term], params: dict[str, Any], tokens: Tokens
) -> tuple[dict[str, int], int, bool]:
    """Each term's messages counted in the index, the user's messages (both capped), and
    whether the table is the user's `own` (holds the user's rows alone): one statement.

    A term is counted among every user's messages, which costs no row lookup, as far as
    the largest total could need, and cut to its own limit here (a term of one token the
    index holds is counted already: `tokens`). Unless the table is the user's own, the
    user's messages are counted through their rows, and a term that would count as common
    by every user's is counted again among the user's own (a database other users share
    must not make a word common in this user's history)."""
    import sqlalchemy as sa

    counted: dict[str, Any] = {"cap": count_limit(TOTAL_CAP, DF_CAP)}
    known: dict[str, int] = {}
    counts = []
    for i, term in enumerate(plan):
        counted[f"t{i}"] = _fts5_term(term, tokens)
        held = tokens.get(term.key, {})
        if len(held) == 1:
            (known[term.key],) = held.values()
            continue
        counts.append(
            f"(SELECT count(*) FROM (SELECT 1 FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH :t{i} "
            "LIMIT :cap))"
        )
    selected = ", ".join([_WHOSE, f"({_TOTALS})", *counts])
    found = conn.execute(sa.text(f"SELECT {selected}"), counted).one()
    least, most, unowned, totals, *each = found
    own = not unowned and least == params["u"] and most == params["u"]
    indexed = _total_rows(totals) if own else None
    total = min(indexed, TOTAL_CAP) if indexed is not None else _user_total(conn, params)
    cap = count_limit(total, DF_CAP)
    counted_here = iter(each)
    df = {t.key: min(known[t.key] if t.key in known else next(counted_here), cap) for t in plan}
    if not own:
        # CROSS JOIN keeps the index's matches as the outer loop: SQLite's planner may
        # otherwise walk every row of the user and ask the index of each (seconds at
        # 100,000 rows).
        mine = sa.text(
            f"SELECT count(*) FROM (SELECT 1 FROM {FTS_TABLE} f CROSS JOIN ctxchat_history h "
            f"ON h.rowid = f.rowid WHERE {FTS_TABLE} MATCH :t AND h.user_key = :u LIMIT :cap)"
        )
        for i, term in enumerate(plan):
            if common(term, df, total):
                asked = {"t": counted[f"t{i}"], "cap": cap, "u": params["u"]}
                df[term.key] = int(conn.execute(mine, asked).scalar() or 0)
    return df, total, own


# Whether the history table holds rows of anyone but the user: each an index seek (an OR
# of the three is a scan of the index to SQLite's planner).
_WHOSE = (
    "(SELECT min(user_key) FROM ctxchat_history), (SELECT max(user_key) FROM "
    "ctxchat_history), EXISTS (SELECT 1 FROM ctxchat_history WHERE user_key IS NULL)"
)
# FTS5's averages record (its row 1), which it keeps for bm25 in the transaction that
# changes the index: the number of rows indexed, then each column's tokens, as varints.
# Every history row is indexed (the triggers), so in a table of the user's rows alone it
# is the user's count, one page read where `count(*)` walks an index: 0.8 ms of a search
# at 100,000 messages after another query has filled SQLite's page cache.
_TOTALS = f"SELECT block FROM {FTS_TABLE}_data WHERE id = 1"


def _total_rows(block: object) -> int | None:
    """The row count at the head of FTS5's averages record (SQLite's varint: big-endian
    groups of 7 bits, the high bit set on each but the last, a ninth byte whole); None
    when there is no record or it is not one."""
    if not isinstance(block, bytes) or not block:
        return None
    value = 0
    for i, byte in enumerate(block[:9]):
        if i == 8:
            return (value << 8) | byte
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            return value
    return None


# Capped, as document frequencies are: an exact count of a large history costs a scan of
# its user's index (200 ms at 100,000 rows on PostgreSQL), and past the cap idf orders words
# the same. Whether the user has a row past the cap is asked first, the count made only
# when not: stepping over the index's entries without counting each took 0.74 ms where the
# count to the cap took 1.0-1.1 ms at 100,000 rows on PostgreSQL.
_TOTAL = (
    "SELECT CASE WHEN EXISTS (SELECT 1 FROM ctxchat_history h WHERE h.user_key = :u "
    "LIMIT 1 OFFSET :past) THEN CAST(:most AS BIGINT) ELSE (SELECT count(*) FROM "
    "ctxchat_history h WHERE h.user_key = :u) END"
)


def _user_total(conn: Connection, params: dict[str, Any]) -> int:
    """The user's messages, counted through their rows to `TOTAL_CAP`."""
    import sqlalchemy as sa

    asked = {"u": params["u"], "most": TOTAL_CAP, "past": TOTAL_CAP - 1}
    return int(conn.execute(sa.text(_TOTAL), asked).scalar() or 0)


def _tsquery(term: Term, name: str, params: dict[str, Any]) -> str:
    """The term's spellings, bound as one array, each made a tsquery by `plainto_tsquery`
    and ORed: one statement's text whatever the number of forms, which PostgreSQL plans
    once where a call per form took 0.4 ms of each statement to plan.

    PostgreSQL's parser keeps a file name, a host or an address whole ("birds.txt",
    "birds.org", "bird@x.org", where SQLite's tokenizer splits at the dot and the @), so a
    form is also matched as the beginning of one: each form followed by "." or "@", as a
    prefix (letters only, so quoting it is the whole of its syntax)."""
    params[name] = list(term.spellings)
    plain = f"plainto_tsquery('{TS_CONFIG}', s)::text"
    if term.stem is None:
        items = f"(VALUES ({plain}))"
    else:
        items = (
            f"(VALUES ({plain}), (quote_literal(s || '.') || ':*'), "
            "(quote_literal(s || '@') || ':*'))"
        )
    return (
        f"(SELECT string_agg(q, ' | ')::tsquery FROM unnest(CAST(:{name} AS text[])) AS s, "
        f"LATERAL {items} AS v(q) WHERE q <> '')"
    )


def _ranked_by(term: Term, name: str, params: dict[str, Any]) -> str:
    """What `ts_rank_cd` ranks a term's messages by: its stem as a prefix, one item where
    its forms are half a dozen, for which `ts_rank_cd` took three times as long at
    100,000 messages. The messages are those of its forms (`_tsquery`); a stem's other
    words only order them."""
    params[name] = term.key
    plain = f"plainto_tsquery('{TS_CONFIG}', :{name})"
    return f"(({plain})::text || ':*')::tsquery" if term.stem else plain


def _once(tsquery: str) -> str:
    """The tsquery made once per statement (an init plan), not once per row it is matched
    or ranked against, as a stable function's call otherwise is: a seventh of a search of a
    word in a thousand messages went to making its tsquery again for each."""
    return f"(SELECT {tsquery})"


def _tsqueries(plan: Sequence[Term], params: dict[str, Any]) -> list[str]:
    return [_tsquery(term, f"t{i}", params) for i, term in enumerate(plan)]


def postgres_counts(
    conn: Connection, plan: Sequence[Term], where: str, params: dict[str, Any]
) -> tuple[dict[str, int], int]:
    """Each term's messages of the user, counted to `count_limit` of the user's (capped)
    count, and that count: one statement, a server's round trip fewer. Each term is counted
    as far as the largest count could need and cut to its own limit here, which gives the
    counts a `LIMIT` of that limit would."""
    import sqlalchemy as sa

    queries = _tsqueries(plan, params)
    params["most"], params["cap"] = TOTAL_CAP, count_limit(TOTAL_CAP, DF_CAP)
    params["past"] = TOTAL_CAP - 1
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


def postgres_candidates(
    conn: Connection,
    plan: Sequence[Term],
    searched: Sequence[Term],
    df: dict[str, int],
    total: int,
    where: str,
    params: dict[str, Any],
    columns: str,
    neighbours: bool,
) -> list[Any]:
    """The best candidates, by the idf of the words they hold, then `ts_rank_cd`, each with
    its neighbour when `neighbours` (`history.hits.neighbour_join`)."""
    import sqlalchemy as sa

    from ctxchat.kit import idf

    queries = _tsqueries(plan, params)
    any_word = _once(" || ".join(_ranked_by(t, f"r{i}", params) for i, t in enumerate(plan)))
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
    if neighbours:
        # A nested loop over the 50 candidates keeps their order.
        sql = f"SELECT c.*, {NEIGHBOUR_COLUMNS} FROM ({sql}) c {neighbour_join('c')}"
    return list(conn.execute(sa.text(sql), params))
