"""The SQL fixtures hand each case a database of its own with every store migrated (built
from a template, see `sqltemplates`), or an empty one for a test marked `unmigrated`."""

from __future__ import annotations

import stat
from pathlib import Path

import outside
import pytest
from historykit import raw_query
from sqltemplates import PostgresTemplate, drop_schema, every_store, migrate_every_store, shape

from ctxchat.providers.history.sql import SqlHistoryProvider
from ctxchat.storage.sql.schema import has_version_table

pytest_plugins = ["sqlfixtures"]


def tables(url: str) -> list[str]:
    import sqlalchemy as sa

    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            return sorted(sa.inspect(conn).get_table_names())
    finally:
        engine.dispose()


def test_a_case_gets_every_store_at_its_newest_version_and_no_row(sql_url: str) -> None:
    steps = raw_query(sql_url, "SELECT store, max(version) FROM ctxchat_migrations GROUP BY 1")
    assert dict(steps) == {store.name: store.version for store in every_store()}
    assert "ctxchat_history" in tables(sql_url)
    for table in tables(sql_url):
        # The migrations' bookkeeping and FTS5's own shadow tables hold rows of their own.
        if table != "ctxchat_migrations" and not table.startswith("ctxchat_history_fts_"):
            assert raw_query(sql_url, f"SELECT count(*) FROM {table}") == [(0,)], table


@pytest.mark.parametrize("turn", [1, 2])
def test_what_one_case_writes_the_next_never_sees(sql_url: str, turn: int) -> None:
    provider = SqlHistoryProvider("history", SqlHistoryProvider.Options(url=sql_url))
    database = provider.database()
    assert raw_query(sql_url, "SELECT count(*) FROM ctxchat_usage") == [(0,)]
    database.write(
        lambda conn: conn.exec_driver_sql(
            "INSERT INTO ctxchat_usage (history_key, turn_id, created_at, recorded) "
            f"VALUES ('k', 't{turn}', CURRENT_TIMESTAMP, {'true' if 'postgres' in sql_url else 1})"
        )
    )
    # Numbering starts over in every case: the sequence is the case's own.
    assert raw_query(sql_url, "SELECT id FROM ctxchat_usage") == [(1,)]


@pytest.mark.unmigrated
def test_an_unmigrated_case_gets_an_empty_database(sql_url: str) -> None:
    if sql_url.startswith("sqlite"):
        assert not Path(sql_url.split(":///", 1)[1]).parent.exists()  # ctxchat makes it
    else:
        assert tables(sql_url) == []


def test_a_sqlite_copy_is_private_where_ctxchat_would_make_it(sqlite_url: str) -> None:
    path = Path(sqlite_url.split(":///", 1)[1])
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert [p.name for p in path.parent.iterdir()] == [path.name]


def test_a_replay_that_leaves_a_step_out_is_told_from_migrating(
    postgres_template: PostgresTemplate,
) -> None:
    base = postgres_template.base
    whole = postgres_template.create()
    migrated = f"t_migrated_{whole[2:]}"
    with outside.server_engine(base).begin() as conn:
        conn.exec_driver_sql(f"CREATE SCHEMA {migrated}")
    url = outside.schema_url(base, migrated)
    steps = [s for s in postgres_template.statements if "ctxchat_history_turn" not in s[0]]
    partial = PostgresTemplate(base, steps).create()
    try:
        migrate_every_store(url).close()
        with outside.transaction(url) as conn:
            assert has_version_table(conn)
        assert shape(base, whole) == shape(base, migrated)
        assert shape(base, partial) != shape(base, migrated)
    finally:
        outside.forget(url)
        for schema in (whole, migrated, partial):
            drop_schema(base, schema)
