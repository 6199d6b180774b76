"""Replies set aside by `/retry --model NAME`, as the session's state keeps them: beside
the conversation, never in it, so no model is sent them again; exports show them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ctxchat.core.messages import Message
from ctxchat.core.session import Session

STATE_KEY = "alternatives"


@dataclass(frozen=True)
class Alternative:
    turn: int  # the turn (1-based) it answered
    model: str
    messages: tuple[Message, ...]

    @property
    def text(self) -> str:
        return "\n\n".join(m.text for m in self.messages if m.role == "assistant" and m.text)


def alternatives(session: Session) -> list[Alternative]:
    """The replies kept aside in `session`, oldest first; malformed entries are skipped."""
    value: Any = session.state.get(STATE_KEY, {})
    kept: list[Alternative] = []
    for entry in value.get("replies", []) if isinstance(value, dict) else []:
        try:
            messages = tuple(Message.from_dict(m) for m in entry["messages"])
            kept.append(Alternative(int(entry["turn"]), str(entry["model"]), messages))
        except (KeyError, TypeError, ValueError):
            continue
    return kept
