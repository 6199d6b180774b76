"""A database written by ctxchat 0.1 (one global schema version, 3) upgrades in place to the
per-store versions: history and audit both read and write it, and nothing is lost.

The SQLite cases use `tests/data/v0.1-home`, written by the 0.1 code itself (two turns in
`ctxchat_history`, two rows in `ctxchat_audit`), always on a copy. On PostgreSQL the same
rows are written into the layout 0.1's migrations 1..3 built there.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cli_support import ctxchat, write_config
from fakeopenai import FakeOpenAI
from historykit import make_agent, raw_execute, raw_query, scratch_home, turn
from test_cli_readonly_home import ctxchat_read_only, needs_read_only_mount

from ctxchat.core.provider import ProviderEnv
from ctxchat.core.session import Session
from ctxchat.core.settings import ModelSettings
from ctxchat.providers.audit.provider import AuditProvider
from ctxchat.providers.history.sql import SqlHistoryProvider
from ctxchat.storage.sql.schema import SUPERSEDED

pytest_plugins = ["sqlfixtures"]
# Tests of the upgrade from 0.1: each database starts empty, as no migration left it.
pytestmark = pytest.mark.unmigrated

HOME_0_1 = Path(__file__).with_name("data") / "v0.1-home"
DATABASE_0_1 = HOME_0_1 / "history.sqlite3"
SESSION_ID = "01M8PQ7ZY27J2J6BJQGWT1RBN7"
OPENER = Path(__file__).with_name("store_opener.py")
ENV = ProviderEnv(data_dir=scratch_home())
UPGRADED = [
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

# ctxchat 0.1's schema 3 as its migrations built it on PostgreSQL.
SCHEMA_0_1 = [
    "CREATE TABLE ctxchat_schema_version (version INTEGER NOT NULL PRIMARY KEY, "
    "applied_at TIMESTAMP WITH TIME ZONE NOT NULL)",
    "CREATE TABLE ctxchat_history (history_key TEXT NOT NULL, seq BIGINT NOT NULL, "
    "turn_id TEXT NOT NULL, role TEXT NOT NULL, kind TEXT, source_id TEXT, "
    "created_at TIMESTAMP WITH TIME ZONE NOT NULL, message TEXT NOT NULL, "
    "token_count INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (history_key, seq))",
    "CREATE INDEX ctxchat_history_turn ON ctxchat_history (history_key, turn_id)",
    "CREATE TABLE ctxchat_audit (session_key TEXT NOT NULL, seq BIGINT NOT NULL, "
    "turn_id TEXT NOT NULL, created_at TIMESTAMP WITH TIME ZONE NOT NULL, ok BOOLEAN NOT NULL, "
    "error TEXT, input_tokens INTEGER, output_tokens INTEGER, record TEXT NOT NULL, "
    "PRIMARY KEY (session_key, seq))",
]


def fixture_rows(table: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(f"file:{DATABASE_0_1}?mode=ro", uri=True) as conn:
        rows = [tuple(r) for r in conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2")]
    conn.close()
    return rows


def write_0_1(url: str) -> None:
    """The 0.1 database at `url`: the fixture file copied, or its rows in 0.1's layout."""
    if url.startswith("sqlite"):
        path = Path(url.split(":///", 1)[1])
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(DATABASE_0_1, path)
        return
    rows: list[tuple[str, Any]] = []
    for row in fixture_rows("ctxchat_schema_version"):
        rows.append(("INSERT INTO ctxchat_schema_version VALUES (?, ?)", row))
    for row in fixture_rows("ctxchat_history"):
        rows.append(("INSERT INTO ctxchat_history VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", row))
    for row in fixture_rows("ctxchat_audit"):
        values = (*row[:4], bool(row[4]), *row[5:])  # SQLite's 1 is PostgreSQL's true
        rows.append(("INSERT INTO ctxchat_audit VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", values))
    raw_execute(url, SCHEMA_0_1, rows)


def versions(url: str) -> list[tuple[str, int]]:
    rows = raw_query(url, "SELECT store, version FROM ctxchat_migrations ORDER BY store, version")
    return [(str(store), int(version)) for store, version in rows]


def legacy_versions(url: str) -> list[int]:
    return [v for (v,) in raw_query(url, "SELECT version FROM ctxchat_schema_version ORDER BY 1")]


