"""SQL run outside ctxchat, on the test databases: one engine per PostgreSQL server and
test process, instead of one per statement.

The PostgreSQL test schemas are made and dropped here (see `sqlfixtures.postgres_url`),
and the statements tests check a database with run here. An engine made for each of them
paid the dialect's first-connect queries and a new server connection, a server process
each: about 15 ms of CPU a case. A statement on a test's schema runs on the shared
engine with that schema as its `search_path`, for its transaction only.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from typing import TYPE_CHECKING
from urllib.parse import quote

if TYPE_CHECKING:
    from sqlalchemy import Connection, Engine

# A test schema's URL -> the server's URL and the schema.
_SCHEMAS: dict[str, tuple[str, str]] = {}


@functools.cache
def server_engine(base: str) -> Engine:
    import sqlalchemy as sa

    return sa.create_engine(base, pool_size=1, pool_pre_ping=True)


def schema_url(base: str, schema: str) -> str:
    """A URL whose tables land in `schema` (made by the caller), known here from now on."""
    joiner = "&" if "?" in base else "?"
    url = f"{base}{joiner}options={quote(f'-csearch_path={schema}')}"
    _SCHEMAS[url] = (base, schema)
    return url


def forget(url: str) -> None:
    _SCHEMAS.pop(url, None)


@contextlib.contextmanager
def transaction(url: str) -> Iterator[Connection]:
    """A transaction on the PostgreSQL database at `url`, committed if the block ends well."""
    known = _SCHEMAS.get(url)
    if known is None:
        import sqlalchemy as sa

        engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
        try:
            with engine.begin() as conn:
                yield conn
        finally:
            engine.dispose()
        return
    base, schema = known
    with server_engine(base).begin() as conn:
        conn.exec_driver_sql(f"SET LOCAL search_path TO {schema}")
        yield conn
