"""Search across sessions: the full-text index against a LIKE scan of the same table.

    python bench/session_search.py [--messages 100000] [--sessions 1000] [--queries 30]
                                   [--postgres URL]

Stores `--messages` messages (generated sentences over a 6,000-word vocabulary with a
Zipf-like spread, so words range from everywhere to rare) in `--sessions` sessions'
histories, through the history's own insert (the index is kept by the database as turns
are stored). Then, for the same queries (one or two words of middling frequency) in the
same run, the median time of `SqlHistoryProvider.search_messages(limit=10)` (ranked, with
snippets) and of a scan that finds the same messages without the index:
`WHERE body LIKE '%word%'` ORed for the words (any may match, as in search; ILIKE on
PostgreSQL, case-insensitive as the index is), every match read, as a ranking must.
Prints both medians and the ratio.
PostgreSQL runs when `--postgres` (or CTXCHAT_TEST_POSTGRES_URL) names a server: its tables
go into a schema of their own, dropped afterwards. Target: the index at least 20 times
faster than the scan, and under 50 ms.
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


def median_ms(work: Callable[[], object], repeat: int = 3) -> float:
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def like_scan(url: str, terms: list[str]) -> int:
    import sqlalchemy as sa

    database = open_database(url, [HISTORY])
    op = "LIKE" if database.is_sqlite else "ILIKE"
    where = " OR ".join(f"body {op} :w{i}" for i in range(len(terms)))  # any word may match
    params = {f"w{i}": f"%{t}%" for i, t in enumerate(terms)}
    sql = f"SELECT history_key, seq, role, created_at, body FROM ctxchat_history WHERE {where}"
    return database.read(lambda conn: len(conn.execute(sa.text(sql), params).all()))


def history_at(url: str, home: Path) -> SqlHistoryProvider:
    return SqlHistoryProvider("history", env=ProviderEnv(data_dir=home), url=url, user=USER)


def measure(
    label: str, url: str, home: Path, table_rows: list[dict[str, Any]], asked: list[list[str]]
) -> None:
    started = time.perf_counter()
    bulk_insert(url, table_rows)
    filled = time.perf_counter() - started
    history = history_at(url, home)
    for terms in asked[:3]:  # warm caches for both
        asyncio.run(history.search_messages(terms, limit=10))
        like_scan(url, terms)
    search_ms = []
    scan_ms = []
    for terms in asked:  # interleaved, so drift in the machine's speed hits both alike
        search_ms.append(
            median_ms(lambda t=terms: asyncio.run(history.search_messages(t, limit=10)))
        )
        scan_ms.append(median_ms(lambda t=terms: like_scan(url, t)))
    index, scan = statistics.median(search_ms), statistics.median(scan_ms)
    print(
        f"{label}: {len(table_rows):,} messages stored in {filled:.1f} s; median search "
        f"{index:.2f} ms, LIKE scan {scan:.1f} ms; ratio {scan / index:.1f}x "
        f"(target >= 20x and < 50 ms: {'met' if scan / index >= 20 and index < 50 else 'NOT met'})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=30)
    parser.add_argument("--postgres", default=os.environ.get("CTXCHAT_TEST_POSTGRES_URL"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        owner = history_at("sqlite://", home).owner  # the rows are this home's and user's
        table_rows, middling = rows(args.messages, args.sessions, owner)
        asked = queries(middling, args.queries)
        measure("SQLite", f"sqlite:///{tmp}/history.sqlite3", home, table_rows, asked)
        close_all()
        if args.postgres:
            with PostgresUrl(args.postgres) as url:
                measure("PostgreSQL", url, home, table_rows, asked)
        else:
            print("PostgreSQL: skipped (give --postgres URL)", file=sys.stderr)


if __name__ == "__main__":
    main()
