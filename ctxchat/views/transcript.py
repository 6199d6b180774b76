"""A stored conversation seen as turns: each starts at a user message."""

from __future__ import annotations

from collections.abc import Sequence

from ctxchat.core.messages import Message


def group_turns(messages: Sequence[Message]) -> list[list[Message]]:
    """Messages grouped by turn. Anything before the first user message (context a history
    stored without an input) forms a turn of its own."""
    turns: list[list[Message]] = []
    for message in messages:
        if message.role == "user" or not turns:
            turns.append([message])
        else:
            turns[-1].append(message)
    return turns


def last_turns(messages: Sequence[Message], count: int) -> list[list[Message]]:
    if count <= 0:
        return []
    return group_turns(messages)[-count:]


def last_user_message(messages: Sequence[Message]) -> Message | None:
    for message in reversed(messages):
        if message.role == "user":
            return message
    return None


def reasoning_of(messages: Sequence[Message]) -> str:
    """What the model thought aloud in these messages (one turn's replies), in order."""
    return "\n\n".join(m.reasoning for m in messages if m.role == "assistant" and m.reasoning)


def last_reasoning(messages: Sequence[Message]) -> str:
    """The reasoning of the last turn that has any; "" when none does."""
    for turn in reversed(group_turns(messages)):
        text = reasoning_of(turn)
        if text:
            return text
    return ""
