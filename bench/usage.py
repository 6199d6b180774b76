"""The usage ledger: `usage` (the grouped sums `ctxchat usage` prints) against a plain scan
of the same table, in the same run.

    python bench/usage.py [--turns 10000] [--sessions 200] [--repeat 5] [--postgres URL]

Fills `ctxchat_usage` with `--turns` rows of this user (plus as many of another user, which
`usage` must skip), spread over `--sessions` sessions, four models, three roles and 90
days, one in ten of unknown usage, through the ledger's own table. Then, interleaved, the
median time of `usage_report` by each grouping (model, session, day, role: the engine call
the command makes, priced) and of a plain scan: every row of the table read back
(`SELECT * FROM ctxchat_usage`). Prints both and their ratio (usage / scan: below 1 means
summing in the database costs less than reading the rows once). PostgreSQL runs when
`--postgres` (or CTXCHAT_TEST_POSTGRES_URL) names a server: its tables go into a schema of
their own, dropped afterwards.
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
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from history_tables import PostgresUrl

from ctxchat.config.prices import Price
from ctxchat.core.messages import new_id
from ctxchat.core.provider import ProviderEnv
from ctxchat.core.usage import GROUPINGS
from ctxchat.providers.history.sql import SqlHistoryProvider
from ctxchat.providers.history.usage_schema import USAGE
from ctxchat.services.usage import usage_report
from ctxchat.storage.sql.store import close_all, open_database

USER = "bench"
MODELS = ["gpt-4o-mini", "gpt-4o", "local-llama", "claude-haiku"]
PRICES = {"gpt-4o-mini": Price(0.15, 0.6), "gpt-4o": Price(2.5, 10.0)}
ROLES = [None, "reviewer", "writer"]


def ledger_rows(turns: int, sessions: int, home: str, seed: int = 5) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    keys = [new_id() for _ in range(sessions)]
    now = datetime.now(UTC)
    rows = []
    for user in (USER, "someone-else"):
        for _ in range(turns):
            unknown = rng.random() < 0.1
            rows.append(
                {
                    "history_key": rng.choice(keys),
                    "turn_id": new_id(),
                    "created_at": now - timedelta(minutes=rng.randint(0, 90 * 24 * 60)),
                    "model": rng.choice(MODELS),
                    "role": rng.choice(ROLES),
                    "recorded": True,
                    "input_tokens": None if unknown else rng.randint(50, 20_000),
                    "output_tokens": None if unknown else rng.randint(10, 2_000),
                    "home_id": home,
                    "user_key": user,
                }
            )
    return rows


def median_ms(work: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def plain_scan(url: str) -> int:
    import sqlalchemy as sa

    database = open_database(url, [USAGE])
    return database.read(lambda conn: len(conn.execute(sa.select(USAGE.tables)).all()))


def measure(label: str, url: str, home: Path, turns: int, sessions: int, repeat: int) -> None:
    history = SqlHistoryProvider(
        "history", SqlHistoryProvider.Options(url=url, user=USER), env=ProviderEnv(data_dir=home)
    )
    database = history.database()  # the stores made, as a chat would make them
    rows = ledger_rows(turns, sessions, history.owner.home)
    table = USAGE.tables
    for start in range(0, len(rows), 5000):
        chunk = rows[start : start + 5000]
        database.write(lambda conn, chunk=chunk: conn.execute(table.insert(), chunk))
    providers = [history]

    def report(by: Any) -> Callable[[], object]:
        return lambda: asyncio.run(usage_report(providers, PRICES, by))

    total = asyncio.run(usage_report(providers, PRICES, "model")).total
    assert total.turns == turns, (total.turns, turns)  # this user's rows only
    plain_scan(url)  # warm both
    for by in GROUPINGS:
        report(by)()
    results = {by: [] for by in GROUPINGS}
    scans = []
    for _ in range(repeat):  # interleaved, so drift in the machine's speed hits both alike
        scans.append(median_ms(lambda: plain_scan(url), 1))
        for by in GROUPINGS:
            results[by].append(median_ms(report(by), 1))
    scan = statistics.median(scans)
    print(f"{label}: {len(rows):,} ledger rows ({turns:,} this user's); plain scan {scan:.1f} ms")
    for by in GROUPINGS:
        took = statistics.median(results[by])
        print(f"  usage --by {by:<8} {took:7.1f} ms; ratio to the scan {took / scan:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=10_000)
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--postgres", default=os.environ.get("CTXCHAT_TEST_POSTGRES_URL"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        url = f"sqlite:///{tmp}/history.sqlite3"
        measure("SQLite", url, home, args.turns, args.sessions, args.repeat)
        close_all()
        if args.postgres:
            with PostgresUrl(args.postgres) as pg:
                measure("PostgreSQL", pg, home, args.turns, args.sessions, args.repeat)
        else:
            print("PostgreSQL: skipped (give --postgres URL)", file=sys.stderr)


if __name__ == "__main__":
    main()
