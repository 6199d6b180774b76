"""Composing in `$EDITOR` at the REPL, in a real pseudo-terminal: Ctrl-X Ctrl-E and
/edit-draft, with an editor that is a real program rewriting the file it is given."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
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
