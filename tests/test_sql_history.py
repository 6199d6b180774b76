"""The SQL history through the engine and the session layer: history keys, deleting sessions,
whole turns, concurrent writers. Every test runs on a SQLite file and on PostgreSQL."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest
from historykit import (
    LOOKUP,
    Contributor,
    raw_execute,
    raw_query,
    scratch_home,
    scripted_agent,
    shown_to,
    turn,
)

from ctxchat.config.loading import config_from_dict
from ctxchat.core.agent import TurnFailed
from ctxchat.core.errors import TurnNotStored
from ctxchat.core.model_types import ChatModel
from ctxchat.core.paths import sessions_dir
from ctxchat.core.provider import ProviderEnv
from ctxchat.core.session import Session
from ctxchat.providers.history.sql import SqlHistoryProvider
from ctxchat.services.build import build_agent
from ctxchat.services.conversations import ChatService
from ctxchat.services.deletion import delete
from ctxchat.storage.store import SessionStore
from ctxchat.testing import ScriptedModel

pytest_plugins = ["sqlfixtures"]
WRITER = Path(__file__).with_name("history_writer.py")


def sql_history(url: str, **options: object) -> SqlHistoryProvider:
    return SqlHistoryProvider(
        "history",
        SqlHistoryProvider.Options(url=url, **options),
        env=ProviderEnv(data_dir=scratch_home()),
    )


def service(url: str, model: ChatModel) -> ChatService:
    """A process's view, built from config as the CLI builds it."""
    config = config_from_dict(
        {"providers": [{"type": "sql_history", "source_id": "history", "url": url}]},
        path=None,
        environ={},
        model_overrides={},
    )
    agent = build_agent(config, model=model)
    return ChatService(agent, SessionStore(sessions_dir()))


def rows_by_key(url: str) -> dict[str, int]:
    found = raw_query(url, "SELECT history_key, COUNT(*) FROM ctxchat_history GROUP BY history_key")
    return {str(k): int(n) for k, n in found}


def test_the_history_key_defaults_to_the_session_and_can_be_shared(sql_url: str) -> None:
    model = ScriptedModel()
    agent = scripted_agent(model, sql_history(sql_url))
    first, second = Session(), Session()
    turn(agent, first, "from the first session")
    assert first.provider_state("history") == {"history_key": first.id}

    # Point the second session at the first one's history: it sees it and adds to it.
    second.provider_state("history")["history_key"] = first.id
    turn(agent, second, "from the second session")
    assert [m["content"] for m in shown_to(model)] == [
        "from the first session",
        "echo: from the first session",
        "from the second session",
    ]
    turn(agent, first, "first again")
    assert [m["content"] for m in shown_to(model)][-3:] == [
        "from the second session",
        "echo: from the second session",
        "first again",
    ]
    assert rows_by_key(sql_url) == {first.id: 6}


def test_deleting_a_session_removes_its_own_history_and_never_a_shared_one(
    sql_url: str,
) -> None:
    chat = service(sql_url, ScriptedModel())
    owner, borrower, other = chat.new(), chat.new(), chat.new()
    borrower.session.provider_state("history")["history_key"] = owner.session.id
    for conversation, text in [(owner, "a"), (borrower, "b"), (other, "c"), (other, "d")]:
        asyncio.run(chat.send(conversation, text))
    assert rows_by_key(sql_url) == {owner.session.id: 4, other.session.id: 4}

    asyncio.run(delete(chat, borrower.session.id))
    assert rows_by_key(sql_url) == {owner.session.id: 4, other.session.id: 4}
    asyncio.run(delete(chat, other.session.id))
    assert rows_by_key(sql_url) == {owner.session.id: 4}
    asyncio.run(delete(chat, owner.session.id))
    assert rows_by_key(sql_url) == {}


def test_export_and_undo_read_the_database(sql_url: str) -> None:
    model = ScriptedModel()
    chat = service(sql_url, model)
    conversation = chat.new()
    asyncio.run(chat.send(conversation, "one"))
    asyncio.run(chat.send(conversation, "two"))
    reopened = service(sql_url, model)
    session = reopened.open(conversation.session.id).session
    transcript = asyncio.run(reopened.transcript(session))
    assert [m.text for m in transcript] == ["one", "echo: one", "two", "echo: two"]

    removed = asyncio.run(reopened.undo(reopened.open(session.id)))
    assert [m.text for m in removed] == ["two", "echo: two"]
    assert rows_by_key(sql_url) == {session.id: 2}


REJECT_TOOL_ROWS = {
    "sqlite": [
        "CREATE TRIGGER reject_tool BEFORE INSERT ON ctxchat_history WHEN NEW.role = 'tool' "
        "BEGIN SELECT RAISE(ABORT, 'tool rows rejected'); END"
    ],
    "postgresql": [
        "CREATE FUNCTION reject_tool() RETURNS trigger AS $$ BEGIN "
        "IF NEW.role = 'tool' THEN RAISE EXCEPTION 'tool rows rejected'; END IF; "
        "RETURN NEW; END $$ LANGUAGE plpgsql",
        "CREATE TRIGGER reject_tool BEFORE INSERT ON ctxchat_history "
        "FOR EACH ROW EXECUTE FUNCTION reject_tool()",
    ],
}


