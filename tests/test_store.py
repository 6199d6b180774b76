"""Sessions on disk: atomic writes, quarantine, locking, lookup, listing, upgrades."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import stat
import subprocess
import sys
import textwrap
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fakeopenai import FakeOpenAI

from ctxchat.core.errors import SessionCorrupt, SessionError, SessionInUse, SessionNotFound
from ctxchat.core.session import SESSION_VERSION, Session
from ctxchat.storage.store import SessionStore


@pytest.fixture
def store(tmp_path: Path) -> SessionStore:
    return SessionStore(tmp_path / "sessions")


def test_save_and_load_round_trip_with_private_permissions(store: SessionStore) -> None:
    session = Session(title="Trip", model="m", state={"p": {"k": ["ü", 1, None]}})
    store.save(session)
    loaded = store.load(session.id)
    assert loaded == session
    path = store.path_for(session.id)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(store.root.stat().st_mode) == 0o700
    assert stat.S_IMODE((store.root / "index.sqlite3").stat().st_mode) == 0o600
    assert json.loads(path.read_text())["version"] == SESSION_VERSION


def test_corrupt_file_is_moved_aside_never_overwritten(store: SessionStore) -> None:
    session = Session(title="precious")
    store.save(session)
    path = store.path_for(session.id)
    path.write_text('{"version": 2, "id": "truncated...')
    with pytest.raises(SessionCorrupt, match="moved aside") as failure:
        store.load(session.id)
    assert "invalid JSON at line 1" in str(failure.value)
    assert not path.exists()
    quarantined = list(store.root.glob(f"{session.id}.json.corrupt-*"))
    assert len(quarantined) == 1
    assert quarantined[0].read_text() == '{"version": 2, "id": "truncated...'
    assert [s.id for s in store.list()] == []


def test_session_from_a_newer_ctxchat_is_refused_not_quarantined(store: SessionStore) -> None:
    session = Session()
    store.save(session)
    path = store.path_for(session.id)
    document = json.loads(path.read_text())
    document["version"] = SESSION_VERSION + 1
    path.write_text(json.dumps(document))
    with pytest.raises(SessionError, match="newer than this ctxchat"):
        store.load(session.id)
    assert path.exists()


def test_version_1_document_is_upgraded(store: SessionStore) -> None:
    store.root.mkdir(parents=True)
    session_id = "01JZZZZZZZZZZZZZZZZZZZZZZZ"
    v1 = {
        "version": 1,
        "id": session_id,
        "title": "old",
        "created_at": "2025-01-01T10:00:00+00:00",
        "updated_at": "2025-01-02T10:00:00+00:00",
        "model": "gpt-4o-mini",
        "state": {
            "history": {
                "messages": [
                    {"role": "user"},
                    {"role": "assistant"},
                    {"role": "user"},
                    {"role": "assistant"},
                ]
            }
        },
    }
    store.path_for(session_id).write_text(json.dumps(v1))
    loaded = store.load(session_id)
    assert loaded.turns == 2
    assert loaded.title == "old"
    store.save(loaded)
    assert json.loads(store.path_for(session_id).read_text())["version"] == SESSION_VERSION


def test_resolve_by_id_prefix_and_title(store: SessionStore) -> None:
    a = Session(id="01AAAAAAAAAAAAAAAAAAAAAAAA", title="groceries")
    b = Session(id="01AAAAAAAAAAAAAAAAAAAAAAAB", title="taxes")
    c = Session(id="01BBBBBBBBBBBBBBBBBBBBBBBB", title="taxes")
    for s in (a, b, c):
        store.save(s)
    assert store.resolve(a.id) == a.id
    assert store.resolve("01b") == c.id
    assert store.resolve("groceries") == a.id
    with pytest.raises(SessionError, match="ambiguous: 2 sessions match") as failure:
        store.resolve("01AAAA")
    assert f'{a.id} "groceries" (' in str(failure.value)
    assert f'{b.id} "taxes" (' in str(failure.value)
    with pytest.raises(SessionError, match="ambiguous") as failure:
        store.resolve("taxes")
    assert f'{b.id} "taxes"' in str(failure.value)
    assert f'{c.id} "taxes"' in str(failure.value)
    with pytest.raises(SessionNotFound):
        store.resolve("nothing-like-this")
    with pytest.raises(SessionNotFound):
        store.load("../../etc/passwd")


def test_list_is_newest_first_and_heals_a_stale_index(store: SessionStore) -> None:
    now = datetime.now(UTC)
    sessions = [Session(title=f"s{i}", updated_at=now - timedelta(hours=i)) for i in range(5)]
    for s in sessions:
        store.save(s)
    assert [s.title for s in store.list()] == ["s0", "s1", "s2", "s3", "s4"]
    assert [s.title for s in store.list(limit=2)] == ["s0", "s1"]
    # A file removed behind the index's back, and one changed behind it, are picked up.
    store.path_for(sessions[0].id).unlink()
    changed = store.load(sessions[4].id)
    changed.title = "renamed elsewhere"
    changed.updated_at = now + timedelta(hours=1)
    path = store.path_for(changed.id)
    path.write_text(json.dumps(changed.to_dict()))
    os.utime(path, ns=(time.time_ns() + 10**9, time.time_ns() + 10**9))
    assert [s.title for s in store.list()] == ["renamed elsewhere", "s1", "s2", "s3"]
    # A deleted index is rebuilt from the files.
    (store.root / "index.sqlite3").unlink()
    assert len(store.list()) == 4


def test_a_damaged_index_is_rebuilt_without_failing_the_listing(store: SessionStore) -> None:
    sessions = [Session(title=f"s{i}") for i in range(3)]
    for s in sessions:
        store.save(s)
    index = store.root / "index.sqlite3"
    index.write_bytes(b"this is not a database" * 100)

    assert sorted(s.title or "" for s in store.list()) == ["s0", "s1", "s2"]
    assert store.resolve("s1") == sessions[1].id
    assert len(store.list()) == 3
    assert index.read_bytes().startswith(b"SQLite format 3")  # rebuilt


def test_delete_removes_file_and_index_entry(store: SessionStore) -> None:
    session = Session(title="bye")
    store.save(session)
    store.delete(session.id)
    assert not store.exists(session.id)
    assert store.list() == []
    with pytest.raises(SessionNotFound):
        store.delete(session.id)


HOLD_LOCK = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from ctxchat.storage.store import SessionStore
    store = SessionStore(Path(sys.argv[1]))
    with store.locked(sys.argv[2]):
        print("locked", flush=True)
        sys.stdin.readline()  # holds the lock until the test says so
        if len(sys.argv) > 3:
            Path(sys.argv[3]).write_text("about to release")
    """
)


