"""Messages as the OpenAI Chat Completions API writes them: what every OpenAI-compatible
endpoint is sent, and what a JSONL export holds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ctxchat.core.messages import ImagePart, Message, TextPart


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
        if message.images:
            item["content"] = content_parts(message)
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


def content_parts(message: Message) -> list[dict[str, Any]]:
    """A message with images as a list of content parts, in the order they were given:
    text as text parts, images as `image_url` parts holding their data."""
    content: list[dict[str, Any]] = []
    for part in message.parts:
        if isinstance(part, TextPart):
            content.append({"type": "text", "text": part.text})
        elif isinstance(part, ImagePart):
            content.append({"type": "image_url", "image_url": {"url": part.data_url}})
    return content
