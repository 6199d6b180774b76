"""Nothing lost: a turn is kept in the history and counted in the session file, or in
neither, whichever of them fails, and the audit says `ok` only for a turn that was kept.

Both directions, end to end: the history failing to store (PostgreSQL stopped while the
reply streams, a read-only history.sqlite3) and the session file failing to save after the
history stored the turn (a full disk), which takes the turn back out of the history; and
what a process killed between the two leaves, put right by the next one to open the
session (see `ctxchat.services.journal`).
"""

from __future__ import annotations

import asyncio
import fcntl
import io
import json
import os
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pexpect
import pytest
import sqlalchemy as sa
from cli_support import ctxchat, only_session, sessions_dir, write_config
from conftest import ctxchat_executable
from fakeopenai import FakeOpenAI, Text
from mount_support import in_namespace, needs_read_only_mount, read_only_argv
from pgcluster import PgCluster, available
from repl_support import PROMPT, seen

from ctxchat.core.agent import Agent, TurnFailed
from ctxchat.core.context import RunContext
from ctxchat.core.errors import TurnNotStored
from ctxchat.core.messages import Message, new_id
from ctxchat.core.provider import AgentView, ContextProvider, ProviderEnv
from ctxchat.core.session import Session
from ctxchat.providers.history.in_memory import InMemoryHistoryProvider
from ctxchat.providers.history.sql import SqlHistoryProvider
from ctxchat.testing import ScriptedModel

PIPELINE = """
[[providers]]
type = "sql_history"
source_id = "history"

[[providers]]
type = "audit"
"""
NOT_SAVED = "ctxchat: error: the reply was shown but not saved: "


# -- reading what was kept -------------------------------------------------------------------
def history_texts(url: str) -> list[tuple[str, str]]:
    """(turn_id, text) of every history row, in order."""
    rows = query(url, "SELECT turn_id, message FROM ctxchat_history ORDER BY history_key, seq")
    return [(str(t), json.loads(m)["parts"][0]["text"]) for t, m in rows]


def audit_rows(url: str) -> list[tuple[str, bool, str | None]]:
    rows = query(url, "SELECT turn_id, ok, error FROM ctxchat_audit ORDER BY session_key, seq")
    return [(str(t), bool(ok), error) for t, ok, error in rows]


def query(url: str, sql: str) -> list[Any]:
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            return list(conn.execute(sa.text(sql)))
    finally:
        engine.dispose()


def sqlite_url(home: Path) -> str:
    return f"sqlite:///{home / 'history.sqlite3'}"


def first_turn(env: dict[str, str], home: Path) -> str:
    result = ctxchat("run", "--title", "t", "one", env=env)
    assert result.returncode == 0, result.stderr
    return str(only_session(home)["id"])


# -- the history fails: PostgreSQL stopped mid-reply ------------------------------------------
@pytest.fixture
def pg() -> Iterator[PgCluster]:
    """A PostgreSQL cluster of this test's own, since it is stopped under a running turn."""
    if not available():
        if os.environ.get("CTXCHAT_REQUIRE_POSTGRES") == "1":
            pytest.fail("CTXCHAT_REQUIRE_POSTGRES=1 but no PostgreSQL server is installed")
        pytest.skip("no PostgreSQL server installed")
    cluster = PgCluster()
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.remove()


