"""A ChatGPT data export's `conversations.json` (Settings, Data controls, Export): each
conversation a session, the branch the user last saw (`current_node`) its messages.

The shape, as the export writes it and as the many public readers of it (through the
search tool: mitkury/chatgpt-export-parser's docs/chatgpt-data-export-format.md, and the
TypeScript types of several export viewers) describe it, exports of 2024 and 2025: a JSON
array of conversations `{id | conversation_id, title, create_time, update_time (seconds
since the epoch), current_node, default_model_slug?, mapping}`, where `mapping` is a tree
`{node_id: {id, parent, children, message | null}}` and a message is `{id, author: {role},
create_time, content: {content_type, parts: [...]}, metadata: {model_slug?,
is_visually_hidden_from_conversation?}}`. OpenAI publishes no schema of it. Only the
user's and the assistant's text are imported (`text` and `multimodal_text` parts that are
strings): system and hidden messages, tool and browsing steps, images and code-interpreter
output are not.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .model import (
    ImportDataError,
    ImportedConversation,
    ImportedMessage,
    parse_time,
    read_json,
)

SOURCE = "chatgpt"
TEXT_TYPES = frozenset({"text", "multimodal_text"})


def read(path: Path) -> list[ImportedConversation]:
    if path.is_dir():
        path = path / "conversations.json"
    data = read_json(path)
    if isinstance(data, dict) and "mapping" in data:
        data = [data]
    if not isinstance(data, list):
        raise ImportDataError(f"{path}: not a ChatGPT export (a list of conversations)")
    found = []
    for number, item in enumerate(data, 1):
        if not isinstance(item, dict) or not isinstance(item.get("mapping"), dict):
            raise ImportDataError(
                f"{path}: conversation {number} is not a ChatGPT conversation (no mapping)"
            )
        found.append(_conversation(item, path, number))
    return found


def _conversation(item: dict[str, Any], path: Path, number: int) -> ImportedConversation:
    key = item.get("conversation_id") or item.get("id")
    if not isinstance(key, str) or not key:
        raise ImportDataError(f"{path}: conversation {number} has no id")
    mapping: dict[str, Any] = item["mapping"]
    messages: list[ImportedMessage] = []
    model = item.get("default_model_slug")
    for node in _branch(mapping, item.get("current_node")):
        message = node.get("message") if isinstance(node, dict) else None
        if not isinstance(message, dict):
            continue
        role = (message.get("author") or {}).get("role")
        metadata = message.get("metadata") or {}
        hidden = metadata.get("is_visually_hidden_from_conversation")
        if role not in ("user", "assistant") or hidden:
            continue
        content = message.get("content") or {}
        if content.get("content_type") not in TEXT_TYPES:
            continue
        parts = content.get("parts") or []
        text = "\n\n".join(p for p in parts if isinstance(p, str) and p)
        if not text.strip():
            continue
        if role == "assistant" and isinstance(metadata.get("model_slug"), str):
            model = metadata["model_slug"]
        messages.append(ImportedMessage(role, text, parse_time(message.get("create_time"))))
    title = item.get("title")
    return ImportedConversation(
        source=SOURCE,
        key=key,
        title=title if isinstance(title, str) and title else None,
        created_at=parse_time(item.get("create_time")),
        updated_at=parse_time(item.get("update_time")),
        messages=tuple(messages),
        model=model if isinstance(model, str) else None,
    )


def _branch(mapping: dict[str, Any], current: Any) -> list[Any]:
    """The nodes from the root to `current` (else to the newest leaf), root first; a
    cycle in a damaged file ends the walk instead of looping."""
    if not isinstance(current, str) or current not in mapping:
        leaves = [n for n in mapping.values() if isinstance(n, dict) and not n.get("children")]
        if not leaves:
            return []
        current = max(leaves, key=_node_time).get("id")
    chain: list[Any] = []
    seen: set[str] = set()
    while isinstance(current, str) and current in mapping and current not in seen:
        seen.add(current)
        node = mapping[current]
        chain.append(node)
        current = node.get("parent") if isinstance(node, dict) else None
    return chain[::-1]


def _node_time(node: dict[str, Any]) -> float:
    message = node.get("message")
    when = message.get("create_time") if isinstance(message, dict) else None
    return float(when) if isinstance(when, int | float) else 0.0
