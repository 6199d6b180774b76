"""The format readers of `ctxchat import` on sample files in each tool's own shape
(`import_samples`), and the plan an import makes of them: what is kept, what is masked,
and which id each session gets."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from import_samples import ANSWER, HOME_TOWN, QUESTION, SAMPLES, SECRET, write_sample

from ctxchat.core.errors import UsageError
from ctxchat.core.messages import Message
from ctxchat.services.import_plan import (
    import_session_id,
    plan_import,
    secret_screen,
)
from ctxchat.services.importers import (
    ImportDataError,
    ImportedCall,
    ImportedConversation,
    ImportedMessage,
    reader,
)

FORMATS = sorted(SAMPLES)
JUNE_FIRST = datetime(2024, 6, 1, tzinfo=UTC)


def read_sample(fmt: str, tmp_path: Path) -> list[ImportedConversation]:
    return reader(fmt)(write_sample(fmt, tmp_path / fmt))


def texts(conversation: ImportedConversation, role: str) -> list[str]:
    return [m.text for m in conversation.messages if m.role == role]


@pytest.mark.parametrize("fmt", FORMATS)
def test_each_reader_gives_the_conversation_in_order(fmt: str, tmp_path: Path) -> None:
    [conversation] = read_sample(fmt, tmp_path)
    assert conversation.source == fmt
    users = texts(conversation, "user")
    assert users[0] == QUESTION
    assert HOME_TOWN in users[-1]
    assert ANSWER in texts(conversation, "assistant")
    assert "abandoned draft" not in users  # ChatGPT's other branch
    assert "a subagent's own prompt" not in users  # Claude Code's sidechain
    assert not any(t.startswith("<environment_context>") for t in users)  # Codex's context
    if fmt != "jsonl":  # an export keeps no dates: the file's time stands for them
        assert conversation.created_at is not None
        assert conversation.created_at.date() == JUNE_FIRST.date()
    assert conversation.key


@pytest.mark.parametrize(
    ("fmt", "title", "model", "key"),
    [
        ("llm", "Reversing lists", "gpt-4o-mini", "01j0conv"),
        ("chatgpt", "Reversing lists", "gpt-4o", "6659a0b0-0000-4000-8000-000000000001"),
        (
            "claude-code",
            "Reversing lists",
            "claude-sonnet-4-20250514",
            "9f1c2d3e-4b5a-4c6d-8e7f-000000000002",
        ),
        ("codex", None, "gpt-5-codex", "0190a1b2-c3d4-7e5f-8a9b-000000000003"),
        ("gptme", "2024-06-01-reversing-lists", "openai/gpt-4o", "2024-06-01-reversing-lists"),
    ],
)
def test_titles_models_and_source_keys_are_the_sources_own(
    fmt: str, title: str | None, model: str, key: str, tmp_path: Path
) -> None:
    [conversation] = read_sample(fmt, tmp_path)
    assert (conversation.title, conversation.model, conversation.key) == (title, model, key)


@pytest.mark.parametrize("fmt", ["claude-code", "codex", "jsonl"])
def test_coding_agents_tool_calls_come_with_their_results(fmt: str, tmp_path: Path) -> None:
    [conversation] = read_sample(fmt, tmp_path)
    calls = [c for m in conversation.messages for c in m.calls]
    results = [m for m in conversation.messages if m.role == "tool"]
    assert len(calls) == 1
    assert [r.call_id for r in results] == [calls[0].id]
    assert SECRET in results[0].text  # read as it is: the screen masks it, not the reader


def test_gptme_system_messages_and_tool_output_are_left_out(tmp_path: Path) -> None:
    [conversation] = read_sample("gptme", tmp_path)
    assert {m.role for m in conversation.messages} == {"user", "assistant"}
    assert not any("Ran command" in m.text for m in conversation.messages)


def test_the_plan_masks_every_secret_and_counts_them(tmp_path: Path) -> None:
    screen = secret_screen([])
    for fmt in FORMATS:
        conversations = read_sample(fmt, tmp_path)
        plan = plan_import(
            fmt,
            tmp_path,
            conversations,
            screen=screen,
            owner=("home-a", "ann"),
            exists=lambda _: False,
            history_source="history",
        )
        [planned] = plan.sessions
        stored = [m for t in planned.turns for m in t.messages]
        dumped = "\n".join(str(m.to_dict()) for m in stored)
        assert SECRET not in dumped, fmt
        assert "[secret withheld]" in dumped, fmt
        assert plan.counts()["secrets_masked"] >= 1, fmt
        assert plan.counts()["messages"] == len(stored)
        assert plan.counts()["tokens_to_embed"] > 0
        assert planned.session.state["import"]["source"] == fmt
        assert planned.session.turns == len(planned.turns)
        assert all(t.messages[0].role == "user" for t in planned.turns), fmt


def test_a_call_without_its_result_is_left_out_with_it() -> None:
    conversation = ImportedConversation(
        "jsonl",
        "k",
        None,
        JUNE_FIRST,
        (
            ImportedMessage("user", "run it"),
            ImportedMessage(
                "assistant",
                "",
                calls=(ImportedCall("c1", "shell", "{}"),),
            ),
            ImportedMessage("tool", "orphan output", call_id="c2"),
            ImportedMessage("assistant", "done"),
        ),
    )
    plan = plan_import(
        "jsonl",
        Path("x.jsonl"),
        [conversation],
        screen=secret_screen([]),
        owner=("h", "u"),
        exists=lambda _: False,
        history_source="history",
    )
    messages: list[Message] = [m for t in plan.sessions[0].turns for m in t.messages]
    assert [(m.role, m.text) for m in messages] == [("user", "run it"), ("assistant", "done")]
    assert not any(m.tool_calls or m.tool_results for m in messages)


def test_the_session_id_is_stable_and_owned() -> None:
    first = import_session_id("home-a", "ann", "chatgpt", "c1")
    assert first == import_session_id("home-a", "ann", "chatgpt", "c1")
    others = {
        import_session_id("home-b", "ann", "chatgpt", "c1"),
        import_session_id("home-a", "bob", "chatgpt", "c1"),
        import_session_id("home-a", "ann", "codex", "c1"),
        import_session_id("home-a", "ann", "chatgpt", "c2"),
    }
    assert first not in others
    assert len(others) == 4
    assert len(first) == 26
    assert first.isalnum()


def test_an_already_imported_conversation_is_planned_as_such(tmp_path: Path) -> None:
    conversations = read_sample("chatgpt", tmp_path)
    seen = import_session_id("h", "u", "chatgpt", conversations[0].key)
    plan = plan_import(
        "chatgpt",
        tmp_path,
        conversations,
        screen=secret_screen([]),
        owner=("h", "u"),
        exists=lambda sid: sid == seen,
        history_source="history",
    )
    assert plan.counts()["sessions"] == 0
    assert plan.counts()["already_imported"] == 1


@pytest.mark.parametrize("fmt", ["claude-code", "codex", "gptme", "jsonl"])
def test_a_line_that_is_not_json_names_the_file_and_line(fmt: str, tmp_path: Path) -> None:
    name = "conversation.jsonl" if fmt == "gptme" else "broken.jsonl"
    broken = tmp_path / "d" / name
    broken.parent.mkdir()
    broken.write_text('{"type": "user"}\n{"role": \n', encoding="utf-8")
    with pytest.raises(ImportDataError, match=rf"{name}:2: not JSON"):
        reader(fmt)(broken)


def test_unreadable_and_wrong_files_are_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ImportDataError, match="cannot be read"):
        reader("chatgpt")(tmp_path / "missing.json")
    not_sqlite = tmp_path / "logs.db"
    not_sqlite.write_text("hello", encoding="utf-8")
    with pytest.raises(ImportDataError, match="not an llm logs database"):
        reader("llm")(not_sqlite)
    other = tmp_path / "other.json"
    other.write_text('{"a": 1}', encoding="utf-8")
    with pytest.raises(ImportDataError, match="not a ChatGPT export"):
        reader("chatgpt")(other)
    with pytest.raises(ImportDataError, match=r"no .*jsonl files"):
        reader("codex")(tmp_path)
    with pytest.raises(
        UsageError, match=r"unknown import format 'chatgtp'.*did you mean 'chatgpt'"
    ):
        reader("chatgtp")
