"""Fixtures for the history tests, loaded with `pytest_plugins = ["sqlfixtures"]`.

SQL backends: a SQLite file per test, and a fresh PostgreSQL schema per test when
CTXCHAT_TEST_POSTGRES_URL names a server. Without the URL the PostgreSQL cases are skipped,
unless CTXCHAT_REQUIRE_POSTGRES=1 (CI), where a missing URL fails them: CI must never pass
by skipping the server it promises.

Each database comes with every store migrated already, built from a template migrated once
per test process (see `sqltemplates`). A test marked `unmigrated` (a test of migrations)
gets an empty one instead, that no migration has reached.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import outside
import pytest
from historykit import HistoryFactory
from sqltemplates import PostgresTemplate, SqliteTemplate, drop_schema

from ctxchat.core.provider import ProviderEnv
from ctxchat.providers.history.in_memory import InMemoryHistoryProvider
from ctxchat.providers.history.sql import SqlHistoryProvider
from ctxchat.storage.sql.store import close_all

POSTGRES_ENV = "CTXCHAT_TEST_POSTGRES_URL"
REQUIRE_ENV = "CTXCHAT_REQUIRE_POSTGRES"
BACKENDS = ["sqlite", "postgresql"]


def postgres_base_url() -> str:
    """The server's URL, or skip (locally) / fail (CI) when there is none."""
    url = os.environ.get(POSTGRES_ENV, "").strip()
    if url:
        return url
    if os.environ.get(REQUIRE_ENV) == "1":
        pytest.fail(f"{REQUIRE_ENV}=1 but {POSTGRES_ENV} is not set: PostgreSQL is required here")
    pytest.skip(f"set {POSTGRES_ENV} to run the PostgreSQL cases")


def migrated(request: pytest.FixtureRequest) -> bool:
    return request.node.get_closest_marker("unmigrated") is None


@pytest.fixture(scope="session")
def postgres_template() -> PostgresTemplate:
    return PostgresTemplate.recorded(postgres_base_url())


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> SqliteTemplate:
    return SqliteTemplate(tmp_path_factory.mktemp("sqlite-template"))


@pytest.fixture
def postgres_url(request: pytest.FixtureRequest) -> Iterator[str]:
    """A URL whose tables land in a schema of their own, dropped afterwards."""
    base = postgres_base_url()
    if migrated(request):
        schema = request.getfixturevalue("postgres_template").create()
    else:
        schema = f"t_{uuid.uuid4().hex[:16]}"
        with outside.server_engine(base).begin() as conn:
            conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
    url = outside.schema_url(base, schema)
    try:
        yield url
    finally:
        close_all()
        outside.forget(url)
        drop_schema(base, schema)


@pytest.fixture
def sqlite_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    path = tmp_path / "db" / "history.sqlite3"
    if migrated(request):
        request.getfixturevalue("sqlite_template").copy_to(path)
    yield f"sqlite:///{path}"
    close_all()


@pytest.fixture(params=BACKENDS)
def sql_url(request: pytest.FixtureRequest) -> str:
    """The same test on a SQLite file and on PostgreSQL."""
    name = "sqlite_url" if request.param == "sqlite" else "postgres_url"
    return str(request.getfixturevalue(name))


# -- history providers of each kind ----------------------------------------------------------
HISTORY_KINDS = ["in_memory", "sqlite", "postgresql"]


@pytest.fixture(params=HISTORY_KINDS)
def make_history(request: pytest.FixtureRequest, tmp_path: Path) -> HistoryFactory:
    """Builds the history provider under test with the given options (source id 'history')."""
    env = ProviderEnv(data_dir=tmp_path / "data")
    if request.param == "in_memory":
        return lambda **options: InMemoryHistoryProvider(
            "history", InMemoryHistoryProvider.Options(**options), env=env
        )
    url = str(
        request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "postgres_url")
    )
    return lambda **options: SqlHistoryProvider(
        "history", SqlHistoryProvider.Options(url=url, **options), env=env
    )
