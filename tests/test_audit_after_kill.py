"""Every stored turn is audited, a SIGKILL between the two included: a process killed
after the session file counted its turn and before the audit wrote the turn's row leaves
a mark in the file (`unrecorded_turn`), and the next process to open the session records
the turn from what the history kept (issue 21). A real `ctxchat` is killed at that point:
the audit's table is locked, so its write waits, and the kill comes once the session file
counts the turn. On SQLite (the audit in a database of its own, as the history's commit
must not wait on the lock) and on PostgreSQL (one database, the audit's table locked)."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from cli_support import ctxchat, only_session, write_config
from conftest import ctxchat_executable
from fakeopenai import FakeOpenAI, Text

pytest_plugins = ["sqlfixtures"]


def urls(sql_url: str) -> tuple[str, str]:
    """(the history's URL, the audit's)."""
    if sql_url.startswith("sqlite"):
        return sql_url, sql_url.replace("history.sqlite3", "audit.sqlite3")
    return sql_url, sql_url


@contextlib.contextmanager
def audit_locked(audit_url: str) -> Iterator[None]:
    """Writers of the audit's rows wait while this holds."""
    if audit_url.startswith("sqlite"):
        conn = sqlite3.connect(audit_url.split(":///", 1)[1], isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            conn.execute("ROLLBACK")
            conn.close()
        return
    engine = sa.create_engine(audit_url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn, conn.begin() as transaction:
            conn.exec_driver_sql("LOCK TABLE ctxchat_audit IN ACCESS EXCLUSIVE MODE")
            yield
            transaction.rollback()
    finally:
        engine.dispose()


def query(url: str, sql: str) -> list[Any]:
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            return list(conn.execute(sa.text(sql)))
    finally:
        engine.dispose()


def history_turns(url: str) -> list[str]:
    rows = query(url, "SELECT turn_id FROM ctxchat_history ORDER BY history_key, seq")
    return list(dict.fromkeys(str(r[0]) for r in rows))


def audit_rows(url: str) -> list[tuple[str, bool, dict[str, Any]]]:
    rows = query(url, "SELECT turn_id, ok, record FROM ctxchat_audit ORDER BY session_key, seq")
    return [(str(t), bool(ok), json.loads(record)) for t, ok, record in rows]


def counted(home: Path, turns: int, timeout: float = 60) -> dict[str, Any]:
    """The session document once it counts `turns` (the event the kill waits for)."""
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(AssertionError, ValueError, OSError):
            document = only_session(home)
            if document["turns"] >= turns:
                return document
        assert time.monotonic() < deadline, "the session file never counted the turn"
        time.sleep(0.01)


@pytest.mark.slow
def test_a_turn_killed_before_its_audit_row_is_recorded_by_the_next_process(
    sql_url: str, cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    history_url, audit_url = urls(sql_url)
    write_config(
        ctxchat_home,
        f'[storage]\nurl = "{history_url}"\n\n[[providers]]\ntype = "sql_history"\n\n'
        f'[[providers]]\ntype = "audit"\nurl = "{audit_url}"\n',
    )
    first = ctxchat("run", "--title", "t", "one", env=cli_env)
    assert first.returncode == 0, first.stderr
    held = threading.Event()
    fake_openai.enqueue(Text("second reply", hold=held))
    child = subprocess.Popen(
        [ctxchat_executable(), "run", "--session", "t", "two"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=cli_env,
    )
    try:
        assert fake_openai.wait_for_requests(2, timeout=60)  # everything before is done
        with audit_locked(audit_url):
            held.set()
            document = counted(ctxchat_home, 2)  # kept and counted; the audit waits
            child.kill()
            child.wait(timeout=30)
    finally:
        held.set()
        if child.poll() is None:
            child.kill()
    one, two = history_turns(history_url)
    assert [turn for turn, _, _ in audit_rows(audit_url)] == [one]  # what the kill left

    fake_openai.enqueue(Text("third reply"))
    third = ctxchat("run", "--session", "t", "three", env=cli_env)
    assert third.returncode == 0, third.stderr
    assert third.stderr == ""
    *_, three = history_turns(history_url)
    rows = audit_rows(audit_url)
    assert [(turn, ok) for turn, ok, _ in rows] == [(one, True), (two, True), (three, True)]
    recovered = rows[1][2]
    assert "the process ended before it recorded the turn" in recovered["recovered"]
    assert [m["parts"][0]["text"] for m in recovered["input"]] == ["two"]
    assert [m["parts"][0]["text"] for m in recovered["response"]] == ["second reply"]
    assert "recovered" not in rows[2][2]
    # The mark the kill left named the turn; none is left once the turns are recorded.
    assert document.get("unrecorded_turn") == two
    assert "unrecorded_turn" not in only_session(ctxchat_home)
    shown = ctxchat("sessions", "show", "t", "--audit", env=cli_env)
    assert shown.returncode == 0, shown.stderr
    assert "recorded when the session was next opened" in shown.stdout


def execute(url: str, sql: str) -> None:
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text(sql))
    finally:
        engine.dispose()


@pytest.mark.slow
def test_a_turn_left_unrecorded_is_recorded_by_a_reader_opening_the_session(
    sql_url: str, cli_env: dict[str, str], ctxchat_home: Path
) -> None:
    """The fault run's seed 115 (bench/faults.py): its last fault killed a turn after the
    session file counted it and before its audit row, and only `sessions show` opened the
    session after that. A reader must record the turn, as the next turn would."""
    history_url, audit_url = urls(sql_url)
    write_config(
        ctxchat_home,
        f'[storage]\nurl = "{history_url}"\n\n[[providers]]\ntype = "sql_history"\n\n'
        f'[[providers]]\ntype = "audit"\nurl = "{audit_url}"\n',
    )
    for args in (("--title", "t", "one"), ("--session", "t", "two")):
        done = ctxchat("run", *args, env=cli_env)
        assert done.returncode == 0, done.stderr
    one, two = history_turns(history_url)
    # What the kill leaves (the state the test above makes with a real kill): the turn
    # counted and marked, its audit row never written.
    execute(audit_url, f"DELETE FROM ctxchat_audit WHERE turn_id = '{two}'")
    path = ctxchat_home / "sessions" / f"{only_session(ctxchat_home)['id']}.json"
    document = json.loads(path.read_text())
    path.write_text(json.dumps({**document, "unrecorded_turn": two}))

    shown = ctxchat("sessions", "show", "t", env=cli_env)

    assert shown.returncode == 0, shown.stderr
    rows = audit_rows(audit_url)
    assert [(turn, ok) for turn, ok, _ in rows] == [(one, True), (two, True)]
    assert "the process ended before it recorded the turn" in rows[1][2]["recovered"]
    assert [m["parts"][0]["text"] for m in rows[1][2]["input"]] == ["two"]
    assert "unrecorded_turn" not in only_session(ctxchat_home)
