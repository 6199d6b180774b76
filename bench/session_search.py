"""Search across sessions: the full-text index against a LIKE scan of the same table.

    python bench/session_search.py [--messages 100000] [--sessions 1000] [--queries 30]
                                   [--repeats 5] [--postgres URL] [--hybrid]

Stores `--messages` messages (generated sentences over a 6,000-word vocabulary with a
Zipf-like spread, so words range from everywhere to rare) in `--sessions` sessions'
histories, through the history's own insert (the index is kept by the database as turns
are stored). Then, for the same queries (one or two words of middling frequency) in the
same run, the median time of `SqlHistoryProvider.search_messages(limit=10)` (ranked, with
snippets and neighbours, called as `sessions search` calls it, one `asyncio.run`) and of a
scan that finds the same messages without the index, what search did before the index:
`WHERE body LIKE '%word%'` ORed for the words (any may match, as in search; ILIKE on
PostgreSQL, case-insensitive as the index is) over the user's messages, every match read,
as a ranking must.
Per query the two are timed `--repeats` times each, in turns (which goes first
alternating), so that the load of a shared machine meets both alike; the median per query,
then the median over the queries. Prints both medians and the ratio.
PostgreSQL runs when `--postgres` (or CTXCHAT_TEST_POSTGRES_URL) names a server: its tables
go into a schema of their own, dropped afterwards. Target: the index at least 20 times
faster than the scan, and under 50 ms.

With `--hybrid`, every row also gets a 384-dimension vector (random, as all-MiniLM-L6-v2's
are in size) and the same queries are run through hybrid search (words and meaning, the
user's vectors cached in the process after the first query, the query embedded by an
in-process stand-in so that no endpoint's time is counted): printed as a ratio to the
lexical search of the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from history_tables import PostgresUrl, bulk_insert

from ctxchat.core.messages import Message, new_id
from ctxchat.core.provider import ProviderEnv
from ctxchat.providers.history.schema import HISTORY
from ctxchat.providers.history.sql import SqlHistoryProvider, message_row
from ctxchat.storage.owner import Owner
from ctxchat.storage.sql.store import close_all, open_database

USER = "bench"
VOCABULARY = 6000
SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "ta", "vi", "so", "de", "pa", "chi", "ber", "gon"]


def vocabulary(rng: random.Random) -> list[str]:
    words: set[str] = set()
    while len(words) < VOCABULARY:
        words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))))
    return sorted(words)


def rows(
    messages: int, sessions: int, owner: Owner, seed: int = 7
) -> tuple[list[dict[str, Any]], list[str]]:
    rng = random.Random(seed)
    words = vocabulary(rng)
    weights = [1 / (rank + 1) for rank in range(len(words))]  # Zipf: a few words everywhere
    out: list[dict[str, Any]] = []
    keys = [new_id() for _ in range(sessions)]
    per = messages // sessions
    now = datetime.now(UTC)
    for key in keys:
        turn = new_id()
        for seq, i in enumerate(range(per), start=1):
            text = " ".join(rng.choices(words, weights, k=rng.randint(15, 60)))
            message = Message.user(text) if i % 2 == 0 else Message.assistant(text)
            if i % 2 == 0:
                turn = new_id()
            out.append({**message_row(key, turn, now, message, owner), "seq": seq})
    # Queries: words of middling frequency (ranks 50 to 1000), one or two at a time.
    middling = words[50:1000]
    return out, middling


def queries(middling: list[str], count: int, seed: int = 11) -> list[list[str]]:
    rng = random.Random(seed)
    return [rng.sample(middling, 1 if i % 2 == 0 else 2) for i in range(count)]


def interleaved_ms(
    first: Callable[[], object], second: Callable[[], object], repeats: int
) -> tuple[float, float]:
    """The median time of each of two pieces of work, run in turns (which goes first
    alternating), so that a change in the machine's load meets both alike."""
    samples: tuple[list[float], list[float]] = ([], [])
    for i in range(repeats):
        order = (0, 1) if i % 2 == 0 else (1, 0)
        for which in order:
            work = first if which == 0 else second
            started = time.perf_counter()
            work()
            samples[which].append((time.perf_counter() - started) * 1000)
    return statistics.median(samples[0]), statistics.median(samples[1])


def like_scan(url: str, terms: list[str]) -> int:
    import sqlalchemy as sa

    database = open_database(url, [HISTORY])
    op = "LIKE" if database.is_sqlite else "ILIKE"
    where = " OR ".join(f"body {op} :w{i}" for i in range(len(terms)))  # any word may match
    params = {f"w{i}": f"%{t}%" for i, t in enumerate(terms)} | {"u": USER}
    sql = (
        "SELECT history_key, seq, role, created_at, body FROM ctxchat_history "
        f"WHERE ({where}) AND user_key = :u"  # the user's messages, as search reads
    )
    return database.read(lambda conn: len(conn.execute(sa.text(sql), params).all()))


