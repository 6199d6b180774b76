"""Attachments against a real llama.cpp server (the tiny model): a text file and a PDF go
with the question as the user's message, the server reads them (its own token count grows
by what they hold), and what is stored is the question with the attachment, found again by
search. The model's words vary from run to run: nothing here depends on them. (An image
sent to a text-only model is refused in one line: `test_llama_local.py`.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import ctxchat, only_session, stored_texts
from pdfkit import text_pdf

pytestmark = pytest.mark.slow

NOTE = "The spare key hangs behind the blue clock in the hallway. " * 12


def one_turn(env: dict[str, str], cwd: Path, *args: str) -> dict[str, object]:
    result = ctxchat("run", "--json", *args, env=env, cwd=cwd)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    (record,) = [json.loads(line) for line in result.stdout.splitlines()]
    return record


def input_tokens(record: dict[str, object]) -> int:
    usage = record["usage"]
    assert isinstance(usage, dict)
    count = usage["input_tokens"]
    assert isinstance(count, int)
    return count


def test_a_text_file_goes_with_the_question_and_the_server_reads_it(
    llama_env: dict[str, str], ctxchat_home: Path, tmp_path: Path
) -> None:
    (tmp_path / "note.txt").write_text(NOTE, "utf-8")
    bare = one_turn(llama_env, tmp_path, "--temp", "Where is the key?")
    attached = one_turn(llama_env, tmp_path, "-a", "note.txt", "Where is the key?")

    # The server's own count: the note's words were in the prompt it read.
    assert input_tokens(attached) > input_tokens(bare) + 60
    session = only_session(ctxchat_home)
    (user, reply) = stored_texts(llama_env, session["id"])
    assert user[0] == "user"
    assert user[1].startswith("Where is the key?")
    assert "note.txt" in user[1]
    assert "behind the blue clock" in user[1]
    assert reply == ("assistant", attached["output"])
    found = ctxchat("sessions", "search", "blue clock", env=llama_env)
    assert found.returncode == 0, found.stderr
    assert session["id"][:8] in found.stdout


def test_a_pdf_goes_as_its_text(
    llama_env: dict[str, str], ctxchat_home: Path, tmp_path: Path
) -> None:
    (tmp_path / "memo.pdf").write_bytes(text_pdf([["The meeting moved to Thursday at ten."]]))
    record = one_turn(llama_env, tmp_path, "-a", "memo.pdf", "When is the meeting?")
    assert input_tokens(record) > 0
    session = only_session(ctxchat_home)
    (user, _reply) = stored_texts(llama_env, session["id"])
    assert "memo.pdf" in user[1]
    assert "The meeting moved to Thursday at ten." in user[1]
