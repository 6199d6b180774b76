"""The SQL store's schema and failures: migrations from an old database, a newer one refused,
every way of not reaching a database reported as one line without the password, and
SQLAlchemy kept out of startup."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from fakeopenai import FakeOpenAI
from historykit import (
    exchange,
    make_agent,
    raw_execute,
    raw_query,
    scratch_home,
    tool_exchange,
    turn,
)

from ctxchat.config.loading import config_from_dict
from ctxchat.core.agent import TurnFailed
from ctxchat.core.audit import AuditRecord
from ctxchat.core.errors import ConfigError, StorageError
from ctxchat.core.messages import Message
from ctxchat.core.options import option
from ctxchat.core.provider import ContextProvider, ProviderEnv
from ctxchat.core.redact import mask_password
from ctxchat.core.session import Session
from ctxchat.core.settings import ModelSettings
from ctxchat.core.tokens import count_message_tokens
from ctxchat.core.window import window_messages
from ctxchat.providers.audit.provider import AuditProvider
from ctxchat.providers.audit.schema import AUDIT
from ctxchat.providers.history.attachments_schema import ATTACHMENTS
from ctxchat.providers.history.schema import HISTORY
from ctxchat.providers.history.sql import SqlHistoryProvider
from ctxchat.providers.history.usage_schema import USAGE
from ctxchat.services.build import build_agent
from ctxchat.services.model_client import OpenAIChatModel
from ctxchat.storage.sql.schema import (
    LEGACY_LATEST,
    LEGACY_TABLE,
    SUPERSEDED,
    Store,
    create_version_table,
)
from ctxchat.storage.sql.store import SqlBacked, close_all, open_database

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

pytest_plugins = ["sqlfixtures"]
# Tests of the migrations: each database starts empty, as no migration left it.
pytestmark = pytest.mark.unmigrated
ENV = ProviderEnv(data_dir=scratch_home())

# Version 1 of the schema, written by hand as the first release created it.
V1_SCHEMA = [
    "CREATE TABLE ctxchat_schema_version (version INTEGER NOT NULL PRIMARY KEY, "
    "applied_at TIMESTAMP WITH TIME ZONE NOT NULL)",
    "INSERT INTO ctxchat_schema_version VALUES (1, '2024-05-01 10:00:00')",
    "CREATE TABLE ctxchat_history (history_key TEXT NOT NULL, seq BIGINT NOT NULL, "
    "turn_id TEXT NOT NULL, role TEXT NOT NULL, kind TEXT, source_id TEXT, "
    "created_at TIMESTAMP WITH TIME ZONE NOT NULL, message TEXT NOT NULL, "
    "PRIMARY KEY (history_key, seq))",
]
V1_TURNS = [exchange("old question " * 20), tool_exchange("old lookup", "OLD", calls=2)]


def write_v1(url: str, extra: Sequence[str] = ()) -> list[Message]:
    rows = []
    messages = []
    seq = 0
    for index, messages_of_turn in enumerate(V1_TURNS):
        for m in messages_of_turn:
            seq += 1
            messages.append(m)
            rows.append(
                (
                    "INSERT INTO ctxchat_history VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        "legacy",
                        seq,
                        f"turn{index}",
                        m.role,
                        m.kind,
                        m.source_id,
                        "2024-05-01 10:00:00",
                        json.dumps(m.to_dict()),
                    ),
                )
            )
    raw_execute(url, [*V1_SCHEMA, *extra], rows)
    return messages


def versions(url: str) -> list[tuple[str, int]]:
    rows = raw_query(url, "SELECT store, version FROM ctxchat_migrations ORDER BY store, version")
    return [(str(store), int(version)) for store, version in rows]


def legacy_versions(url: str) -> list[int]:
    return [v for (v,) in raw_query(url, f"SELECT version FROM {LEGACY_TABLE} ORDER BY version")]


def test_a_version_1_database_is_upgraded_on_open(sql_url: str) -> None:
    old = write_v1(sql_url)
    history = SqlHistoryProvider(
        "history", SqlHistoryProvider.Options(url=sql_url, max_messages=0, max_tokens=60), env=ENV
    )
    state = {"history_key": "legacy"}

    got = asyncio.run(history.get_messages("s", state=state))

    # 0.1's version 1 is the history store's step 1 (its time kept); steps 2 to 4 are
    # applied now.
    assert versions(sql_url) == [
        ("attachments", 1),
        ("history", 1),
        ("history", 2),
        ("history", 3),
        ("history", 4),
        ("history", 5),
        ("usage", 1),
    ]
    applied = raw_query(
        sql_url, "SELECT applied_at FROM ctxchat_migrations WHERE store = 'history' AND version = 1"
    )
    assert str(applied[0][0]).startswith("2024-05-01 10:00:00")
    # The old table stays, with a version 0.1 refuses (it knows up to 3).
    assert legacy_versions(sql_url) == [1, SUPERSEDED]
    counts = raw_query(sql_url, "SELECT seq, token_count FROM ctxchat_history ORDER BY seq")
    assert [n for _, n in counts] == [count_message_tokens(m) for m in old]
    # The token-limited window now reads the backfilled counts.
    expected = window_messages(old, tokens_of=count_message_tokens, max_tokens=60)
    assert [m.id for m in got] == [m.id for m in expected]
    assert got
    # Old rows and new turns live on together, numbered on.
    asyncio.run(history.save_messages("s", exchange("new"), state=state))
    everything = asyncio.run(history.all_messages("s", state=state))
    assert [m.id for m in everything[: len(old)]] == [m.id for m in old]
    assert [m.text for m in everything[len(old) :]] == ["new", "re: new"]
    assert raw_query(sql_url, "SELECT MAX(seq) FROM ctxchat_history") == [(len(old) + 2,)]
    # Undo finds a turn by its id, through the index step 2 added.
    removed = asyncio.run(history.remove_last_turn("s", state=state))
    assert [m.text for m in removed] == ["new", "re: new"]
    # The audit store, which 0.1's version 1 did not have, comes with the audit provider.
    audit = AuditProvider("audit", AuditProvider.Options(url=sql_url), env=ENV)
    asked = exchange("audited")[:1]
    audit._append("s", AuditRecord("t", datetime.now(UTC), True, None, tuple(asked)))
    assert len(asyncio.run(audit.audit_records("s", state={}))) == 1
    assert versions(sql_url) == [
        ("attachments", 1),
        ("audit", 1),
        ("audit", 2),
        ("history", 1),
        ("history", 2),
        ("history", 3),
        ("history", 4),
        ("history", 5),
        ("usage", 1),
    ]


def test_an_upgrade_that_fails_leaves_the_old_version_whole(sql_url: str) -> None:
    # Something else already took the name of the index step 2 creates, after its ALTER TABLE.
    old = write_v1(sql_url, extra=["CREATE TABLE ctxchat_history_turn (x INTEGER)"])
    history = SqlHistoryProvider("history", SqlHistoryProvider.Options(url=sql_url), env=ENV)

    with pytest.raises(StorageError, match=r"^database .*ctxchat_history_turn"):
        asyncio.run(history.get_messages("s", state={"history_key": "legacy"}))

    assert versions(sql_url) == [("history", 1)]
    # Step 2's column was added, then rolled back with the failed index.
    with pytest.raises(Exception, match="token_count"):
        raw_query(sql_url, "SELECT token_count FROM ctxchat_history")
    # Fixed, the next open applies it.
    raw_execute(sql_url, ["DROP TABLE ctxchat_history_turn"])
    again = asyncio.run(history.all_messages("s", state={"history_key": "legacy"}))
    assert [m.id for m in again] == [m.id for m in old]
    assert versions(sql_url) == [
        ("attachments", 1),
        ("history", 1),
        ("history", 2),
        ("history", 3),
        ("history", 4),
        ("history", 5),
        ("usage", 1),
    ]


def test_a_store_that_cannot_migrate_leaves_the_others_working(sql_url: str) -> None:
    # Something else already took the audit table's name: the audit store cannot be built.
    raw_execute(sql_url, ["CREATE TABLE ctxchat_audit (x INTEGER)"])
    audit = AuditProvider("audit", AuditProvider.Options(url=sql_url), env=ENV)
    with pytest.raises(StorageError, match=r"^database .*ctxchat_audit"):
        audit.database()

    history = SqlHistoryProvider("history", SqlHistoryProvider.Options(url=sql_url), env=ENV)
    asyncio.run(history.save_messages("s", exchange("kept"), state={}))
    assert len(asyncio.run(history.all_messages("s", state={}))) == 2
    assert versions(sql_url) == [
        *[("attachments", v) for v in range(1, ATTACHMENTS.version + 1)],
        *[("history", v) for v in range(1, HISTORY.version + 1)],
        *[("usage", v) for v in range(1, USAGE.version + 1)],
    ]
    with pytest.raises(StorageError, match=r"ctxchat_audit"):
        audit.database()  # asked again, tried again


def test_a_store_from_a_newer_ctxchat_is_refused_and_the_others_still_open(
    sql_url: str,
) -> None:
    history = SqlHistoryProvider("history", SqlHistoryProvider.Options(url=sql_url), env=ENV)
    asyncio.run(history.save_messages("s", exchange("kept"), state={}))
    close_all()  # as a later process would open it
    raw_execute(sql_url, ["INSERT INTO ctxchat_migrations VALUES ('history', 99, '2030-01-01')"])

    with pytest.raises(StorageError) as caught:
        asyncio.run(history.get_messages("s", state={}))
    message = str(caught.value)
    assert message.startswith(f"database {mask_password(sql_url)} has history schema version 99, ")
    assert message.endswith(
        f"newer than this ctxchat understands (up to {HISTORY.version}); upgrade ctxchat to use it"
    )
    assert "\n" not in message
    assert raw_query(sql_url, "SELECT COUNT(*) FROM ctxchat_history") == [(2,)]
    # Another provider's store in the same database is not held back by it.
    AuditProvider("audit", AuditProvider.Options(url=sql_url), env=ENV).database()
    assert ("audit", 1) in versions(sql_url)


def test_a_0_1_database_newer_than_0_1_is_refused(sql_url: str) -> None:
    write_v1(sql_url, extra=["INSERT INTO ctxchat_schema_version VALUES (4, '2025-01-01')"])
    history = SqlHistoryProvider("history", SqlHistoryProvider.Options(url=sql_url), env=ENV)
    with pytest.raises(StorageError) as caught:
        history.database()
    assert str(caught.value) == (
        f"database {mask_password(sql_url)} has schema version 4, newer than this ctxchat "
        f"understands (up to {LEGACY_LATEST}); upgrade ctxchat to use it"
    )
    assert legacy_versions(sql_url) == [1, 4]  # untouched
    with pytest.raises(Exception, match="ctxchat_migrations"):
        versions(sql_url)


def test_a_second_process_creating_the_version_table_finds_it_done(sql_url: str) -> None:
    # As two processes that both read "no version table" before either wrote: the second
    # write, serialised behind the first by the lock, must record nothing twice.
    write_v1(sql_url)
    database = open_database(sql_url)  # the engine alone: no store asked for yet
    database.write(create_version_table)
    database.write(create_version_table)
    assert versions(sql_url) == [("history", 1)]
    assert legacy_versions(sql_url) == [1, SUPERSEDED]


def test_a_fresh_database_gets_each_store_when_its_provider_opens_it(sql_url: str) -> None:
    history = SqlHistoryProvider("history", SqlHistoryProvider.Options(url=sql_url), env=ENV)
    asyncio.run(history.get_messages("s", state={}))
    assert versions(sql_url) == [
        *[("attachments", v) for v in range(1, ATTACHMENTS.version + 1)],
        *[("history", v) for v in range(1, HISTORY.version + 1)],
        *[("usage", v) for v in range(1, USAGE.version + 1)],
    ]
    with pytest.raises(Exception, match=LEGACY_TABLE):
        legacy_versions(sql_url)  # a new database has no 0.1 table

    AuditProvider("audit", AuditProvider.Options(url=sql_url), env=ENV).database()
    assert versions(sql_url) == [
        *[("attachments", v) for v in range(1, ATTACHMENTS.version + 1)],
        *[("audit", v) for v in range(1, AUDIT.version + 1)],
        *[("history", v) for v in range(1, HISTORY.version + 1)],
        *[("usage", v) for v in range(1, USAGE.version + 1)],
    ]


# -- a store of one's own ---------------------------------------------------------------------
@dataclass(frozen=True)
class NotesOptions:
    url: str | None = option(None, help="database URL")


def _notes_1(conn: Connection) -> None:
    conn.exec_driver_sql("CREATE TABLE test_notes (id INTEGER PRIMARY KEY, title TEXT)")


def _notes_2(conn: Connection) -> None:
    conn.exec_driver_sql("ALTER TABLE test_notes ADD COLUMN body TEXT")


def notes_provider(*steps: Callable[[Connection], None]) -> type[ContextProvider[NotesOptions]]:
    """A provider with a store of its own, as the memory store or a search index will be."""

    class Notes(SqlBacked[NotesOptions], ContextProvider[NotesOptions]):
        stores = (Store("notes", dict(enumerate(steps, start=1)), lambda: None),)

    return Notes


def notes(url: str, *steps: Callable[[Connection], None]) -> ContextProvider[NotesOptions]:
    provider = notes_provider(*steps)
    return provider("notes", NotesOptions(url=url), env=ENV)


def test_a_new_store_brings_its_own_migrations_and_leaves_the_others_alone(
    sql_url: str,
) -> None:
    history = SqlHistoryProvider("history", SqlHistoryProvider.Options(url=sql_url), env=ENV)
    asyncio.run(history.save_messages("s", exchange("kept"), state={}))
    before = raw_query(sql_url, "SELECT * FROM ctxchat_migrations WHERE store = 'history'")

    notes(sql_url, _notes_1).database()
    assert ("notes", 1) in versions(sql_url)
    close_all()  # a later ctxchat, whose notes store has a second step
    notes(sql_url, _notes_1, _notes_2).database()

    assert versions(sql_url) == [
        ("attachments", 1),
        ("history", 1),
        ("history", 2),
        ("history", 3),
        ("history", 4),
        ("history", 5),
        ("notes", 1),
        ("notes", 2),
        ("usage", 1),
    ]
    assert raw_query(sql_url, "SELECT id, title, body FROM test_notes") == []
    assert raw_query(sql_url, "SELECT * FROM ctxchat_migrations WHERE store = 'history'") == before
    assert len(asyncio.run(history.all_messages("s", state={}))) == 2


# -- failures ----------------------------------------------------------------------------------
def storage_failure(url: str) -> str:
    history = SqlHistoryProvider("history", SqlHistoryProvider.Options(url=url), env=ENV)
    with pytest.raises(StorageError) as caught:
        asyncio.run(history.get_messages("s", state={}))
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_an_unreachable_server_is_one_line_with_the_password_masked() -> None:
    message = storage_failure("postgresql+psycopg://me:hunter2@127.0.0.1:1/chat")
    assert message.startswith("database postgresql+psycopg://me:***@127.0.0.1:1/chat: ")
    assert "hunter2" not in message
    assert "refused" in message.lower()


def test_a_wrong_password_is_reported_without_it(postgres_url: str) -> None:
    head, _, tail = postgres_url.partition("@")
    wrong = f"{head.rsplit(':', 1)[0]}:not-the-password-42@{tail}"
    message = storage_failure(wrong)
    assert "not-the-password-42" not in message
    assert ":***@" in message
    assert "password authentication failed" in message


def config_failure(url: str) -> str:
    """What opening `url` reports when the URL itself is wrong: a config error (exit 2),
    one line, since no retry can fix it."""
    history = SqlHistoryProvider("history", SqlHistoryProvider.Options(url=url), env=ENV)
    with pytest.raises(ConfigError) as caught:
        asyncio.run(history.get_messages("s", state={}))
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_bad_urls_and_paths_are_named_in_the_error(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("")
    assert (
        config_failure("nosuchdb://host/x")
        == "database nosuchdb://host/x: unknown database type 'nosuchdb'"
    )
    assert config_failure("mysql://me:pw@nope/db?password=qs") == (
        "database mysql://me:***@nope/db?password=***: its driver is not installed "
        "(No module named 'MySQLdb'); for PostgreSQL install ctxchat[postgres]"
    )
    url = f"sqlite:///{tmp_path}/a-file/history.sqlite3"
    assert config_failure(url) == f"database {url}: {tmp_path}/a-file is not a directory"
    nested = f"sqlite:///{tmp_path}/a-file/deeper/history.sqlite3"
    assert config_failure(nested).startswith(f"database {nested}: ")
    assert "in-memory" in config_failure("sqlite://")
    with pytest.raises(
        ConfigError, match=r"providers\[0\]: url: 'history.db' is not a database URL"
    ):
        build_agent(
            config_from_dict(
                {"providers": [{"type": "sql_history", "url": "history.db"}]},
                path=None,
                environ={},
                model_overrides={},
            ),
            model=OpenAIChatModel(ModelSettings(base_url="http://127.0.0.1:9/v1")),
        )


def test_a_turn_against_a_dead_database_fails_with_one_clear_line(
    model_settings: ModelSettings, fake_openai: FakeOpenAI
) -> None:
    history = SqlHistoryProvider(
        "history",
        SqlHistoryProvider.Options(url="postgresql+psycopg://me:hunter2@127.0.0.1:1/chat"),
        env=ENV,
    )
    with pytest.raises(TurnFailed) as caught:
        turn(make_agent(model_settings, history), Session(), "hello")
    message = str(caught.value)
    assert message.startswith(
        "provider 'history' failed in before_run: database postgresql+psycopg://me:***@127.0.0.1:1/chat:"
    )
    assert "hunter2" not in message
    assert fake_openai.chat_requests() == []


def test_a_relative_sqlite_path_is_taken_from_the_data_dir(tmp_path: Path) -> None:
    history = SqlHistoryProvider(
        "history",
        SqlHistoryProvider.Options(url="sqlite:///sub/h.db"),
        env=ProviderEnv(data_dir=tmp_path),
    )
    asyncio.run(history.save_messages("s", exchange("x"), state={}))
    assert (tmp_path / "sub" / "h.db").is_file()
    close_all()


# -- startup cost ------------------------------------------------------------------------------
@pytest.mark.slow  # starts Python processes: the fast loop is in-process tests
def test_sqlalchemy_is_not_imported_until_a_database_is_used(ctxchat_home: Path) -> None:
    script = (
        "import sys\n"
        "from ctxchat.services.build import build_agent\n"
        "from ctxchat.config.loading import load_config\n"
        "config = load_config()\n"
        "agent = build_agent(config)\n"
        "assert [type(p).__name__ for p in agent.providers] == "
        "['SqlHistoryProvider', 'AuditProvider'], agent.providers\n"
        "assert 'sqlalchemy' not in sys.modules\n"
        "print('ok')\n"
    )
    ctxchat_home.mkdir(parents=True, exist_ok=True)
    (ctxchat_home / "config.toml").write_text(
        '[[providers]]\ntype = "sql_history"\n[[providers]]\ntype = "audit"\n'
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


@pytest.mark.slow  # starts Python processes: the fast loop is in-process tests
def test_ctxchat_version_does_not_import_sqlalchemy() -> None:
    script = "import sys\nfrom ctxchat.cli.main import execute\nexecute(['--version'])\n"
    script += "print('sqlalchemy' in sys.modules)\n"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.stdout.strip().splitlines()[-1] == "False", done.stdout + done.stderr


def test_a_postgresql_url_without_a_driver_uses_psycopg() -> None:
    for scheme in ("postgresql", "postgres"):
        history = SqlHistoryProvider(
            "history", SqlHistoryProvider.Options(url=f"{scheme}://me:pw@127.0.0.1:1/chat"), env=ENV
        )
        assert history.url == "postgresql+psycopg://me:pw@127.0.0.1:1/chat"
    # Reached the connection attempt: no complaint about a missing psycopg2.
    assert "refused" in storage_failure("postgresql://me:pw@127.0.0.1:1/chat").lower()