@pytest.mark.slow
def test_postgresql_stopped_while_the_reply_streams_fails_the_turn(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI, pg: PgCluster
) -> None:
    write_config(ctxchat_home, f'[storage]\nurl = "{pg.url}"\n{PIPELINE}')
    session_id = first_turn(cli_env, ctxchat_home)
    held = threading.Event()
    fake_openai.enqueue(Text("second reply", hold=held))
    child = subprocess.Popen(
        [ctxchat_executable(), "run", "--session", "t", "two"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=cli_env,
    )
    try:
        assert fake_openai.wait_for_requests(2, timeout=60)  # the reply is under way
        pg.stop()
    finally:
        held.set()
    out, err = child.communicate(timeout=120)

    assert child.returncode == 1, err
    assert out.decode() == "second reply\n"  # shown...
    (line,) = err.decode().splitlines()  # ...and one line says it was not kept
    assert line.startswith(NOT_SAVED + "history 'history' failed: database "), line
    document = only_session(ctxchat_home)
    assert (document["turns"], document.get("pending_turn")) == (1, None)

    pg.start()
    assert [text for _, text in history_texts(pg.url)] == ["one", "echo: one"]
    assert [ok for _, ok, _ in audit_rows(pg.url)] == [True]
    again = ctxchat("run", "--session", session_id, "three", env=cli_env)
    assert again.returncode == 0, again.stderr
    assert only_session(ctxchat_home)["turns"] == 2


# -- the history fails: a read-only history.sqlite3 -------------------------------------------
@needs_read_only_mount
def test_a_read_only_history_file_fails_the_turn_and_stops_the_script(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    write_config(ctxchat_home, PIPELINE)
    first_turn(cli_env, ctxchat_home)
    database = ctxchat_home / "history.sqlite3"

    result = subprocess.run(
        read_only_argv(database, "run", "--session", "t", "--lines"),
        input=b"two\nthree\n",
        capture_output=True,
        env=cli_env,
        timeout=60,
    )

    assert result.returncode == 1, result.stderr
    assert result.stdout == b"echo: two\n"
    (line,) = result.stderr.decode().splitlines()
    assert line.startswith(NOT_SAVED + "history 'history' failed: "), line
    assert "readonly database" in line
    assert len(fake_openai.chat_requests()) == 2  # "three" was never sent
    document = only_session(ctxchat_home)
    assert (document["turns"], document.get("pending_turn")) == (1, None)
    assert [text for _, text in history_texts(sqlite_url(ctxchat_home))] == ["one", "echo: one"]


@needs_read_only_mount
@pytest.mark.slow
def test_the_repl_says_a_turn_was_not_saved_and_offers_retry(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    write_config(ctxchat_home, PIPELINE)
    first_turn(cli_env, ctxchat_home)
    argv = read_only_argv(ctxchat_home / "history.sqlite3", "run", "--session", "t")
    env = {**cli_env, "TERM": "xterm-256color", "PROMPT_TOOLKIT_NO_CPR": "1"}
    child = pexpect.spawn(argv[0], argv[1:], env=env, encoding="utf-8", timeout=30)
    child.logfile_read = io.StringIO()
    try:
        child.expect_exact("Ctrl-D to exit")
        child.expect_exact("echo: one")  # the resumed turn; its "you ›" is no prompt
        child.expect_exact(PROMPT)
        child.send("two\r")
        child.expect_exact("the reply was shown but not saved")
        child.expect_exact("/retry sends it again")
        child.expect_exact(PROMPT)
        child.expect_exact("two")  # the input is offered again
        assert "echo: two" in seen(child)
        child.sendcontrol("u")  # clear it, then leave
        child.sendeof()
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert only_session(ctxchat_home)["turns"] == 1
    assert len(history_texts(sqlite_url(ctxchat_home))) == 2


# -- the session file fails after the history stored the turn: a full disk --------------------
FULL_DISK = """
set -e
mkdir -p "$1"
mount -t tmpfs -o size=128k tmpfs "$1"
ctxchat run --title t one >/dev/null
set +e
ctxchat run --session t two >"$2/stdout" 2>"$2/stderr"
echo $? >"$2/rc"
cp "$1"/*.json "$2/"
"""


@needs_read_only_mount
def test_a_session_file_that_cannot_be_saved_takes_the_turn_back_out_of_the_history(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    # A second history in the session file makes the file grow with each turn: the second
    # turn's reply no longer fits on the sessions directory's tiny disk.
    write_config(
        ctxchat_home,
        PIPELINE + '\n[[providers]]\ntype = "in_memory_history"\nsource_id = "copy"\n'
        "load_messages = false\n",
    )
    fake_openai.enqueue(Text("first reply"), Text("x" * 150_000, chunk_size=50_000))
    out = tmp_path / "out"
    out.mkdir()

    done = in_namespace(FULL_DISK, str(sessions_dir(ctxchat_home)), str(out), env=cli_env)

    assert done.returncode == 0, done.stderr
    assert (out / "rc").read_text().strip() == "1"
    assert (out / "stdout").read_text() == "x" * 150_000 + "\n"
    (line,) = (out / "stderr").read_text().splitlines()
    assert line.startswith(NOT_SAVED + "cannot write "), line
    assert line.endswith("No space left on device"), line
    (saved,) = out.glob("*.json")
    document = json.loads(saved.read_text())
    assert (document["turns"], document.get("pending_turn")) == (1, None)
    assert len(document["state"]["copy"]["messages"]) == 2
    url = sqlite_url(ctxchat_home)
    assert [text for _, text in history_texts(url)] == ["one", "first reply"]
    (first, failed) = audit_rows(url)
    assert first[1] is True
    assert failed[1] is False
    assert "No space left on device" in str(failed[2])


@needs_read_only_mount
def test_a_reply_kept_cut_that_cannot_be_saved_says_one_true_line(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    """Issue 21, item 11: "only its first 140,000 were saved", then that nothing was."""
    write_config(
        ctxchat_home,
        "[agent]\nmax_reply_bytes = 140000\n"
        + PIPELINE
        + '\n[[providers]]\ntype = "in_memory_history"\nsource_id = "copy"\n'
        "load_messages = false\n",
    )
    fake_openai.enqueue(Text("first reply"), Text("x" * 150_000, chunk_size=50_000))
    out = tmp_path / "out"
    out.mkdir()

    done = in_namespace(FULL_DISK, str(sessions_dir(ctxchat_home)), str(out), env=cli_env)

    assert done.returncode == 0, done.stderr
    assert (out / "rc").read_text().strip() == "1"
    (line,) = (out / "stderr").read_text().splitlines()
    assert line.startswith(NOT_SAVED), line


REPL_ON_FULL_DISK = """
set -e
mkdir -p "$1"
mount -t tmpfs -o size=16k tmpfs "$1"
ctxchat run --title t one >/dev/null
exec ctxchat run --session t
"""


@needs_read_only_mount
@pytest.mark.slow
def test_the_repl_says_one_true_line_when_a_reply_kept_cut_cannot_be_saved(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    """Issue 21, item 11, in the REPL: the cut note ("only its first 20,000 were saved")
    came as the reply ended, before the save failed and said nothing was."""
    from mount_support import unshare_command

    write_config(
        ctxchat_home,
        "[agent]\nmax_reply_bytes = 20000\n"
        + PIPELINE
        + '\n[[providers]]\ntype = "in_memory_history"\nsource_id = "copy"\n'
        "load_messages = false\n",
    )
    reply = "".join(f"line {i:05d}\n" for i in range(2_200))  # 24,200 bytes
    fake_openai.enqueue(Text("first reply"), Text(reply, chunk_size=2_000))
    unshare = unshare_command()
    assert unshare is not None
    bin_dir = str(Path(ctxchat_executable()).parent)
    env = {
        **cli_env,
        "PATH": f"{bin_dir}:{cli_env.get('PATH', '/usr/bin:/bin')}",
        "TERM": "xterm-256color",
        "PROMPT_TOOLKIT_NO_CPR": "1",
    }
    argv = [*unshare, "sh", "-c", REPL_ON_FULL_DISK, "sh", str(sessions_dir(ctxchat_home))]
    child = pexpect.spawn(argv[0], argv[1:], env=env, encoding="utf-8", timeout=60)
    child.logfile_read = io.StringIO()
    try:
        child.expect_exact("Ctrl-D to exit")
        child.expect_exact("first reply")
        child.expect_exact(PROMPT)
        child.send("two\r")
        child.expect_exact("the reply was shown but not saved")
        child.expect_exact("/retry sends it again")
        child.expect_exact(PROMPT)
        child.sendcontrol("u")
        child.sendeof()
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert "line 02199" in seen(child)  # the reply was shown whole
    assert "were saved" not in seen(child)


@pytest.mark.slow
def test_the_repl_notes_a_reply_kept_cut_once_the_turn_is_kept(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    from repl_support import Repls, quit_, turn

    write_config(ctxchat_home, "[agent]\nmax_reply_bytes = 1000\n" + PIPELINE)
    fake_openai.enqueue(Text("".join(f"line {i:05d}\n" for i in range(500))))
    repls = Repls(cli_env)
    try:
        child = repls("--title", "t")
        turn(child, "tell me everything")
        shown = seen(child)
        assert "only its first 1,000 were saved" in shown
        assert shown.index("line 00499") < shown.index("only its first 1,000 were saved")
        assert quit_(child) == 0
    finally:
        repls.close()
    assert only_session(ctxchat_home)["turns"] == 1


# -- a process killed between the history's commit and the session file's --------------------
def leave_half_a_turn(home: Path, session_id: str) -> str:
    """What a process killed after the history stored its turn, before the session file
    counted it, leaves: the turn's rows, and the journal's mark in the file."""
    turn_id = new_id()
    history = SqlHistoryProvider(
        "history", SqlHistoryProvider.Options(url=sqlite_url(home)), env=ProviderEnv(data_dir=home)
    )
    ghost = [Message.user("ghost question"), Message.assistant("ghost answer")]
    asyncio.run(history.store_turn(session_id, ghost, state={}, turn_id=turn_id))
    history.close()
    path = sessions_dir(home) / f"{session_id}.json"
    document = json.loads(path.read_text())
    document["pending_turn"] = turn_id
    path.write_text(json.dumps(document))
    return turn_id


@pytest.mark.parametrize(
    "args", [("sessions", "show", "t"), ("run", "--session", "t", "three")], ids=["show", "run"]
)
def test_the_next_process_takes_back_a_turn_a_killed_one_left_half_stored(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI, args: tuple[str, ...]
) -> None:
    write_config(ctxchat_home, PIPELINE)
    session_id = first_turn(cli_env, ctxchat_home)
    turn_id = leave_half_a_turn(ctxchat_home, session_id)

    result = ctxchat(*args, env=cli_env)

    assert result.returncode == 0, result.stderr
    assert "ghost" not in result.stdout
    url = sqlite_url(ctxchat_home)
    assert turn_id not in {t for t, _ in history_texts(url)}
    assert "ghost question" not in [text for _, text in history_texts(url)]
    assert "pending_turn" not in only_session(ctxchat_home)
    if args[0] == "run":  # the model never saw the ghost turn either
        sent = [m.get("content") for m in fake_openai.chat_requests()[-1].messages]
        assert "ghost question" not in sent
        assert only_session(ctxchat_home)["turns"] == 2


def test_a_turn_under_way_in_a_live_process_is_left_alone(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    write_config(ctxchat_home, PIPELINE)
    session_id = first_turn(cli_env, ctxchat_home)
    turn_id = leave_half_a_turn(ctxchat_home, session_id)
    lock = os.open(sessions_dir(ctxchat_home) / f"{session_id}.lock", os.O_RDWR)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the process whose turn it is holds the lock
        shown = ctxchat("sessions", "show", "t", env=cli_env)
    finally:
        os.close(lock)
    assert shown.returncode == 0, shown.stderr
    assert turn_id in {t for t, _ in history_texts(sqlite_url(ctxchat_home))}
    assert only_session(ctxchat_home)["pending_turn"] == turn_id


# -- the engine's side of it -------------------------------------------------------------------
class Recorder(ContextProvider):
    """Learns from turns as the audit does: sees every one, says whether it was stored."""

    def __init__(self, source_id: str) -> None:
        super().__init__(source_id)
        self.seen: list[tuple[bool, str | None]] = []

    async def after_run(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        error = str(context.error) if context.error is not None else None
        self.seen.append((context.stored, error))


class Undeletable(InMemoryHistoryProvider):
    async def discard_turn(self, session_id: str, turn_id: str, *, state: Any) -> bool:
        return False


async def failing_commit(context: RunContext) -> None:
    raise OSError(28, "No space left on device")


@pytest.mark.parametrize("history_cls", [InMemoryHistoryProvider, Undeletable])
def test_a_failed_commit_takes_the_turn_back_before_anything_learns_from_it(
    history_cls: type[InMemoryHistoryProvider],
) -> None:
    recorder = Recorder("audit")
    agent = Agent(model=ScriptedModel("ok"), providers=[history_cls("history"), recorder])
    session = Session()

    with pytest.raises(TurnFailed) as failed:
        asyncio.run(agent.run(session, "hi", on_stored=failing_commit))

    cause = failed.value.cause
    assert isinstance(cause, TurnNotStored)
    assert str(cause).startswith("the reply was shown but not saved: OSError: ")
    assert recorder.seen == [(False, str(cause))]  # never told the turn was kept
    kept = session.state["history"]["messages"]
    if history_cls is Undeletable:
        assert cause.kept_by == ("history",)
        assert "history 'history' still holds it" in str(cause)
        assert len(kept) == 2
    else:
        assert cause.kept_by == ()
        assert kept == []