@pytest.mark.slow  # starts Python processes: the fast loop is in-process tests
def test_second_process_waits_for_the_lock_or_says_in_use(store: SessionStore) -> None:
    store.root.mkdir(parents=True)
    session_id = "01CCCCCCCCCCCCCCCCCCCCCCCC"
    released = store.root / "released"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(store.root), session_id, str(released)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None
        assert holder.stdin is not None
        assert holder.stdout.readline().strip() == "locked"
        with (
            pytest.raises(SessionInUse, match="in use by another ctxchat process"),
            store.locked(session_id, wait=0.2),
        ):
            pass
        holder.stdin.write("release\n")
        holder.stdin.close()
        with store.locked(session_id, wait=60):
            # It waited for the holder instead of barging in.
            assert released.read_text() == "about to release"
    finally:
        holder.wait(timeout=10)


WRITE_FOREVER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from ctxchat.core.session import Session
    from ctxchat.storage.store import SessionStore
    store = SessionStore(Path(sys.argv[1]))
    session = Session(id=sys.argv[2])
    i = 0
    while True:
        i += 1
        session.state = {"p": {"n": i, "blob": "x" * (200_000 + i % 1000)}}
        store.save(session)
        print(i, flush=True)
    """
)


@pytest.mark.slow  # starts Python processes: the slow tier's
def test_killed_writer_never_leaves_a_half_written_session(store: SessionStore) -> None:
    store.root.mkdir(parents=True)
    session_id = "01DDDDDDDDDDDDDDDDDDDDDDDD"
    rng = random.Random(7)
    last_seen = 0
    for _ in range(8):
        writer = subprocess.Popen(
            [sys.executable, "-c", WRITE_FOREVER, str(store.root), session_id],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert writer.stdout is not None
        # Killed after a random number of completed saves, so mid-way through the next.
        target = rng.randint(1, 12)
        while int(writer.stdout.readline()) < target:
            pass
        writer.send_signal(signal.SIGKILL)
        writer.wait()
        loaded = store.load(session_id)  # raises if the file were torn
        assert loaded.state["p"]["n"] >= target
        assert len(loaded.state["p"]["blob"]) >= 200_000
        last_seen = max(last_seen, loaded.state["p"]["n"])
    assert last_seen > 1


TURNS = textwrap.dedent(
    """
    import asyncio, sys
    from pathlib import Path
    from ctxchat.services.build import build_agent
    from ctxchat.services.conversations import ChatService
    from ctxchat.config.loading import load_config
    from ctxchat.storage.store import SessionStore

    async def main() -> None:
        agent = build_agent(load_config())
        service = ChatService(agent, SessionStore(Path(sys.argv[1])))
        conversation = service.open(sys.argv[2])
        for i in range(int(sys.argv[4])):
            await service.send(conversation, f"{sys.argv[3]}-{i}")

    asyncio.run(main())
    """
)


def test_two_processes_on_one_session_never_lose_a_turn(
    store: SessionStore, fake_openai: FakeOpenAI, cli_env: dict[str, str], ctxchat_home: Path
) -> None:
    ctxchat_home.mkdir(parents=True, exist_ok=True)
    (ctxchat_home / "config.toml").write_text(
        '[[providers]]\ntype = "in_memory_history"\nsource_id = "history"\n'
    )
    session = Session(title="shared")
    session.state["history"] = {"messages": []}
    store.save(session)
    turns = 15
    children = [
        subprocess.Popen(
            [sys.executable, "-c", TURNS, str(store.root), session.id, name, str(turns)],
            env=cli_env,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("A", "B")
    ]
    for child in children:
        _, err = child.communicate(timeout=120)
        assert child.returncode == 0, err
    final = store.load(session.id)
    assert final.turns == 2 * turns
    inputs = [
        m["parts"][0]["text"] for m in final.state["history"]["messages"] if m["role"] == "user"
    ]
    assert sorted(inputs) == sorted(f"{n}-{i}" for n in "AB" for i in range(turns))
    # Each process's own turns stay in its order.
    for name in "AB":
        mine = [t for t in inputs if t.startswith(name)]
        assert mine == [f"{name}-{i}" for i in range(turns)]


@pytest.mark.slow  # starts Python processes: the fast loop is in-process tests
def test_waiting_for_a_lock_in_a_coroutine_can_be_cancelled(store: SessionStore) -> None:
    store.root.mkdir(parents=True)
    session_id = "01EEEEEEEEEEEEEEEEEEEEEEEE"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(store.root), session_id],
        stdin=subprocess.PIPE,  # held until this test ends
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "locked"
        waiting = asyncio.Event()

        async def scenario() -> None:
            async def take() -> None:
                async with store.locked_async(session_id, wait=60, on_wait=waiting.set):
                    raise AssertionError("the lock is held elsewhere")

            task = asyncio.create_task(take())
            await waiting.wait()
            task.cancel()  # what Ctrl-C does to a turn
            with pytest.raises(asyncio.CancelledError):
                await task

        asyncio.run(scenario())
        assert holder.poll() is None  # cancelled while the other process still held it
    finally:
        holder.kill()
        holder.wait()
