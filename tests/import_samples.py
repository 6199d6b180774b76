"""Small sample files in each format `ctxchat import` reads, written as each tool writes
them (where each shape was checked is in the reader modules' docstrings,
`ctxchat/services/importers/`). Every sample holds one secret the screen must catch
(`SECRET`), the user saying where they live (`HOME_TOWN`), and a question answered."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

SECRET = "sk-proj-Zq8vN3xLw9TbR2mK7yHc4pJd6sFa1gEu0iWo5"
HOME_TOWN = "I live in Ghent."
QUESTION = "How do I reverse a list in Python?"
ANSWER = "Use reversed(xs) or xs[::-1]."


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def llm_logs(path: Path) -> Path:
    """llm's logs.db after its migrations (the columns `import` reads, and a few more)."""
    conn = sqlite3.connect(path)
    conn.executescript(
        """
        CREATE TABLE _llm_migrations (name TEXT PRIMARY KEY, applied_at TEXT);
        CREATE TABLE conversations (id TEXT PRIMARY KEY, name TEXT, model TEXT);
        CREATE TABLE responses (
            id TEXT PRIMARY KEY, model TEXT, prompt TEXT, system TEXT, prompt_json TEXT,
            options_json TEXT, response TEXT, response_json TEXT,
            conversation_id TEXT REFERENCES conversations(id), duration_ms INTEGER,
            datetime_utc TEXT, input_tokens INTEGER, output_tokens INTEGER,
            token_details TEXT, schema_id TEXT, resolved_model TEXT);
        """
    )
    conn.execute("INSERT INTO conversations VALUES ('01j0conv', 'Reversing lists', 'gpt-4o-mini')")
    rows = [
        ("01j0r1", QUESTION, ANSWER, "2024-06-01T09:00:00.000001"),
        ("01j0r2", f"{HOME_TOWN} My key is {SECRET}", "Noted.", "2024-06-01T09:05:00"),
    ]
    for ident, prompt, response, when in rows:
        conn.execute(
            "INSERT INTO responses (id, model, prompt, system, response, conversation_id, "
            "duration_ms, datetime_utc) VALUES (?, 'gpt-4o-mini', ?, 'be brief', ?, "
            "'01j0conv', 12, ?)",
            (ident, prompt, response, when),
        )
    conn.commit()
    conn.close()
    return path


def _node(ident: str, parent: str | None, children: list[str], message: Any) -> dict[str, Any]:
    return {"id": ident, "parent": parent, "children": children, "message": message}


def _chatgpt_message(ident: str, role: str, text: str, when: float) -> dict[str, Any]:
    return {
        "id": ident,
        "author": {"role": role, "name": None, "metadata": {}},
        "create_time": when,
        "update_time": None,
        "content": {"content_type": "text", "parts": [text]},
        "status": "finished_successfully",
        "weight": 1.0,
        "metadata": {"model_slug": "gpt-4o"} if role == "assistant" else {},
        "recipient": "all",
    }


def chatgpt(path: Path) -> Path:
    """conversations.json: one conversation whose tree has an abandoned branch (an edited
    question), which is not imported; the system root is not either."""
    start = 1717232400.0  # 2024-06-01 09:00 UTC
    mapping = {
        "root": _node("root", None, ["sys"], None),
        "sys": _node("sys", "root", ["u1", "u1old"], _chatgpt_message("sys", "system", "", start)),
        "u1old": _node(
            "u1old", "sys", [], _chatgpt_message("u1old", "user", "abandoned draft", start + 1)
        ),
        "u1": _node("u1", "sys", ["a1"], _chatgpt_message("u1", "user", QUESTION, start + 2)),
        "a1": _node("a1", "u1", ["u2"], _chatgpt_message("a1", "assistant", ANSWER, start + 3)),
        "u2": _node(
            "u2",
            "a1",
            ["a2"],
            _chatgpt_message("u2", "user", f"{HOME_TOWN} My key is {SECRET}", start + 60),
        ),
        "a2": _node("a2", "u2", [], _chatgpt_message("a2", "assistant", "Noted.", start + 61)),
    }
    conversation = {
        "title": "Reversing lists",
        "create_time": start,
        "update_time": start + 61,
        "mapping": mapping,
        "moderation_results": [],
        "current_node": "a2",
        "plugin_ids": None,
        "conversation_id": "6659a0b0-0000-4000-8000-000000000001",
        "id": "6659a0b0-0000-4000-8000-000000000001",
        "default_model_slug": "gpt-4o",
    }
    path.write_text(json.dumps([conversation]), encoding="utf-8")
    return path


