"""How much the history database grows when one file is attached on many turns: the
attachments stored once per owner (`history.attachments`) against the old layout, every
attachment inline in each message, in the same run.

    python bench/attachment_storage.py [--turns 10] [--kib 100] [--postgres URL]

Each layout starts from a fresh database with its tables made, then stores `--turns` turns,
each a question with the same `--kib` kB text file attached (read by the real attachment
reader) and a short reply. The old layout's rows are `message_row` as the history wrote
them before (the document inline, its text in the searchable body and so in the full-text
index), inserted straight into the table; the new one goes through
`SqlHistoryProvider.save_messages`. Growth is the database's size after minus before: for
SQLite the pages in use after a WAL checkpoint; for PostgreSQL the total size of every
table of the schema (indexes and TOAST included; PostgreSQL compresses large values, so
its old layout grows less than SQLite's). Prints each growth and the ratio new / old.
PostgreSQL runs when `--postgres` (or CTXCHAT_TEST_POSTGRES_URL) names a server, in a
schema of its own, dropped afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from history_tables import PostgresUrl, bulk_insert

from ctxchat.core.messages import Message, new_id
from ctxchat.core.provider import ProviderEnv
from ctxchat.providers.history.sql import SqlHistoryProvider, message_row
from ctxchat.services.attachments import read_attachment
from ctxchat.storage.owner import Owner
from ctxchat.storage.sql.store import close_all


def module_text(size: int) -> str:
    """Source-like text of `size` bytes whose words mostly differ, as a real module's do
    (a file of one repeated line would flatter the old layout's full-text index)."""
    lines = []
    used = 0
    n = 0
    while used < size:
        line = f"def handler_{n}(event_{n % 97}): return compute_{n * 7919 % 10007}(event_{n})\n"
        lines.append(line)
        used += len(line)
        n += 1
    return "".join(lines)[:size]


def turns(file: Path, count: int) -> list[list[Message]]:
    (part,) = read_attachment(file.name, cwd=file.parent)
    made = []
    for n in range(count):
        user = Message.user(f"question {n} about the file", origin="typed")
        user = dataclasses.replace(user, parts=(*user.parts, part)).attributed("input")
        made.append([user, Message.assistant(f"answer {n}").attributed("response")])
    return made


def size(url: str) -> int:
    import sqlalchemy as sa

    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    with engine.connect() as conn:
        if url.startswith("sqlite"):
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
            pages = conn.exec_driver_sql("PRAGMA page_count").scalar()
            free = conn.exec_driver_sql("PRAGMA freelist_count").scalar()
            page = conn.exec_driver_sql("PRAGMA page_size").scalar()
            found = (int(pages or 0) - int(free or 0)) * int(page or 0)
        else:
            found = int(
                conn.exec_driver_sql(
                    "SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
                    "JOIN pg_namespace n ON n.oid = c.relnamespace "
                    "WHERE n.nspname = current_schema() AND c.relkind = 'r'"
                ).scalar()
                or 0
            )
    engine.dispose()
    return found


def grow_old(url: str, home: Path, conversation: list[list[Message]]) -> int:
    provider = SqlHistoryProvider(
        "history", SqlHistoryProvider.Options(url=url), env=ProviderEnv(data_dir=home)
    )
    provider.database()  # every table made: only the rows are measured
    before = size(url)
    owner = Owner("bench", "bench")
    now = datetime.now(UTC)
    rows = []
    for turn in conversation:
        turn_id = new_id()
        rows.extend(message_row("old", turn_id, now, m, owner) for m in turn)
    old = [{**r, "history_key": "old", "seq": i + 1} for i, r in enumerate(rows)]
    bulk_insert(url, old, settled=False)  # sizes as written, as the new layout's are
    close_all()
    return size(url) - before


def grow_new(url: str, home: Path, conversation: list[list[Message]]) -> int:
    provider = SqlHistoryProvider(
        "history", SqlHistoryProvider.Options(url=url), env=ProviderEnv(data_dir=home)
    )
    provider.database()
    before = size(url)
    for turn in conversation:
        asyncio.run(provider.save_messages("new", turn, state={}))
    close_all()
    return size(url) - before


def report(backend: str, old: int, new: int) -> None:
    print(
        f"{backend:<10} old layout {old / 1e6:6.2f} MB   stored once {new / 1e6:6.2f} MB   "
        f"ratio {new / old:.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--kib", type=int, default=100)
    parser.add_argument("--postgres", default=os.environ.get("CTXCHAT_TEST_POSTGRES_URL"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        file = root / "notes.py"
        file.write_text(module_text(args.kib * 1000), encoding="utf-8")
        conversation = turns(file, args.turns)
        print(f"{args.turns} turns, each with the same {file.stat().st_size:,}-byte file attached")
        old = grow_old(f"sqlite:///{root / 'old.sqlite3'}", root / "home-old", conversation)
        new = grow_new(f"sqlite:///{root / 'new.sqlite3'}", root / "home-new", conversation)
        report("sqlite", old, new)
        if args.postgres:
            with PostgresUrl(args.postgres) as url:
                old = grow_old(url, root / "home-old", conversation)
            with PostgresUrl(args.postgres) as url:
                new = grow_new(url, root / "home-new", conversation)
            report("postgresql", old, new)


if __name__ == "__main__":
    main()
