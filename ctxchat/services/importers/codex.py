"""Codex CLI's rollout files: `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`, a file or a
directory of them; each file a session.

Shape checked through the search tool against openai/codex's own source,
codex-rs/protocol/src/models.rs and protocol.rs (as indexed in December 2026, CLI 0.4x to
0.6x): each line a `RolloutLine` `{timestamp, type, payload}` whose `type` tags a
`RolloutItem`: `session_meta` (`{id, timestamp, cwd, cli_version, ...}`),
`turn_context` (`{model, ...}`), `response_item`, `event_msg`, `compacted`. A
`response_item` payload is a `ResponseItem`: `message` `{role, content: [{type:
input_text|output_text, text}]}`, `function_call` `{name, arguments (JSON text),
call_id}`, `function_call_output` `{call_id, output}` (a string, or content items),
`custom_tool_call` `{call_id, name, input}` and its `custom_tool_call_output`, and
`local_shell_call` `{call_id, action}`. Older rollouts (before the `payload` envelope)
have the session's `{id, timestamp}` on the first line and the response items bare on the
next; both are read. Reasoning (encrypted), event messages (a copy of the same turns for
the UI) and the context Codex itself injects as user messages (`<environment_context>`,
`<user_instructions>`, AGENTS.md instructions) are left out.
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

SOURCE = "codex"
ITEM_TYPES = frozenset(
    {
        "message",
        "function_call",
        "function_call_output",
        "custom_tool_call",
        "custom_tool_call_output",
        "local_shell_call",
        "reasoning",
    }
)
INJECTED = ("<environment_context>", "<user_instructions>", "# AGENTS.md instructions")


def read(path: Path) -> list[ImportedConversation]:
    found = [_session(file) for file in files_in(path, "*.jsonl")]
    return [c for c in found if c.messages]


def _session(path: Path) -> ImportedConversation:
    key: str | None = None
    started = None
    model: str | None = None
    messages: list[ImportedMessage] = []
    times = []
    for _, record in json_lines(path):
        kind, payload = record.get("type"), record.get("payload")
        at = parse_time(record.get("timestamp"))
        if not isinstance(payload, dict):
            # The older shape: the session's meta line, then bare response items.
            if kind in ITEM_TYPES:
                kind, payload = "response_item", record
            elif key is None and isinstance(record.get("id"), str):
                key, started = record["id"], parse_time(record.get("timestamp"))
                continue
            else:
                continue
        if kind == "session_meta":
            if isinstance(payload.get("id"), str):
                key = key or payload["id"]
            started = started or parse_time(payload.get("timestamp")) or at
        elif kind == "turn_context" and isinstance(payload.get("model"), str):
            model = payload["model"]
        elif kind == "response_item":
            message = _item(payload, at)
            if message is not None:
                messages.append(message)
                if at is not None:
                    times.append(at)
    return ImportedConversation(
        source=SOURCE,
        key=key or path.stem,
        title=None,
        created_at=started or (min(times) if times else None),
        updated_at=max(times) if times else None,
        messages=tuple(messages),
        model=model,
    )


def _item(item: dict[str, Any], at: Any) -> ImportedMessage | None:
    kind = item.get("type")
    if kind == "message":
        role = item.get("role")
        text = text_of(item.get("content"))
        if role not in ("user", "assistant") or not text.strip():
            return None
        if role == "user" and text.lstrip().startswith(INJECTED):
            return None
        return ImportedMessage(role, text, at)
    call_id = item.get("call_id")
    if not isinstance(call_id, str) or not call_id:
        return None
    if kind in ("function_call", "custom_tool_call", "local_shell_call"):
        name = item.get("name") or ("local_shell" if kind == "local_shell_call" else "tool")
        raw = item.get("arguments", item.get("input", item.get("action", {})))
        call = ImportedCall(call_id, str(name), arguments_text(raw))
        return ImportedMessage("assistant", "", at, calls=(call,))
    if kind in ("function_call_output", "custom_tool_call_output"):
        output = item.get("output")
        if isinstance(output, dict):  # an older payload: {content, success}
            output = output.get("content", "")
        return ImportedMessage("tool", text_of(output), at, call_id=call_id)
    return None
