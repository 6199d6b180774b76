"""Messages as the OpenAI Chat Completions API writes them: what every OpenAI-compatible
endpoint is sent, and what a JSONL export holds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ctxchat.core.messages import Message


def to_openai_messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """Messages in Chat Completions form; a message with several tool results becomes several.

    A reply's reasoning (`ReasoningPart`) is left out: `text` holds only what the model
    answered, and what it thought aloud before is never sent back to a model."""
    converted: list[dict[str, Any]] = []
    for message in messages:
        if message.role == "tool":
            converted.extend(
                {"role": "tool", "tool_call_id": r.call_id, "content": r.content}
                for r in message.tool_results
            )
            continue
        item: dict[str, Any] = {"role": message.role, "content": message.text}
        if message.name and message.role == "user":
            item["name"] = message.name
        calls = message.tool_calls
        if message.role == "assistant" and calls:
            item["content"] = message.text or None
            item["tool_calls"] = [
                {
                    "id": c.id,
                    "type": "function",
                    "function": {"name": c.name, "arguments": c.arguments},
                }
                for c in calls
            ]
        converted.append(item)
    return converted