def test_a_turn_is_stored_whole_or_not_at_all(sql_url: str) -> None:
    history = sql_history(sql_url)
    model = ScriptedModel()
    agent = scripted_agent(model, history, Contributor("tools", tools=[LOOKUP]))
    session = Session()
    turn(agent, session, "before")
    # The database itself refuses the turn's third row, after its first two were inserted.
    raw_execute(
        sql_url, REJECT_TOOL_ROWS["sqlite" if sql_url.startswith("sqlite") else "postgresql"]
    )
    model.script += [ScriptedModel.calls(("lookup", {"q": "x"})), "found"]
    with pytest.raises(TurnFailed) as failed:
        asyncio.run(agent.run(session, "during"))

    # The reply came, but a turn its history could not keep is a failed turn.
    assert isinstance(failed.value.cause, TurnNotStored)
    assert "the reply was shown but not saved: history 'history'" in failed.value.message
    assert "tool rows rejected" in failed.value.message
    assert failed.value.input_text == "during"
    assert failed.value.context is not None
    assert failed.value.context.response is not None
    assert failed.value.context.response.text == "found"
    texts = raw_query(sql_url, "SELECT role, seq FROM ctxchat_history ORDER BY seq")
    assert texts == [("user", 1), ("assistant", 2)]
    turn(agent, session, "after")
    assert [m["content"] for m in shown_to(model)] == ["before", "echo: before", "after"]


@pytest.mark.slow  # starts Python processes: the slow tier's
def test_two_processes_appending_to_one_history_lose_nothing(sql_url: str, tmp_path: Path) -> None:
    # A fresh database: the writers also race to create the schema.
    go = tmp_path / "go"
    turns = 40
    writers = [
        subprocess.Popen(
            [sys.executable, str(WRITER), sql_url, "shared", str(turns), tag, str(go)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for tag in ("P", "Q")
    ]
    for writer in writers:
        assert writer.stdout is not None
        assert writer.stdout.readline().strip() == "ready"
    go.touch()
    for writer in writers:
        _, err = writer.communicate(timeout=120)
        assert writer.returncode == 0, err

    rows = raw_query(
        sql_url,
        "SELECT seq, turn_id, message FROM ctxchat_history "
        "WHERE history_key = 'shared' ORDER BY seq",
    )
    assert [r[0] for r in rows] == list(range(1, 2 * turns * 3 + 1))  # dense, in order
    texts = [r[2].split('"text":"')[1].split('"')[0] for r in rows]
    for start in range(0, len(rows), 3):  # every turn's three rows are together
        chunk = rows[start : start + 3]
        assert len({r[1] for r in chunk}) == 1
        tag, index = texts[start].split()[:2]
        assert texts[start : start + 3] == [f"{tag} {index} {x}" for x in "abc"]
    for tag in ("P", "Q"):  # each writer's turns in the order it wrote them
        mine = [t for t in texts if t.startswith(f"{tag} ") and t.endswith(" a")]
        assert mine == [f"{tag} {i} a" for i in range(turns)]
    assert len({r[1] for r in rows}) == 2 * turns
    order = "".join(t[0] for t in texts[::3])
    print("writers' turn order:", order)


def test_one_engine_per_database_shared_by_providers_and_sessions(sql_url: str) -> None:
    first, second = sql_history(sql_url), sql_history(sql_url, max_messages=5)
    assert first.database() is second.database()


def test_the_default_database_is_a_private_sqlite_file_in_the_data_dir(
    ctxchat_home: Path,
) -> None:
    config = config_from_dict(
        {"providers": [{"type": "sql_history"}]}, path=None, environ={}, model_overrides={}
    )
    agent = build_agent(config, model=ScriptedModel())
    turn(agent, Session(), "hello")

    database = ctxchat_home / "history.sqlite3"
    assert database.is_file()
    for path in ctxchat_home.glob("history.sqlite3*"):
        assert path.stat().st_mode & 0o777 == 0o600, path
    assert ctxchat_home.stat().st_mode & 0o777 == 0o700
    assert raw_query(f"sqlite:///{database}", "PRAGMA journal_mode") == [("wal",)]


def test_loading_the_window_searches_the_primary_key_never_scans(tmp_path: Path) -> None:
    """O(window), not O(history): every query a load makes is an index search, checked with
    SQLite's own query planner on the statements really executed."""
    import sqlalchemy as sa

    from ctxchat.core.messages import Message
    from ctxchat.storage.sql.store import open_database

    url = f"sqlite:///{tmp_path / 'big.sqlite3'}"
    history = sql_history(url, max_messages=10)
    state: dict[str, object] = {}
    big_turn = [Message.user(f"m{i}") for i in range(2000)]
    asyncio.run(history.save_messages("big", big_turn, state=state))
    asyncio.run(history.save_messages("other", big_turn[:50], state={}))
    for budget in (None, 40):
        statements: list[tuple[str, object]] = []
        engine = open_database(history.url).engine

        def capture(  # type: ignore[no-untyped-def]
            conn, cursor, statement, parameters, context, executemany, seen=statements
        ):
            if "ctxchat_history" in statement and statement.lstrip().startswith("SELECT"):
                seen.append((statement, parameters))

        sa.event.listen(engine, "before_cursor_execute", capture)
        try:
            windowed = sql_history(url, max_messages=10 if budget is None else 0, max_tokens=budget)
            loaded = asyncio.run(windowed.get_messages("big", state=state))
        finally:
            sa.event.remove(engine, "before_cursor_execute", capture)
        assert loaded
        assert loaded[-1].text == "m1999"
        assert statements
        with engine.connect() as conn:
            for statement, parameters in statements:
                plan = " ".join(
                    str(row[-1])
                    for row in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", parameters)
                )
                assert "SCAN" not in plan, plan
                assert "USING PRIMARY KEY" in plan or "INDEX" in plan, plan