def claude_code(folder: Path) -> Path:
    """A project folder with one session transcript: a tool call and its result."""
    session = "9f1c2d3e-4b5a-4c6d-8e7f-000000000002"
    base = {"sessionId": session, "cwd": "/home/u/proj", "version": "2.1.12", "gitBranch": ""}
    records = [
        {"type": "summary", "summary": "Reversing lists", "leafUuid": "a2"},
        {
            **base,
            "type": "user",
            "uuid": "u1",
            "parentUuid": None,
            "isSidechain": False,
            "userType": "external",
            "timestamp": "2024-06-01T09:00:00.000Z",
            "message": {"role": "user", "content": QUESTION},
        },
        {
            **base,
            "type": "assistant",
            "uuid": "a1",
            "parentUuid": "u1",
            "isSidechain": False,
            "timestamp": "2024-06-01T09:00:05.000Z",
            "message": {
                "role": "assistant",
                "model": "claude-sonnet-4-20250514",
                "content": [
                    {"type": "thinking", "thinking": "they want reversing"},
                    {"type": "text", "text": "Let me check the environment."},
                    {
                        "type": "tool_use",
                        "id": "toolu_01",
                        "name": "Bash",
                        "input": {"command": "env"},
                    },
                ],
            },
        },
        {
            **base,
            "type": "user",
            "uuid": "t1",
            "parentUuid": "a1",
            "isSidechain": False,
            "timestamp": "2024-06-01T09:00:06.000Z",
            "message": {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_01",
                        "content": f"HOME=/home/u\nOPENAI_API_KEY={SECRET}\n",
                    }
                ],
            },
            "toolUseResult": {"stdout": "..."},
        },
        {
            **base,
            "type": "assistant",
            "uuid": "a2",
            "parentUuid": "t1",
            "isSidechain": False,
            "timestamp": "2024-06-01T09:00:09.000Z",
            "message": {
                "role": "assistant",
                "model": "claude-sonnet-4-20250514",
                "content": [{"type": "text", "text": ANSWER}],
            },
        },
        {
            **base,
            "type": "user",
            "uuid": "u2",
            "parentUuid": "a2",
            "isSidechain": True,
            "timestamp": "2024-06-01T09:01:00.000Z",
            "message": {"role": "user", "content": "a subagent's own prompt"},
        },
        {
            **base,
            "type": "user",
            "uuid": "u3",
            "parentUuid": "a2",
            "isSidechain": False,
            "timestamp": "2024-06-01T09:02:00.000Z",
            "message": {"role": "user", "content": HOME_TOWN},
        },
    ]
    return write_jsonl(folder / "-home-u-proj" / f"{session}.jsonl", records).parent


