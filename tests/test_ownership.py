"""Rows with owners: two homes and two users on one database (a SQLite file, a PostgreSQL
schema). Search reads only the user's rows, in the query; delete, prune and `--orphans`
touch only this home's; rows from before owners are adopted only by the home holding
their session file."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from historykit import raw_execute, raw_query

from ctxchat.core.audit import AuditRecord
from ctxchat.core.messages import Message
from ctxchat.core.provider import ProviderEnv
from ctxchat.core.search import query_terms
from ctxchat.providers.audit.provider import AuditProvider
from ctxchat.providers.history.schema import _m1_history, _m2_token_counts, _m3_search_index
from ctxchat.providers.history.sql import SqlHistoryProvider
from ctxchat.storage.owner import HOME_ID_FILE, home_id
from ctxchat.storage.sql.schema import Store
from ctxchat.storage.sql.store import close_all, open_database

pytest_plugins = ["sqlfixtures"]


def home(tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    path.mkdir()
    return path


def history(url: str, data_dir: Path, user: str) -> SqlHistoryProvider:
    return SqlHistoryProvider(
        "history",
        SqlHistoryProvider.Options(url=url, user=user),
        env=ProviderEnv(data_dir=data_dir),
    )


def store(provider: SqlHistoryProvider, key: str, text: str) -> None:
    messages = [Message.user(text), Message.assistant("noted")]
    asyncio.run(provider.save_messages(key, messages, state={}))


def found(provider: SqlHistoryProvider, query: str, limit: int = 5) -> list[str]:
    hits = asyncio.run(provider.search_messages(query_terms(query), limit=limit))
    return [h.key for h in hits]


def test_a_home_keeps_one_private_id(tmp_path: Path) -> None:
    first = home_id(tmp_path)

    assert first == home_id(tmp_path)
    assert len(first) == 32
    assert (tmp_path / HOME_ID_FILE).stat().st_mode & 0o777 == 0o600
    assert home_id(home(tmp_path, "other")) != first


def test_another_users_rows_never_crowd_yours_out(sql_url: str, tmp_path: Path) -> None:
    alice = history(sql_url, home(tmp_path, "a"), "alice")
    bob = history(sql_url, home(tmp_path, "b"), "bob")
    store(alice, "alice-1", "the kubernetes cluster plan")
    for i in range(30):  # many better matches, all bob's
        store(bob, f"bob-{i}", "kubernetes kubernetes kubernetes")

    assert found(alice, "kubernetes", limit=1) == ["alice-1"]
    assert "alice-1" not in found(bob, "kubernetes", limit=50)


def test_one_user_on_two_homes_finds_both(sql_url: str, tmp_path: Path) -> None:
    laptop = history(sql_url, home(tmp_path, "laptop"), "alice")
    desktop = history(sql_url, home(tmp_path, "desktop"), "alice")
    store(laptop, "on-laptop", "the gardening notes")

    hits = asyncio.run(desktop.search_messages(["gardening"], limit=5))

    assert [(h.key, h.local) for h in hits] == [("on-laptop", False)]
    assert [h.local for h in asyncio.run(laptop.search_messages(["gardening"], limit=5))] == [True]


def test_delete_and_orphans_touch_only_this_homes_rows(sql_url: str, tmp_path: Path) -> None:
    a, b = home(tmp_path, "a"), home(tmp_path, "b")
    alice, bob = history(sql_url, a, "alice"), history(sql_url, b, "bob")
    audit_a = AuditProvider(
        "audit", AuditProvider.Options(url=sql_url, user="alice"), env=ProviderEnv(data_dir=a)
    )
    audit_b = AuditProvider(
        "audit", AuditProvider.Options(url=sql_url, user="bob"), env=ProviderEnv(data_dir=b)
    )
    store(alice, "mine", "a memo")
    store(bob, "theirs", "a memo")
    # The same key in both homes (a history key named by hand): each home's rows apart.
    store(alice, "shared-name", "alice's")
    store(bob, "shared-name", "bob's")
    record = AuditRecord("t", datetime.now(UTC), True, None, (Message.user("hi"),))
    audit_a._append("mine", record)
    audit_b._append("theirs", record)

    # What `--orphans` sees as this home's keys: neither file exists in either home.
    assert asyncio.run(alice.stored_keys()) == {"mine": 2, "shared-name": 2}
    assert asyncio.run(audit_a.stored_keys()) == {"mine": 1}
    asyncio.run(alice.forget_keys(["mine", "theirs", "shared-name"]))
    asyncio.run(audit_a.forget_keys(["mine", "theirs"]))

    assert asyncio.run(bob.stored_keys()) == {"theirs": 2, "shared-name": 2}
    assert asyncio.run(audit_b.stored_keys()) == {"theirs": 1}
    assert asyncio.run(alice.stored_keys()) == {}
    assert found(bob, "memo") == ["theirs"]


@pytest.mark.unmigrated
def test_rows_from_before_owners_go_to_the_home_holding_their_session(
    sql_url: str, tmp_path: Path
) -> None:
    open_database(
        sql_url,
        [
            Store(
                "history", {1: _m1_history, 2: _m2_token_counts, 3: _m3_search_index}, lambda: None
            )
        ],
    )
    close_all()
    now = datetime.now(UTC).isoformat()
    insert = (
        "INSERT INTO ctxchat_history (history_key, seq, turn_id, role, created_at, message, "
        "token_count, body) VALUES (?, 1, 't', 'user', ?, ?, 3, 'an old remark')"
    )
    rows = [
        (insert, (key, now, json.dumps(Message.user("an old remark").to_dict())))
        for key in ("held-by-a", "held-by-nobody")
    ]
    raw_execute(sql_url, [], rows)
    a, b = home(tmp_path, "a"), home(tmp_path, "b")
    (a / "sessions").mkdir()
    (a / "sessions" / "held-by-a.json").write_text("{}")

    alice = history(sql_url, a, "alice")
    assert found(alice, "remark") == ["held-by-a"]
    bob = history(sql_url, b, "bob")
    assert found(bob, "remark") == []
    asyncio.run(bob.forget_keys(["held-by-nobody", "held-by-a"]))

    owners = raw_query(
        sql_url, "SELECT history_key, home_id, user_key FROM ctxchat_history ORDER BY 1"
    )
    assert owners == [("held-by-a", home_id(a), "alice"), ("held-by-nobody", None, None)]
