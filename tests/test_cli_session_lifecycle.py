"""Sessions across processes and failures: a failed first turn leaves no debris (or, with an
audit, a session to reach it by), a session deleted elsewhere is not resurrected, a busy
one is announced, and lookups, renames and prune ages behave as documented."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cli_support import (
    assert_clean_error,
    coprocess,
    ctxchat,
    only_session,
    session_documents,
    sessions_dir,
    write_config,
)
from conftest import ctxchat_executable
from fakeopenai import Error, FakeOpenAI, Text

UNAUDITED = '[[providers]]\ntype = "sql_history"\n'


def test_a_failed_first_turn_leaves_nothing_behind(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    write_config(ctxchat_home, UNAUDITED)  # no provider keeps a trace of the failure
    fake_openai.enqueue(Error(400, "no thanks"))

    result = ctxchat("run", "hello", env=cli_env)

    assert_clean_error(result, 1, "no thanks")
    leftovers = [p.name for p in sessions_dir(ctxchat_home).iterdir() if p.suffix != ".sqlite3"]
    assert leftovers == []


def test_a_failed_first_turn_leaves_no_session_and_its_audit_row_is_an_orphan(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    fake_openai.enqueue(Error(400, "no thanks"))

    assert ctxchat("run", "hello there", env=cli_env).returncode == 1

    assert session_documents(ctxchat_home) == []  # a session exists once a turn is stored
    resumed = ctxchat("run", "-c", "again", env=cli_env)
    assert resumed.returncode == 2
    assert "no session to continue" in resumed.stderr
    # The audit kept the failed turn under its session id: an orphan of this home.
    dry = ctxchat("sessions", "prune", "--orphans", "--dry-run", env=cli_env)
    assert dry.returncode == 0, dry.stderr
    assert "audit: 1 record" in dry.stdout
    assert "1 session with no file" in dry.stderr


def test_continue_skips_a_session_with_no_turn(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    assert ctxchat("run", "first", env=cli_env).returncode == 0
    kept = only_session(ctxchat_home)
    # A session with no turn and newer (as failed first turns used to leave, and one still
    # pinned to a bogus model name): -c must not resume it.
    empty = {**kept, "id": "01" + "Z" * 24, "turns": 0, "model": "no-such-model"}
    empty["updated_at"] = empty["created_at"] = "2099-01-01T00:00:00+00:00"
    (sessions_dir(ctxchat_home) / f"{empty['id']}.json").write_text(json.dumps(empty))
    resumed = ctxchat("run", "--json", "-c", "again", env=cli_env)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["session"] == kept["id"]
    assert fake_openai.chat_requests()[-1].model == "fake-model"


def test_a_session_deleted_by_another_process_is_not_resurrected(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    with coprocess("run", "--lines", env=cli_env) as child:
        child.stdin.write(b"first\n")
        child.stdin.flush()
        assert child.stdout.readline() == b"echo: first\n"
        session_id = only_session(ctxchat_home)["id"]
        deleted = ctxchat("sessions", "delete", session_id, "--yes", env=cli_env)
        assert deleted.returncode == 0, deleted.stderr
        _, stderr = child.process.communicate(b"second\n", timeout=60)

    assert child.process.returncode == 2
    assert stderr.decode() == (
        f"ctxchat: error: session {session_id} was deleted by another process while open here\n"
    )
    assert len(fake_openai.chat_requests()) == 1
    assert list(sessions_dir(ctxchat_home).glob(f"{session_id}.*")) == []


def test_waiting_for_a_busy_session_is_announced(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    assert ctxchat("run", "first", env=cli_env).returncode == 0
    session_id = only_session(ctxchat_home)["id"]
    lock = os.open(sessions_dir(ctxchat_home) / f"{session_id}.lock", os.O_RDWR)
    fcntl.flock(lock, fcntl.LOCK_EX)  # as another ctxchat in the middle of a turn
    try:
        process = subprocess.Popen(
            [ctxchat_executable(), "run", "--session", session_id, "second"],
            env=cli_env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert process.stderr is not None
        announced = process.stderr.readline().decode()
    finally:
        fcntl.flock(lock, fcntl.LOCK_UN)
        os.close(lock)
    stdout, rest = process.communicate(timeout=60)

    assert announced == (
        f"ctxchat: waiting for session {session_id}: in use by another ctxchat process…\n"
    )
    assert (process.returncode, stdout, rest) == (0, b"echo: second\n", b"")
    assert only_session(ctxchat_home)["turns"] == 2


def test_an_exact_title_wins_over_an_id_prefix(cli_env: dict[str, str], ctxchat_home: Path) -> None:
    assert ctxchat("run", "untitled one", env=cli_env).returncode == 0
    (other,) = session_documents(ctxchat_home)
    prefix = other["id"][:3]  # ids made a moment apart share their first characters
    assert ctxchat("run", "--title", prefix, "titled one", env=cli_env).returncode == 0
    (titled,) = [d for d in session_documents(ctxchat_home) if d["title"] == prefix]

    shown = ctxchat("sessions", "show", prefix, env=cli_env)
    assert shown.returncode == 0, shown.stderr
    assert "titled one" in shown.stdout

    # A full id still means that session, even when another is titled with it.
    renamed = ctxchat("sessions", "rename", titled["id"], other["id"], env=cli_env)
    assert renamed.returncode == 0, renamed.stderr
    shown = ctxchat("sessions", "show", other["id"], env=cli_env)
    assert "untitled one" in shown.stdout


def test_rename_does_not_count_as_use(cli_env: dict[str, str], ctxchat_home: Path) -> None:
    assert ctxchat("run", "hello", env=cli_env).returncode == 0
    before = only_session(ctxchat_home)

    result = ctxchat("sessions", "rename", before["id"], "a new name", env=cli_env)

    assert result.returncode == 0, result.stderr
    after = only_session(ctxchat_home)
    assert after["title"] == "a new name"
    assert after["updated_at"] == before["updated_at"]


def test_prune_ages_in_months_and_years(cli_env: dict[str, str], ctxchat_home: Path) -> None:
    assert ctxchat("run", "ancient", env=cli_env).returncode == 0
    path = next(sessions_dir(ctxchat_home).glob("*.json"))
    document = json.loads(path.read_text())
    document["updated_at"] = (datetime.now(UTC) - timedelta(days=400)).isoformat()
    path.write_text(json.dumps(document))

    for age, listed in (("1y", True), ("2y", False), ("13mo", True), ("14mo", False)):
        result = ctxchat("sessions", "prune", "--older-than", age, "--dry-run", env=cli_env)
        assert result.returncode == 0, (age, result.stderr)
        assert (document["id"] in result.stdout) is listed, age

    bad = ctxchat("sessions", "prune", "--older-than", "3 fortnights", env=cli_env)
    assert_clean_error(bad, 2, "units: s, min (or m), h, d, w, mo (30 days), y (365 days)")


def test_the_repl_says_when_it_waits_for_a_busy_session(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    import pexpect

    assert ctxchat("run", "first", env=cli_env).returncode == 0
    session_id = only_session(ctxchat_home)["id"]
    env = {**cli_env, "TERM": "xterm-256color", "PROMPT_TOOLKIT_NO_CPR": "1"}
    child = pexpect.spawn(
        ctxchat_executable(),
        ["run", "--session", session_id],
        env=env,
        encoding="utf-8",
        dimensions=(40, 120),
        timeout=30,
    )
    lock = os.open(sessions_dir(ctxchat_home) / f"{session_id}.lock", os.O_RDWR)
    try:
        child.expect_exact("Ctrl-D to exit")
        child.expect_exact("›")  # the prompt
        fcntl.flock(lock, fcntl.LOCK_EX)  # as another ctxchat in the middle of a turn
        child.send("second")
        child.expect_exact("second")  # typed, not pasted: Enter then sends it
        child.send("\r")
        child.expect_exact(f"waiting for session {session_id}: in use by another ctxchat")
        fcntl.flock(lock, fcntl.LOCK_UN)
        child.expect_exact("echo: second")
        child.sendeof()
        child.expect(pexpect.EOF)
    finally:
        os.close(lock)
        child.terminate(force=True)
    assert only_session(ctxchat_home)["turns"] == 2


def test_prune_keeps_a_session_a_turn_used_while_prune_waited_for_it(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    assert ctxchat("run", "--title", "old", "first", env=cli_env).returncode == 0
    document = only_session(ctxchat_home)
    path = sessions_dir(ctxchat_home) / f"{document['id']}.json"
    document["updated_at"] = "2020-01-01T00:00:00+00:00"
    path.write_text(json.dumps(document))
    held = threading.Event()
    fake_openai.enqueue(Text("a slow reply", hold=held))
    turn = subprocess.Popen(
        [ctxchat_executable(), "run", "--session", "old", "second"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=cli_env,
    )
    prune: subprocess.Popen[bytes] | None = None
    try:
        assert fake_openai.wait_for_requests(2, timeout=30)  # the turn holds the lock now
        prune = subprocess.Popen(
            [ctxchat_executable(), "sessions", "prune", "--older-than", "30d", "--yes"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=cli_env,
        )
        assert prune.stderr is not None
        waiting = prune.stderr.readline().decode()
        assert "waiting for session" in waiting, waiting  # listed as 2020, lock busy
        held.set()
        assert turn.wait(timeout=60) == 0
        out, err = prune.communicate(timeout=60)
    finally:
        held.set()
        for process in (turn, prune):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait()

    assert prune.returncode == 0, err
    assert f"kept {document['id']}: it was used while prune waited for it" in err.decode()
    assert b"deleted" not in out
    kept = only_session(ctxchat_home)
    assert (kept["id"], kept["turns"]) == (document["id"], 2)
