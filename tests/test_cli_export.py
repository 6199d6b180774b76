"""Export formats and writing (`ctxchat.views.export`), and the transcript's turns."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from ctxchat.core.errors import UsageError
from ctxchat.core.messages import Message, ToolCallPart
from ctxchat.core.session import Session
from ctxchat.views.export import export_format, export_text, fence, write_export
from ctxchat.views.transcript import group_turns, last_turns, last_user_message

CONVERSATION = [
    Message.user("what is in a.py?"),
    Message.assistant("", [ToolCallPart("call_1", "read_file", '{"path": "a.py"}')]),
    Message.tool_result("call_1", "print('```')"),
    Message.assistant("It prints three backticks."),
    Message.user("thanks"),
    Message.assistant("You're welcome."),
]


def test_markdown_is_for_people() -> None:
    session = Session(title="Reading code", model="m1", turns=2)
    text = export_text(session, CONVERSATION, "md")
    assert text.startswith("# Reading code\n")
    assert f"- id: `{session.id}`" in text
    assert "## You\n\nwhat is in a.py?" in text
    assert '**Tool call** `read_file`\n\n```json\n{\n  "path": "a.py"\n}\n```' in text
    # A result holding a fence is wrapped in a longer one, so it cannot close early.
    assert "**Tool result**\n\n````\nprint('```')\n````" in text
    assert text.endswith("## Assistant\n\nYou're welcome.\n")


def test_jsonl_is_openai_chat_messages() -> None:
    lines = export_text(Session(), CONVERSATION, "jsonl").splitlines()
    messages = [json.loads(line) for line in lines]
    assert messages[0] == {"role": "user", "content": "what is in a.py?"}
    assert messages[1]["tool_calls"][0]["function"] == {
        "name": "read_file",
        "arguments": '{"path": "a.py"}',
    }
    assert messages[2] == {"role": "tool", "tool_call_id": "call_1", "content": "print('```')"}
    assert len(messages) == 6


def test_json_is_the_session_document_with_the_messages() -> None:
    session = Session(title="t", turns=2, state={"history": {"x": 1}})
    document = json.loads(export_text(session, CONVERSATION, "json"))
    assert {k: v for k, v in document.items() if k != "messages"} == session.to_dict()
    restored = [Message.from_dict(m) for m in document["messages"]]
    assert restored == CONVERSATION
    assert Session.from_dict(document).id == session.id  # still a loadable document


def test_format_names() -> None:
    assert export_format("MD") == "md"
    assert export_format("markdown") == "md"
    assert export_format(".jsonl") == "jsonl"
    with pytest.raises(UsageError, match="md, json, jsonl"):
        export_format("pdf")


def test_fence_grows_past_backtick_runs() -> None:
    assert fence("plain") == "```\nplain\n```"
    assert fence("has ````` five") == "``````\nhas ````` five\n``````"


def test_write_export_is_private_and_atomic(tmp_path: Path) -> None:
    target = tmp_path / "out.md"
    target.write_text("old")
    target.chmod(0o644)
    write_export(target, "new text")
    assert target.read_text() == "new text"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["out.md"]


def test_write_export_refuses_what_it_cannot_write(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    for target, reason in [
        (tmp_path / "nope" / "out.md", "does not exist"),
        (tmp_path / "file" / "out.md", "does not exist"),
        (tmp_path, "is a directory"),
    ]:
        with pytest.raises(UsageError, match=reason):
            write_export(target, "text")
    assert not (tmp_path / "nope").exists()  # no directory made on the way


def test_turns_start_at_user_messages() -> None:
    turns = group_turns(CONVERSATION)
    assert [len(t) for t in turns] == [4, 2]
    assert last_turns(CONVERSATION, 1) == [CONVERSATION[4:]]
    assert last_turns(CONVERSATION, 0) == []
    last = last_user_message(CONVERSATION)
    assert last is not None
    assert last.text == "thanks"
    lead = [Message.assistant("context before any input"), *CONVERSATION]
    assert [len(t) for t in group_turns(lead)] == [1, 4, 2]