def fixture_session() -> Session:
    path = HOME_0_1 / "sessions" / f"{SESSION_ID}.json"
    return Session.from_dict(json.loads(path.read_text("utf-8")))


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_0_1_database_upgrades_in_place_and_loses_nothing(
    sql_url: str, model_settings: ModelSettings, fake_openai: FakeOpenAI
) -> None:
    before = digest(DATABASE_0_1)
    write_0_1(sql_url)
    old_history = raw_query(sql_url, "SELECT * FROM ctxchat_history ORDER BY seq")
    old_audit = raw_query(sql_url, "SELECT * FROM ctxchat_audit ORDER BY seq")
    history = SqlHistoryProvider("history", SqlHistoryProvider.Options(url=sql_url), env=ENV)
    audit = AuditProvider("audit", AuditProvider.Options(url=sql_url), env=ENV)
    session = fixture_session()
    state = session.provider_state("history")

    stored = asyncio.run(history.all_messages(session.id, state=state))
    assert [m.text for m in stored] == [
        "first question",
        "echo: first question",
        "second question",
        "echo: second question",
    ]
    recorded = asyncio.run(audit.audit_records(session.id, state={}))
    assert [(r.ok, [m.text for m in r.input_messages]) for r in recorded] == [
        (True, ["first question"]),
        (True, ["second question"]),
    ]
    # The old version, mapped and recorded with its original times; 0.1 now refuses it.
    assert versions(sql_url) == UPGRADED
    applied = {
        (store, version): str(at)
        for store, version, at in raw_query(sql_url, "SELECT * FROM ctxchat_migrations")
    }
    old_times = dict(raw_query(sql_url, "SELECT version, applied_at FROM ctxchat_schema_version"))
    assert applied[("history", 2)] == str(old_times[2])
    assert applied[("audit", 1)] == str(old_times[3])
    assert legacy_versions(sql_url) == [1, 2, 3, SUPERSEDED]

    # A new turn on the old session: the model reads the old turns, both stores write.
    agent = make_agent(model_settings, history, audit)
    turn(agent, session, "third question")
    sent = [m["content"] for m in fake_openai.chat_requests()[-1].messages[1:]]
    assert sent == [m.text for m in stored] + ["third question"]
    everything = asyncio.run(history.all_messages(session.id, state=state))
    assert [m.id for m in everything[:4]] == [m.id for m in stored]
    assert [m.text for m in everything[4:]] == ["third question", "echo: third question"]
    recorded = asyncio.run(audit.audit_records(session.id, state={}))
    assert [r.ok for r in recorded] == [True, True, True]
    # The old rows themselves, untouched, numbered on.
    # Every old column as it was (search adds columns of its own after them).
    after = raw_query(sql_url, "SELECT * FROM ctxchat_history ORDER BY seq")[:4]
    assert [row[: len(old_history[0])] for row in after] == old_history
    audited = raw_query(sql_url, "SELECT * FROM ctxchat_audit ORDER BY seq")[:2]
    assert [row[: len(old_audit[0])] for row in audited] == old_audit
    assert raw_query(sql_url, "SELECT MAX(seq) FROM ctxchat_history") == [(6,)]
    assert raw_query(sql_url, "SELECT MAX(seq) FROM ctxchat_audit") == [(3,)]
    assert versions(sql_url) == UPGRADED
    assert digest(DATABASE_0_1) == before


def test_the_0_1_home_goes_on_through_the_cli(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    shutil.copytree(HOME_0_1, ctxchat_home)
    write_config(
        ctxchat_home, '[[providers]]\ntype = "sql_history"\n[[providers]]\ntype = "audit"\n'
    )

    ran = ctxchat("run", "--session", SESSION_ID, "third question", env=cli_env)
    assert ran.returncode == 0, ran.stderr
    assert "echo: third question" in ran.stdout
    shown = ctxchat("sessions", "show", SESSION_ID, "--plain", env=cli_env)
    assert shown.returncode == 0, shown.stderr
    for text in ("first question", "echo: second question", "echo: third question"):
        assert text in shown.stdout
    audited = ctxchat("sessions", "show", SESSION_ID, "--audit", env=cli_env)
    assert audited.returncode == 0, audited.stderr
    assert audited.stdout.count("third question") >= 1
    assert audited.stdout.count("first question") >= 1
    url = f"sqlite:///{ctxchat_home / 'history.sqlite3'}"
    assert versions(url) == UPGRADED
    assert raw_query(url, "SELECT COUNT(*) FROM ctxchat_audit") == [(3,)]


@needs_read_only_mount
def test_a_0_1_home_on_a_read_only_disk_is_read_as_it_is(
    cli_env: dict[str, str], ctxchat_home: Path
) -> None:
    # Its stores are current under the mapping: nothing needs writing to read it.
    shutil.copytree(HOME_0_1, ctxchat_home)
    before = digest(ctxchat_home / "history.sqlite3")
    shown = ctxchat_read_only(ctxchat_home, "sessions", "show", SESSION_ID, "--plain", env=cli_env)
    assert (shown.returncode, shown.stderr) == (0, "")
    assert "echo: second question" in shown.stdout
    assert digest(ctxchat_home / "history.sqlite3") == before


@pytest.mark.slow  # starts Python processes: the slow tier's
def test_processes_opening_a_0_1_database_at_once_upgrade_it_once(
    sql_url: str, tmp_path: Path
) -> None:
    write_0_1(sql_url)
    go = tmp_path / "go"
    orders = ["history,audit", "audit,history", "history,audit", "audit,history"]
    openers = [
        subprocess.Popen(
            [sys.executable, str(OPENER), sql_url, order, str(go)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=tmp_path,
        )
        for order in orders
    ]
    for opener in openers:
        assert opener.stdout is not None
        assert opener.stdout.readline().strip() == "ready"
    go.touch()
    for opener in openers:
        out, err = opener.communicate(timeout=120)
        assert (opener.returncode, out.strip()) == (0, "done"), err

    assert versions(sql_url) == UPGRADED
    assert legacy_versions(sql_url) == [1, 2, 3, SUPERSEDED]
    assert raw_query(sql_url, "SELECT COUNT(*) FROM ctxchat_history") == [(4,)]
    assert raw_query(sql_url, "SELECT COUNT(*) FROM ctxchat_audit") == [(2,)]
