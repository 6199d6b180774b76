"""Running the real `ctxchat` command in tests, and checking what a user would see."""

from __future__ import annotations

import contextlib
import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, NamedTuple

from conftest import ctxchat_executable
from fakeopenai import FakeOpenAI, RecordedRequest

# How a request of the summary provider's (a fold) begins: not a turn of the conversation.
FOLD_MARK = "You keep a running summary"


def ctxchat(
    *args: str,
    env: dict[str, str],
    stdin: bytes | str | None = b"",
    timeout: float = 60,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run `ctxchat ARGS` to completion; stdin None means the terminal-less /dev/null."""
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    result = subprocess.run(
        [ctxchat_executable(), *args],
        input=data,
        stdin=subprocess.DEVNULL if data is None else None,
        capture_output=True,
        env=env,
        timeout=timeout,
        cwd=cwd,
    )
    return subprocess.CompletedProcess(
        result.args,
        result.returncode,
        result.stdout.decode("utf-8", errors="replace"),
        result.stderr.decode("utf-8", errors="replace"),
    )


class Coprocess(NamedTuple):
    process: subprocess.Popen[bytes]
    stdin: IO[bytes]
    stdout: IO[bytes]
    stderr: IO[bytes]


@contextlib.contextmanager
def coprocess(*args: str, env: dict[str, str]) -> Iterator[Coprocess]:
    """`ctxchat ARGS` with pipes on all three streams, for a test that talks to it line by
    line; killed (if still running) when the test is done with it."""
    process = subprocess.Popen(
        [ctxchat_executable(), *args],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdin is not None
    assert process.stdout is not None
    assert process.stderr is not None
    try:
        yield Coprocess(process, process.stdin, process.stdout, process.stderr)
    finally:
        process.kill()
        process.wait()


def assert_clean_error(result: subprocess.CompletedProcess[str], code: int, *fragments: str) -> str:
    """Exit `code`, exactly one line on stderr in ctxchat's form, no traceback."""
    assert result.returncode == code, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("ctxchat: "), lines[0]
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


def assert_clean_errors(
    result: subprocess.CompletedProcess[str], code: int, *fragments: str
) -> list[str]:
    """Exit `code`, one or more lines on stderr in ctxchat's form (a config's problems are a
    line each: here one per provider on the same database), each with every fragment."""
    assert result.returncode == code, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert lines, "nothing on stderr"
    for line in lines:
        assert line.startswith("ctxchat: "), line
        for fragment in fragments:
            assert fragment in line, (fragment, line)
    return lines


def sessions_dir(home: Path) -> Path:
    return home / "sessions"


def session_documents(home: Path) -> list[dict[str, Any]]:
    """Every saved session document, oldest id first."""
    folder = sessions_dir(home)
    if not folder.is_dir():
        return []
    return [json.loads(p.read_text("utf-8")) for p in sorted(folder.glob("*.json"))]


def only_session(home: Path) -> dict[str, Any]:
    documents = session_documents(home)
    assert len(documents) == 1, [d["id"] for d in documents]
    return documents[0]


def stored_texts(env: dict[str, str], session_id: str) -> list[tuple[str, str]]:
    """(role, text) of every stored message, read back through the loading history (as
    `sessions export` does), whichever provider keeps it."""
    result = ctxchat("sessions", "export", session_id, "--format", "jsonl", env=env)
    assert result.returncode == 0, result.stderr
    messages = [json.loads(line) for line in result.stdout.splitlines()]
    return [(m["role"], m.get("content") or "") for m in messages]


def write_config(home: Path, text: str) -> Path:
    home.mkdir(parents=True, exist_ok=True)
    path = home / "config.toml"
    path.write_text(text, "utf-8")
    return path


def is_fold(request: RecordedRequest) -> bool:
    return str(request.messages[0].get("content", "")).startswith(FOLD_MARK)


def turn_requests(fake: FakeOpenAI) -> list[RecordedRequest]:
    """The chat requests of the conversation's turns, without the summary's folds (a big
    reply falls out of the history's window at once, and is summarised)."""
    return [r for r in fake.chat_requests() if not is_fold(r)]
