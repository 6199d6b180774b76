"""Claude Code's session transcripts: `~/.claude/projects/<project>/<session>.jsonl`, a
file or a directory of them; each file a session.

Anthropic publishes no schema of these files; the shape was checked through the search
tool against the community's readers of them, which agree (DRMacIver/claude-reliability's
notes/transcript-format.md, Claude Code 2.1.12; spences10/claude-code-analytics;
hi-ogawa/llm-tasks' notes on the Claude Code data structure, January 2026): one JSON
object a line, `{type, uuid, parentUuid, sessionId, timestamp, isSidechain?, isMeta?,
message}`. A `user` line's `message.content` is the text, or a list of `text` and
`tool_result` blocks (`{tool_use_id, content}`, content a string or text blocks); an
`assistant` line's is a list of `text`, `thinking` and `tool_use` blocks (`{id, name,
input}`), with `message.model`. A `summary` line (`{type: "summary", summary}`) titles
the session. Sidechains (a subagent's own thread) and meta lines are left out, and so are
thinking blocks; other line types (`system`, `file-history-snapshot`, queue operations)
are not conversation.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .model import (
    ImportedCall,
    ImportedConversation,
    ImportedMessage,
    arguments_text,
    files_in,
    json_lines,
    parse_time,
    text_of,
)

SOURCE = "claude-code"


def read(path: Path) -> list[ImportedConversation]:
    found = [_session(file) for file in files_in(path, "*.jsonl")]
    return [c for c in found if c.messages]


def _session(path: Path) -> ImportedConversation:
    messages: list[ImportedMessage] = []
    key: str | None = None
    title: str | None = None
    model: str | None = None
    times = []
    for _, record in json_lines(path):
        kind = record.get("type")
        if kind == "summary" and isinstance(record.get("summary"), str):
            title = title or record["summary"]
            continue
        if kind not in ("user", "assistant") or record.get("isSidechain") or record.get("isMeta"):
            continue
        if key is None and isinstance(record.get("sessionId"), str):
            key = record["sessionId"]
        at = parse_time(record.get("timestamp"))
        if at is not None:
            times.append(at)
        message = record.get("message")
        if not isinstance(message, dict):
            continue
        if kind == "user":
            messages.extend(_user(message.get("content"), at))
        else:
            if isinstance(message.get("model"), str):
                model = message["model"]
            found = _assistant(message.get("content"), at)
            if found is not None:
                messages.append(found)
    return ImportedConversation(
        source=SOURCE,
        key=key or path.stem,
        title=title,
        created_at=min(times) if times else None,
        updated_at=max(times) if times else None,
        messages=tuple(messages),
        model=model,
    )


def _user(content: Any, at: Any) -> list[ImportedMessage]:
    if isinstance(content, str):
        return [ImportedMessage("user", content, at)] if content.strip() else []
    found: list[ImportedMessage] = []
    texts: list[str] = []
    for block in content if isinstance(content, list) else []:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "tool_result" and isinstance(block.get("tool_use_id"), str):
            result = block.get("content")
            found.append(ImportedMessage("tool", text_of(result), at, call_id=block["tool_use_id"]))
        elif block.get("type") == "text" and isinstance(block.get("text"), str):
            texts.append(block["text"])
    text = "\n\n".join(t for t in texts if t.strip())
    if text:
        found.append(ImportedMessage("user", text, at))
    return found


def _assistant(content: Any, at: Any) -> ImportedMessage | None:
    if isinstance(content, str):
        return ImportedMessage("assistant", content, at) if content.strip() else None
    texts: list[str] = []
    calls: list[ImportedCall] = []
    for block in content if isinstance(content, list) else []:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text" and isinstance(block.get("text"), str):
            texts.append(block["text"])
        elif block.get("type") == "tool_use" and isinstance(block.get("id"), str):
            name = block.get("name")
            calls.append(
                ImportedCall(
                    block["id"], str(name or "tool"), arguments_text(block.get("input") or {})
                )
            )
    text = "\n\n".join(t for t in texts if t.strip())
    if not text and not calls:
        return None
    return ImportedMessage("assistant", text, at, calls=tuple(calls))
