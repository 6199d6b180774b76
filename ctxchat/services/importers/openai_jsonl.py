"""OpenAI-format JSONL: chat messages one a line, as the Chat Completions API takes them
and as `ctxchat sessions export --format jsonl` writes them (`ctxchat.core.openai_format`:
`{role, content, name?, tool_calls?: [{id, type: function, function: {name,
arguments}}]}`, `{role: tool, tool_call_id, content}`), so an export imports back; a file
is one conversation. A file whose lines are each `{"messages": [...]}` (the shape of
OpenAI's fine-tuning data) is a conversation a line.

Such a file holds no dates and no title: the session takes the file's name as its title
and its modification time as its date. Its key is the digest of the file's (or the line's)
bytes, so importing the same file twice finds the first import. System messages are left
out, as ctxchat keeps no system message in a conversation.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .model import (
    ImportDataError,
    ImportedCall,
    ImportedConversation,
    ImportedMessage,
    arguments_text,
    files_in,
    json_lines,
    text_of,
)

SOURCE = "jsonl"


def read(path: Path) -> list[ImportedConversation]:
    return [c for file in files_in(path, "*.jsonl") for c in _file(file) if c.messages]


def _file(path: Path) -> list[ImportedConversation]:
    records = list(json_lines(path))
    try:
        when = datetime.fromtimestamp(path.stat().st_mtime, UTC)
    except OSError:
        when = None
    if records and all(isinstance(r.get("messages"), list) for _, r in records):
        return [
            _conversation(
                f"{path}:{number}",
                record["messages"],
                _digest(record),
                f"{path.stem} {number}",
                when,
            )
            for number, record in records
        ]
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    return [_conversation(str(path), [r for _, r in records], digest, path.stem, when)]


def _digest(record: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()


def _conversation(
    where: str, items: list[Any], key: str, title: str, when: datetime | None
) -> ImportedConversation:
    messages = []
    for index, item in enumerate(items, 1):
        if not isinstance(item, dict) or not isinstance(item.get("role"), str):
            raise ImportDataError(f"{where}: message {index} is not a chat message (no role)")
        found = _message(item)
        if found is not None:
            messages.append(found)
    return ImportedConversation(SOURCE, key, title, when, tuple(messages), updated_at=when)


def _message(item: dict[str, Any]) -> ImportedMessage | None:
    role = item["role"]
    if role == "tool":
        call_id = item.get("tool_call_id")
        if not isinstance(call_id, str):
            return None
        return ImportedMessage("tool", text_of(item.get("content")), call_id=call_id)
    if role not in ("user", "assistant"):
        return None
    calls = []
    for call in item.get("tool_calls") or []:
        function = call.get("function") if isinstance(call, dict) else None
        if isinstance(function, dict) and isinstance(call.get("id"), str):
            calls.append(
                ImportedCall(
                    call["id"],
                    str(function.get("name") or "tool"),
                    arguments_text(function.get("arguments", "")),
                )
            )
    text = text_of(item.get("content"))
    if not text.strip() and not calls:
        return None
    return ImportedMessage(role, text, calls=tuple(calls))
