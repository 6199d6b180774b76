"""What the history benchmarks share: rows written straight into a history table, and a
throwaway PostgreSQL schema to write them in. A helper of `bench/`, not a benchmark."""

from __future__ import annotations

import uuid
from typing import Any
from urllib.parse import quote

from ctxchat.providers.history.schema import HISTORY
from ctxchat.storage.sql.store import close_all, open_database


def bulk_insert(url: str, rows: list[dict[str, Any]], *, settled: bool = True) -> None:
    database = open_database(url, [HISTORY])
    table = HISTORY.tables
    for start in range(0, len(rows), 5000):
        chunk = rows[start : start + 5000]
        database.write(lambda conn, chunk=chunk: conn.execute(table.insert(), chunk))
    if settled:
        settle(url)


def settle(url: str) -> None:
    """The statistics and visibility a used database has: a table filled a moment ago has
    neither until autovacuum (PostgreSQL) or `ANALYZE` (SQLite) comes by, and a query's plan
    and its index-only reads depend on them."""
    import sqlalchemy as sa

    engine = sa.create_engine(url, poolclass=sa.pool.NullPool, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            sqlite = engine.dialect.name == "sqlite"
            conn.execute(sa.text("ANALYZE" if sqlite else "VACUUM ANALYZE ctxchat_history"))
    finally:
        engine.dispose()


class PostgresUrl:
    """A URL whose tables go into a schema of their own, dropped (with every connection
    ctxchat opened) when the block ends."""

    def __init__(self, base: str) -> None:
        self.base = base

    def __enter__(self) -> str:
        import sqlalchemy as sa

        self.schema = f"bench_{uuid.uuid4().hex[:12]}"
        self.admin = sa.create_engine(self.base, poolclass=sa.pool.NullPool)
        with self.admin.begin() as conn:
            conn.execute(sa.text(f"CREATE SCHEMA {self.schema}"))
        joiner = "&" if "?" in self.base else "?"
        return f"{self.base}{joiner}options={quote(f'-csearch_path={self.schema}')}"

    def __exit__(self, *exc: object) -> None:
        import sqlalchemy as sa

        close_all()
        with self.admin.begin() as conn:
            conn.execute(sa.text(f"DROP SCHEMA {self.schema} CASCADE"))
        self.admin.dispose()
