"""Crash safety: `ctxchat run` killed with SIGKILL at random moments over many turns leaves a
sound SQLite database in which every stored turn is whole, and in which the history, the
session files and the audit agree.

The CLI's scripting contract is used as a person's script would: `ctxchat run` (then
`ctxchat run -c` to continue) with one turn per stdin line. Each kill lands at a moment
chosen by an event, not by a clock, so a slow machine moves none of them: while the model
streams the n-th reply (the server has the n-th request), or right after the n-th reply
is printed (the turn is being stored), optionally a few milliseconds later.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import time
from collections import defaultdict
from pathlib import Path

import pytest
from conftest import ctxchat_executable
from fakeopenai import FakeOpenAI, RecordedRequest, Reply, Text

KILLS = 24
LINES_PER_PROCESS = 8
CONFIG = """
[[providers]]
type = "sql_history"
source_id = "history"

[[providers]]
type = "audit"
"""

pytestmark = pytest.mark.slow


def slow_reply(request: RecordedRequest) -> Reply:
    return Text(f"reply to {request.last_user_text}", chunk_size=3, delay=0.008)


def _counts_a_turn(path: Path) -> bool:
    turns = json.loads(path.read_text()).get("turns", 0)
    return isinstance(turns, int) and turns > 0


def _kill_at_event(
    child: subprocess.Popen[bytes], fake_openai: FakeOpenAI, rng: random.Random
) -> bool:
    """Wait for a random event of this process's script, then kill it; False when the
    process ended before the event came (it ran its whole script)."""
    assert child.stdout is not None
    n = rng.randint(1, LINES_PER_PROCESS)
    if rng.random() < 0.5:
        # Mid-reply: the server has the n-th request of this process.
        target = len(fake_openai.chat_requests()) + n
        while not fake_openai.wait_for_requests(target, timeout=0.2):
            if child.poll() is not None:
                return False
    else:
        # Storing: the n-th reply is out, its turn goes to the history and the audit now.
        for _ in range(n):
            if not child.stdout.readline():
                return False
    if rng.random() < 0.5:
        time.sleep(rng.uniform(0, 0.03))  # spreads kills over the moments that follow
    child.send_signal(signal.SIGKILL)
    return True


def test_sigkill_at_random_moments_never_leaves_half_a_turn(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    seed = int(os.environ.get("CTXCHAT_CRASH_SEED", random.randrange(1 << 30)))
    rng = random.Random(seed)
    ctxchat_home.mkdir(parents=True, exist_ok=True)
    (ctxchat_home / "config.toml").write_text(CONFIG)
    fake_openai.default = slow_reply
    sessions = ctxchat_home / "sessions"
    kills = processes = 0
    while kills < KILLS:
        processes += 1
        # `-c` goes on with the latest session that counts a turn: a file left by a process
        # killed inside its first turn counts none (that turn is taken back), and `-c` says
        # there is nothing to continue.
        resume = ["-c"] if any(_counts_a_turn(p) for p in sessions.glob("*.json")) else []
        lines = "".join(f"p{processes} line {i}\n" for i in range(LINES_PER_PROCESS))
        child = subprocess.Popen(
            [ctxchat_executable(), "run", "--lines", *resume],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=cli_env,
        )
        assert child.stdin is not None
        child.stdin.write(lines.encode())
        child.stdin.close()
        if _kill_at_event(child, fake_openai, rng):
            kills += 1
        child.wait(timeout=60)
        assert child.stderr is not None
        assert child.stdout is not None
        errors = child.stderr.read().decode()
        child.stderr.close()
        child.stdout.close()
        assert child.returncode in (0, -signal.SIGKILL), (seed, child.returncode, errors)

    sent = len(fake_openai.chat_requests())
    print(f"seed {seed}: {processes} processes, {kills} killed, {sent} turns started")
    check_database(ctxchat_home / "history.sqlite3", seed)
    check_agreement(ctxchat_home, cli_env, seed, kills)

    # Afterwards the history still works: a clean run continues the conversation.
    done = subprocess.run(
        [ctxchat_executable(), "run", "-c"],
        input=b"after the crashes\n",
        capture_output=True,
        env=cli_env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().strip() == "reply to after the crashes"
    last = fake_openai.chat_requests()[-1].messages
    assert [m["role"] for m in last[1:]][-3:] == ["user", "assistant", "user"]


def check_agreement(home: Path, env: dict[str, str], seed: int, kills: int) -> None:
    """The session files, the history and the audit tell one story: each session counts
    exactly the turns its history holds (a turn a killed process left half-stored is taken
    back when the session is next opened), and the audit says `ok` only for turns the
    history kept (it writes after the session file counted the turn, so a kill can cost
    it a row, never make it claim one)."""
    for path in sorted((home / "sessions").glob("*.json")):
        opened = subprocess.run(  # opening it puts right what a killed process left
            [ctxchat_executable(), "sessions", "show", path.stem],
            capture_output=True,
            env=env,
            timeout=60,
        )
        assert opened.returncode == 0, (seed, opened.stderr)
    with sqlite3.connect(home / "history.sqlite3") as conn:
        history = conn.execute("SELECT DISTINCT history_key, turn_id FROM ctxchat_history")
        kept = {(str(key), str(turn)) for key, turn in history}
        audited = conn.execute("SELECT session_key, turn_id, ok FROM ctxchat_audit").fetchall()
    conn.close()
    for path in sorted((home / "sessions").glob("*.json")):
        document = json.loads(path.read_text())
        assert "pending_turn" not in document, seed
        counted = sum(1 for key, _ in kept if key == document["id"])
        assert document["turns"] == counted, (seed, document["id"], document["turns"], counted)
    ok = {(str(key), str(turn)) for key, turn, good in audited if good}
    failed = {(str(key), str(turn)) for key, turn, good in audited if not good}
    assert ok <= kept, (seed, ok - kept)  # never `ok` for a turn no history kept
    assert not failed & kept, seed  # never stored when recorded as failed
    unaudited = len(kept - ok)
    print(f"{len(kept)} turns kept and counted; {unaudited} without an audit row (kills: {kills})")
    assert unaudited <= kills, seed


def check_database(path: Path, seed: int) -> None:
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)], seed
        rows = conn.execute(
            "SELECT history_key, seq, turn_id, role, message FROM ctxchat_history "
            "ORDER BY history_key, seq"
        ).fetchall()
        audit = conn.execute("SELECT ok, record FROM ctxchat_audit").fetchall()
    conn.close()
    assert rows, f"seed {seed}: no turn was ever stored"
    print(f"{len(rows) // 2} turns stored, {len(audit)} audited")

    turns: dict[str, list[tuple[str, str]]] = defaultdict(list)
    by_key: dict[str, list[int]] = defaultdict(list)
    for key, seq, turn_id, role, message in rows:
        by_key[key].append(seq)
        turns[turn_id].append((role, json.loads(message)["parts"][0]["text"]))
    for key, seqs in by_key.items():  # no gaps: nothing half-removed or half-written
        assert seqs == list(range(1, len(seqs) + 1)), (seed, key)
    for turn_id, messages in turns.items():  # never an input without its output
        assert [role for role, _ in messages] == ["user", "assistant"], (seed, turn_id)
        question, answer = messages
        assert answer[1] == f"reply to {question[1]}", (seed, turn_id)

    recorded = [json.loads(record) for _, record in audit]
    for ok, record in zip((ok for ok, _ in audit), recorded, strict=True):
        assert bool(ok) == record["ok"], seed
        if ok:
            answer = record["response"][-1]["parts"][0]["text"]
            assert answer == f"reply to {record['input'][0]['parts'][0]['text']}", seed
