"""gptme's conversation logs: `~/.local/share/gptme/logs/<name>/conversation.jsonl`, the
file, one conversation's folder, or the logs folder; each conversation a session, named by
its folder.

Shape checked through the search tool against gptme's own source (gptme/message.py's
`Message` and gptme/logmanager/, the repository as indexed in December 2026, gptme
0.2x): one message a line, `{role: system|user|assistant, content, timestamp (ISO),
files?, pinned?, hide?, call_id?, metadata?: {model?, usage?, cost?}}`. gptme's system
messages (its prompt, and the output of its tools, which gptme writes as system messages)
are left out, as ctxchat keeps no system message inside a conversation; so are hidden
ones.
"""

from __future__ import annotations

from pathlib import Path

from .model import (
    ImportedConversation,
    ImportedMessage,
    files_in,
    json_lines,
    parse_time,
)

SOURCE = "gptme"


def read(path: Path) -> list[ImportedConversation]:
    found = [_conversation(file) for file in files_in(path, "conversation.jsonl")]
    return [c for c in found if c.messages]


def _conversation(path: Path) -> ImportedConversation:
    messages: list[ImportedMessage] = []
    model: str | None = None
    times = []
    for _, record in json_lines(path):
        role, content = record.get("role"), record.get("content")
        at = parse_time(record.get("timestamp"))
        if at is not None:
            times.append(at)
        if role not in ("user", "assistant") or record.get("hide"):
            continue
        if not isinstance(content, str) or not content.strip():
            continue
        metadata = record.get("metadata")
        if role == "assistant" and isinstance(metadata, dict) and metadata.get("model"):
            model = str(metadata["model"])
        messages.append(ImportedMessage(role, content, at))
    name = path.parent.name if path.name == "conversation.jsonl" else path.stem
    return ImportedConversation(
        source=SOURCE,
        key=name,
        title=name,
        created_at=min(times) if times else None,
        updated_at=max(times) if times else None,
        messages=tuple(messages),
        model=model,
    )