def codex(folder: Path) -> Path:
    """A rollout file under sessions/YYYY/MM/DD/: its meta line, the context Codex
    injects, a shell call and its output."""
    session = "0190a1b2-c3d4-7e5f-8a9b-000000000003"
    stamp = "2024-06-01T09:00:00.000Z"

    def line(kind: str, payload: dict[str, Any], when: str = stamp) -> dict[str, Any]:
        return {"timestamp": when, "type": kind, "payload": payload}

    records = [
        line(
            "session_meta",
            {
                "id": session,
                "timestamp": stamp,
                "cwd": "/home/u/proj",
                "originator": "codex_cli_rs",
                "cli_version": "0.46.0",
                "instructions": None,
                "source": "cli",
            },
        ),
        line(
            "response_item",
            {
                "type": "message",
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "<environment_context>cwd</environment_context>"}
                ],
            },
        ),
        line(
            "response_item",
            {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": QUESTION}],
            },
        ),
        line("turn_context", {"cwd": "/home/u/proj", "model": "gpt-5-codex", "summary": "auto"}),
        line("event_msg", {"type": "user_message", "message": QUESTION, "kind": "plain"}),
        line("response_item", {"type": "reasoning", "summary": [], "encrypted_content": "gAAA"}),
        line(
            "response_item",
            {
                "type": "function_call",
                "name": "shell",
                "arguments": json.dumps({"command": ["env"]}),
                "call_id": "call_01",
            },
            "2024-06-01T09:00:04.000Z",
        ),
        line(
            "response_item",
            {
                "type": "function_call_output",
                "call_id": "call_01",
                "output": json.dumps({"output": f"OPENAI_API_KEY={SECRET}\n", "metadata": {}}),
            },
            "2024-06-01T09:00:05.000Z",
        ),
        line(
            "response_item",
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": ANSWER}],
            },
            "2024-06-01T09:00:08.000Z",
        ),
        line(
            "response_item",
            {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": HOME_TOWN}],
            },
            "2024-06-01T09:02:00.000Z",
        ),
    ]
    return write_jsonl(
        folder / "2024" / "06" / "01" / f"rollout-2024-06-01T09-00-00-{session}.jsonl", records
    ).parents[3]


def gptme(folder: Path) -> Path:
    """A logs folder with one conversation: its system prompt, and a tool's output written
    as a system message, neither imported."""
    name = "2024-06-01-reversing-lists"
    records = [
        {
            "role": "system",
            "content": "You are gptme.",
            "timestamp": "2024-06-01T09:00:00",
            "pinned": True,
        },
        {"role": "user", "content": QUESTION, "timestamp": "2024-06-01T09:00:01"},
        {
            "role": "assistant",
            "content": ANSWER,
            "timestamp": "2024-06-01T09:00:05",
            "metadata": {
                "model": "openai/gpt-4o",
                "usage": {"input_tokens": 10, "output_tokens": 5},
            },
        },
        {
            "role": "system",
            "content": f"Ran command: env\nKEY={SECRET}",
            "timestamp": "2024-06-01T09:00:06",
        },
        {
            "role": "user",
            "content": f"{HOME_TOWN} My key is {SECRET}",
            "timestamp": "2024-06-01T09:02:00",
        },
    ]
    write_jsonl(folder / name / "conversation.jsonl", records)
    return folder


def openai_jsonl(path: Path) -> Path:
    """What `ctxchat sessions export --format jsonl` writes (`core.openai_format`)."""
    records: list[dict[str, Any]] = [
        {"role": "user", "content": QUESTION},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_9",
                    "type": "function",
                    "function": {"name": "python", "arguments": json.dumps({"code": "env"})},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_9", "content": f"KEY={SECRET}"},
        {"role": "assistant", "content": ANSWER},
        {"role": "user", "content": HOME_TOWN},
    ]
    return write_jsonl(path, records)


# format name -> (writer, the name of what it writes under a folder)
SAMPLES = {
    "llm": (llm_logs, "logs.db"),
    "chatgpt": (chatgpt, "conversations.json"),
    "claude-code": (claude_code, "claude-projects"),
    "codex": (codex, "codex-sessions"),
    "gptme": (gptme, "gptme-logs"),
    "jsonl": (openai_jsonl, "exported.jsonl"),
}


def write_sample(fmt: str, folder: Path) -> Path:
    """The sample of `fmt` written under `folder`; the path to import."""
    writer, name = SAMPLES[fmt]
    folder.mkdir(parents=True, exist_ok=True)
    return writer(folder / name)