DIMENSIONS = 384
MODEL = "bench-embed"


class RandomEmbeddings:
    """Unit vectors drawn from each text's hash: an endpoint's answer without its time."""

    identity = MODEL

    async def embed(self, texts: list[str]) -> list[list[float]]:
        import numpy as np

        out = []
        for text in texts:
            rng = np.random.default_rng(abs(hash(text)) % 2**32)
            vector = rng.standard_normal(DIMENSIONS).astype(np.float32)
            out.append((vector / np.linalg.norm(vector)).tolist())
        return out

    async def available(self) -> bool:
        return True


def with_vectors(table_rows: list[dict[str, Any]], sqlite: bool) -> list[dict[str, Any]]:
    import numpy as np

    rng = np.random.default_rng(5)
    out = []
    for row in table_rows:
        vector = rng.standard_normal(DIMENSIONS).astype("<f4")
        stored: Any = vector.tobytes() if sqlite else vector.tolist()
        out.append({**row, "embedding": stored, "embedding_model": MODEL})
    return out


def history_at(url: str, home: Path, *, hybrid: bool = False) -> SqlHistoryProvider:
    env = ProviderEnv(data_dir=home, message_embeddings=RandomEmbeddings() if hybrid else None)
    return SqlHistoryProvider("history", SqlHistoryProvider.Options(url=url, user=USER), env=env)


def measure(
    label: str,
    url: str,
    home: Path,
    table_rows: list[dict[str, Any]],
    asked: list[list[str]],
    *,
    repeats: int,
    hybrid: bool = False,
) -> None:
    started = time.perf_counter()
    bulk_insert(url, with_vectors(table_rows, url.startswith("sqlite")) if hybrid else table_rows)
    filled = time.perf_counter() - started
    history = history_at(url, home)
    for terms in asked[:3]:  # warm caches for both
        asyncio.run(history.search_messages(terms, limit=10))
        like_scan(url, terms)
    search_ms = []
    scan_ms = []
    for terms in asked:
        searched, scanned = interleaved_ms(
            lambda t=terms: asyncio.run(history.search_messages(t, limit=10)),
            lambda t=terms: like_scan(url, t),
            repeats,
        )
        search_ms.append(searched)
        scan_ms.append(scanned)
    index, scan = statistics.median(search_ms), statistics.median(scan_ms)
    print(
        f"{label}: {len(table_rows):,} messages stored in {filled:.1f} s; median search "
        f"{index:.2f} ms, LIKE scan {scan:.1f} ms; ratio {scan / index:.1f}x "
        f"(target >= 20x and < 50 ms: {'met' if scan / index >= 20 and index < 50 else 'NOT met'})"
    )
    if hybrid:
        both = history_at(url, home, hybrid=True)
        asyncio.run(both.search_messages(asked[0], limit=10))  # reads the vectors once
        hybrid_ms = []
        words_ms = []
        for terms in asked:
            mixed_one, words_one = interleaved_ms(
                lambda t=terms: asyncio.run(both.search_messages(t, limit=10)),
                lambda t=terms: asyncio.run(history.search_messages(t, limit=10)),
                repeats,
            )
            hybrid_ms.append(mixed_one)
            words_ms.append(words_one)
        mixed, words = statistics.median(hybrid_ms), statistics.median(words_ms)
        print(
            f"{label}: hybrid search, vectors cached: median {mixed:.2f} ms against "
            f"{words:.2f} ms by words alone ({mixed / words:.1f}x)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=5, help="timings of each, per query")
    parser.add_argument("--postgres", default=os.environ.get("CTXCHAT_TEST_POSTGRES_URL"))
    parser.add_argument("--hybrid", action="store_true", help="measure hybrid search too")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        owner = history_at("sqlite://", home).owner  # the rows are this home's and user's
        table_rows, middling = rows(args.messages, args.sessions, owner)
        asked = queries(middling, args.queries)
        sqlite = f"sqlite:///{tmp}/history.sqlite3"
        measure("SQLite", sqlite, home, table_rows, asked, repeats=args.repeats, hybrid=args.hybrid)
        close_all()
        if args.postgres:
            with PostgresUrl(args.postgres) as url:
                measure(
                    "PostgreSQL",
                    url,
                    home,
                    table_rows,
                    asked,
                    repeats=args.repeats,
                    hybrid=args.hybrid,
                )
        else:
            print("PostgreSQL: skipped (give --postgres URL)", file=sys.stderr)


if __name__ == "__main__":
    main()
