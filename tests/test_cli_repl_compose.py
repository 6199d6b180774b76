"""Composing in `$EDITOR` at the REPL, in a real pseudo-terminal: Ctrl-X Ctrl-E and
/edit-draft, with an editor that is a real program rewriting the file it is given."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_support import only_session, session_documents, stored_texts
from fakeopenai import FakeOpenAI
from repl_support import PROMPT, Repls, quit_, turn

# The "editor": replaces the file with EDIT_TO, where {old} stands for what it held.
EDITOR_SCRIPT = """
import os, pathlib, sys
path = pathlib.Path(sys.argv[1])
old = path.read_text()
path.write_text(os.environ["EDIT_TO"].replace("{old}", old))
"""


@pytest.fixture
def repl(cli_env: dict[str, str]) -> Iterator[Repls]:
    repls = Repls(cli_env)
    yield repls
    repls.close()


def editor_env(tmp_path: Path, edit_to: str) -> dict[str, str]:
    script = tmp_path / "editor.py"
    script.write_text(EDITOR_SCRIPT)
    return {"EDITOR": f"{sys.executable} {script}", "VISUAL": "", "EDIT_TO": edit_to}


def test_ctrl_x_ctrl_e_edits_the_line_being_typed(
    repl: Repls, fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    child = repl(extra_env=editor_env(tmp_path, "rewritten: {old}\nsecond line\n"))

    child.send("my draft")
    child.send("\x18\x05")  # Ctrl-X Ctrl-E
    child.expect_exact("second line")  # back in the prompt, as the draft
    turn(child, "")

    (request,) = fake_openai.chat_requests()
    assert request.last_user_text == "rewritten: my draft\nsecond line"
    assert quit_(child) == 0


def test_edit_draft_with_an_empty_save_keeps_the_draft(
    repl: Repls, fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    child = repl(extra_env=editor_env(tmp_path, "\n"))

    child.send("/edit-draft\r")
    child.expect_exact("empty save: draft kept as it was")
    child.expect_exact(PROMPT)
    turn(child, "typed instead")

    assert [r.last_user_text for r in fake_openai.chat_requests()] == ["typed instead"]
    assert quit_(child) == 0


def test_edit_draft_composes_the_message(
    repl: Repls, fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    child = repl(extra_env=editor_env(tmp_path, "composed at length\n"))

    child.send("/edit-draft\r")
    child.expect_exact("composed at length")  # the next prompt, holding it as its draft
    turn(child, "")

    assert [r.last_user_text for r in fake_openai.chat_requests()] == ["composed at length"]
    assert quit_(child) == 0


def test_edit_n_sends_the_change_as_a_branch_and_keeps_the_original(
    repl: Repls, fake_openai: FakeOpenAI, cli_env: dict[str, str], ctxchat_home: Path
) -> None:
    child = repl(extra_env=editor_env(tmp_path_of(ctxchat_home), "{old}, in French"))
    turn(child, "say hello")
    turn(child, "say goodbye")
    original = only_session(ctxchat_home)["id"]

    child.send("/edit 2\r")
    child.expect_exact("new branch ")
    child.expect_exact("tokens ")
    child.expect_exact(PROMPT)
    child.send("/branches\r")
    child.expect_exact("parent")
    child.expect_exact(original)
    assert quit_(child) == 0

    sent = fake_openai.chat_requests()[-1]
    assert sent.last_user_text == "say goodbye, in French"
    users = [m.get("content") for m in sent.messages if m.get("role") == "user"]
    # The branch holds turn 1, then the edit: the original message 2 is not in it (recall
    # may bring it back as a context block, as it would any past conversation).
    assert users[0] == "say hello"
    assert users[-1] == "say goodbye, in French"
    assert "say goodbye" not in users
    documents = {d["id"]: d for d in session_documents(ctxchat_home)}
    (branch,) = [d for d in documents.values() if d["id"] != original]
    assert branch["forked_from"] == {"session": original, "turn": 1}
    assert stored_texts(cli_env, original) == [
        ("user", "say hello"),
        ("assistant", "echo: say hello"),
        ("user", "say goodbye"),
        ("assistant", "echo: say goodbye"),
    ]
    assert stored_texts(cli_env, branch["id"])[2:] == [
        ("user", "say goodbye, in French"),
        ("assistant", "echo: say goodbye, in French"),
    ]


def tmp_path_of(home: Path) -> Path:
    return home.parent


def test_edit_n_carries_the_messages_attachments_into_the_branch(
    repl: Repls, fake_openai: FakeOpenAI, ctxchat_home: Path, tmp_path: Path
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("milk, eggs\n")
    picture = tmp_path / "pic.png"
    picture.write_bytes(PNG_2x1)
    child = repl(extra_env=editor_env(tmp_path, "{old}, in French"))
    child.send(f"/attach {notes} {picture}\r")
    child.expect_exact("attached to the next message:")
    child.expect_exact(PROMPT)
    turn(child, "what is on the list?")
    original = [m for m in fake_openai.chat_requests()[-1].messages if m["role"] == "user"]

    child.send("/edit 1\r")
    child.expect_exact("new branch ")
    child.expect_exact("tokens ")
    child.expect_exact(PROMPT)
    assert quit_(child) == 0

    # The editor was given the words only; the file and the image went with the edit as
    # parts, as they went with the original.
    sent = [m for m in fake_openai.chat_requests()[-1].messages if m["role"] == "user"][-1]
    assert sent["content"][0] == {"type": "text", "text": "what is on the list?, in French"}
    assert sent["content"][1:] == original[-1]["content"][1:]
    assert sent["content"][1] == {
        "type": "text",
        "text": f"Attached file {notes}:\n```\nmilk, eggs\n```",
    }
    assert sent["content"][2]["type"] == "image_url"


# A 2 x 1 PNG's header: all ctxchat reads of an image besides its bytes.
PNG_2x1 = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
    + (2).to_bytes(4, "big")
    + (1).to_bytes(4, "big")
    + b"\x08\x02\x00\x00\x00\x00\x00\x00\x00"
)
