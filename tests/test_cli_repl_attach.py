"""Attachments in the REPL, in a real pseudo-terminal: `/attach` and a typed `@path`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fakeopenai import FakeOpenAI
from repl_support import PROMPT, Repls, quit_, turn

PNG_640x480 = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
    + (640).to_bytes(4, "big")
    + (480).to_bytes(4, "big")
    + b"\x08\x02\x00\x00\x00"
)


@pytest.fixture
def repl(cli_env: dict[str, str]) -> Iterator[Repls]:
    repls = Repls(cli_env)
    yield repls
    repls.close()


def last_user_content(fake: FakeOpenAI) -> object:
    request = fake.chat_requests()[-1]
    return [m for m in request.messages if m.get("role") == "user"][-1]["content"]


def test_attach_goes_with_the_next_message_only(
    repl: Repls, fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("milk, eggs\n")
    picture = tmp_path / "pic.png"
    picture.write_bytes(PNG_640x480)
    child = repl()

    child.send(f"/attach {notes} {picture}\r")
    child.expect_exact("attached to the next message:")
    child.expect(r"\(image\s+640x480\)")
    child.expect_exact(PROMPT)
    turn(child, "what is on the list?")
    turn(child, "and now?")

    first, second = (
        [m for m in r.messages if m.get("role") == "user"] for r in fake_openai.chat_requests()
    )
    content = first[-1]["content"]
    assert content[0] == {"type": "text", "text": "what is on the list?"}
    assert content[1] == {
        "type": "text",
        "text": f"Attached file {notes}:\n```\nmilk, eggs\n```",
    }
    assert content[2]["type"] == "image_url"
    assert content[2]["image_url"]["url"].startswith("data:image/png;base64,")
    # The next message has none of its own: the attachments went with the first, and are
    # seen again only as that message's history.
    assert second[-1]["content"] == "and now?"
    assert second[0]["content"] == content
    assert quit_(child) == 0


def test_a_typed_at_path_attaches_and_a_bad_attach_sends_nothing(
    repl: Repls, fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    notes = tmp_path / "todo.md"
    notes.write_text("- call Bob\n")
    blob = tmp_path / "blob.bin"
    blob.write_bytes(b"\x00\x01\x02\x03")
    child = repl()

    child.send(f"/attach {blob}\r")
    child.expect(r"binary\s+file")  # the long temp path may wrap the line anywhere
    child.expect_exact(PROMPT)
    turn(child, f"summarise @{notes} for me@example.com")

    assert last_user_content(fake_openai) == (
        f"summarise @{notes} for me@example.com\n\n"
        f"Attached file {notes}:\n```markdown\n- call Bob\n```"
    )
    assert len(fake_openai.chat_requests()) == 1
    assert quit_(child) == 0


def test_tab_completes_a_path_after_at(
    repl: Repls, fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "readme-for-tab.txt").write_text("tabbed in\n")
    child = repl()

    child.send(f"see @{folder}/readme-f\t")
    child.expect_exact("or-tab.txt")  # the rest of the name, completed in the line
    turn(child, "")

    assert last_user_content(fake_openai) == (
        f"see @{folder}/readme-for-tab.txt\n\n"
        f"Attached file {folder}/readme-for-tab.txt:\n```\ntabbed in\n```"
    )
    assert quit_(child) == 0


def test_bang_runs_a_command_whose_output_goes_with_the_next_message(
    repl: Repls, fake_openai: FakeOpenAI
) -> None:
    child = repl(extra_env={"SHELL": "/bin/sh"})

    child.send("!echo one; echo two >&2; exit 3\r")
    child.expect(r"exit 3, 2 lines\) attached")
    child.expect_exact(PROMPT)
    turn(child, "why did it fail?")
    turn(child, "!!bang is a word")

    first, second = fake_openai.chat_requests()
    assert first.last_user_text == (
        "why did it fail?\n\nOutput of $ echo one; echo two >&2; exit 3 (exit 3):\n"
        "```\none\ntwo\n```"
    )
    assert second.last_user_text == "!bang is a word"
    assert quit_(child) == 0


def test_retry_sends_the_attachments_again_as_attachments(
    repl: Repls, fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("milk, eggs\n")
    picture = tmp_path / "pic.png"
    picture.write_bytes(PNG_640x480)
    child = repl()
    child.send(f"/attach {notes} {picture}\r")
    child.expect(r"\(image\s+640x480\)")
    child.expect_exact(PROMPT)
    turn(child, "what is on the list?")

    child.send("/retry\r")
    child.expect_exact("tokens ")
    child.expect_exact(PROMPT)

    first, retried = fake_openai.chat_requests()
    sent = [[m for m in r.messages if m.get("role") == "user"][-1] for r in (first, retried)]
    assert sent[1]["content"] == sent[0]["content"]
    assert [p["type"] for p in sent[1]["content"]] == ["text", "text", "image_url"]
    assert quit_(child) == 0
