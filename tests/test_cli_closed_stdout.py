"""A reader that stops reading (`ctxchat ... | head -1`): a quiet exit 0, the turn under way
saved, no further turn sent. Real pipes: the test reads one line and closes its end.

Every output here is far larger than a pipe's buffer (64 KiB on Linux), so ctxchat is
certainly still writing when the reader goes: the failure is certain, not a race.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from cli_support import (
    ctxchat,
    only_session,
    session_documents,
    sessions_dir,
    turn_requests,
    write_config,
)
from conftest import ctxchat_executable
from fakeopenai import FakeOpenAI, Text

from ctxchat.core.session import Session
from ctxchat.storage.store import SessionStore

BIG = "".join(f"line {n} of a long reply\n" for n in range(60_000))  # about 1.5 MB


@pytest.fixture(autouse=True)
def whole_replies_kept(ctxchat_home: Path) -> None:
    """Replies this large are kept whole here: these tests are about the pipe, and a reply
    kept cut would add its warning to the stderr they expect empty."""
    write_config(ctxchat_home, "[agent]\nmax_reply_bytes = 10000000\n")


def complaints(stderr: str) -> list[str]:
    """Lines of stderr other than the summary's notice: the big replies here fill the
    window, so the summary folds (and says so) as it would for anyone."""
    return [line for line in stderr.splitlines() if not line.startswith("ctxchat: summarised ")]


def read_one_line_then_close(
    *args: str, env: dict[str, str], stdin: bytes, tmp_path: Path
) -> tuple[str, int, str]:
    """Run ctxchat with stdout to a pipe; read its first line, close the pipe, and return
    that line, the exit code and all of stderr."""
    stderr_path = tmp_path / "stderr.txt"
    with stderr_path.open("wb") as stderr:  # a file: stderr can never block the process
        process = subprocess.Popen(
            [ctxchat_executable(), *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            env=env,
        )
        assert process.stdin is not None
        assert process.stdout is not None
        process.stdin.write(stdin)
        process.stdin.close()
        first = process.stdout.readline().decode("utf-8")
        process.stdout.close()
        code = process.wait(timeout=60)
    return first, code, stderr_path.read_text("utf-8")


def test_prompt_reply_to_a_closed_pipe_is_a_quiet_success(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path, tmp_path: Path
) -> None:
    fake_openai.enqueue(Text(BIG, chunk_size=4096))

    first, code, stderr = read_one_line_then_close(
        "run", "x", env=cli_env, stdin=b"", tmp_path=tmp_path
    )

    assert first == "line 0 of a long reply\n"
    assert (code, complaints(stderr)) == (0, [])
    # The turn was not mistaken for a broken model stream: it completed and was saved.
    assert only_session(ctxchat_home)["turns"] == 1


def test_script_stops_sending_turns_once_the_reader_is_gone(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path, tmp_path: Path
) -> None:
    fake_openai.enqueue(Text(BIG, chunk_size=4096), Text("never read"))

    first, code, stderr = read_one_line_then_close(
        "run", "--lines", env=cli_env, stdin=b"a\nb\n", tmp_path=tmp_path
    )

    assert first == "line 0 of a long reply\n"
    assert (code, complaints(stderr)) == (0, [])
    assert [r.last_user_text for r in turn_requests(fake_openai)] == ["a"]
    assert only_session(ctxchat_home)["turns"] == 1


def test_json_lines_to_a_closed_pipe(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path, tmp_path: Path
) -> None:
    # The first record is read whole (it is the first line); the second is bigger than the
    # pipe, so writing it is certain to fail: its turn is saved, and no third is sent.
    fake_openai.enqueue(*(Text(BIG, chunk_size=65536) for _ in range(3)))

    first, code, stderr = read_one_line_then_close(
        "run", "--lines", "--json", env=cli_env, stdin=b"a\nb\nc\nd\n", tmp_path=tmp_path
    )

    assert first.startswith('{"session": ')
    assert (code, complaints(stderr)) == (0, [])
    assert [r.last_user_text for r in turn_requests(fake_openai)] == ["a", "b"]
    assert only_session(ctxchat_home)["turns"] == 2


def test_sessions_show_to_a_closed_pipe(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path, tmp_path: Path
) -> None:
    fake_openai.enqueue(Text(BIG, chunk_size=65536))
    assert ctxchat("run", "long one", env=cli_env).returncode == 0
    session_id = only_session(ctxchat_home)["id"]

    first, code, stderr = read_one_line_then_close(
        "sessions", "show", session_id, env=cli_env, stdin=b"", tmp_path=tmp_path
    )

    assert first.strip() == "long one"
    assert (code, complaints(stderr)) == (0, [])


def test_sessions_list_json_to_a_closed_pipe(
    cli_env: dict[str, str], ctxchat_home: Path, tmp_path: Path
) -> None:
    # A title too long for an argument (128 KiB at most) is saved through the store itself.
    SessionStore(sessions_dir(ctxchat_home)).save(Session(title="t" * 1_000_000))

    first, code, stderr = read_one_line_then_close(
        "sessions", "list", "--json", env=cli_env, stdin=b"", tmp_path=tmp_path
    )

    assert first == "[\n"
    assert (code, complaints(stderr)) == (0, [])
    assert len(session_documents(ctxchat_home)) == 1
