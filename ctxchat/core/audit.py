"""What an audit provider records of each turn, and how the CLI asks for it.

Any provider can offer an audit trail by implementing `AuditSource`; the CLI renders every
provider that does, without knowing its type.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ctxchat.core.messages import Message, MessageFormatError, Usage

# 2: usage keys are input_tokens/output_tokens (1 said input/output; still read).
RECORD_VERSION = 2


@dataclass(frozen=True)
class AuditRecord:
    """One turn as the model really saw it, successful or not."""

    turn_id: str
    created_at: datetime
    ok: bool
    error: str | None
    input_messages: tuple[Message, ...]
    # source_id -> what that provider contributed, in provider order
    instructions: dict[str, str] = field(default_factory=dict)
    context_messages: dict[str, tuple[Message, ...]] = field(default_factory=dict)
    tools: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # everything the model produced: assistant messages, tool calls and tool results
    response_messages: tuple[Message, ...] = ()
    usage: Usage | None = None
    # What the context budget measured and trimmed (`BudgetReport.to_dict()`), if it ran.
    budget: Mapping[str, Any] | None = None
    # What was taken out of this record since it was written (a forgotten fact's value,
    # replaced by its marker): [{"marker", "count", "sources"}], oldest first.
    removed: tuple[Mapping[str, Any], ...] = ()
    # Why the record was written after the fact, from the history (its process was killed
    # before it recorded the turn): what the model was sent besides is not known.
    recovered: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """A versioned, JSON-ready form: what the audit stores, and what exports carry."""
        return {
            "v": RECORD_VERSION,
            "turn_id": self.turn_id,
            "created_at": self.created_at.isoformat(),
            "ok": self.ok,
            "error": self.error,
            "input": _dicts(self.input_messages),
            "instructions": dict(self.instructions),
            "context": {k: _dicts(v) for k, v in self.context_messages.items()},
            "tools": {k: list(v) for k, v in self.tools.items()},
            "response": _dicts(self.response_messages),
            "usage": self.usage.to_dict() if self.usage is not None else None,
            "budget": dict(self.budget) if self.budget is not None else None,
            **({"removed": [dict(r) for r in self.removed]} if self.removed else {}),
            **({"recovered": self.recovered} if self.recovered is not None else {}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], created_at: datetime | None = None) -> AuditRecord:
        """Raises `MessageFormatError` for anything it cannot read."""
        try:
            if data.get("v", 1) > RECORD_VERSION:
                raise MessageFormatError(f"audit record version {data['v']} is newer than ctxchat")
            usage = data.get("usage")
            return cls(
                turn_id=str(data["turn_id"]),
                created_at=created_at or datetime.fromisoformat(data["created_at"]),
                ok=bool(data["ok"]),
                error=data.get("error"),
                input_messages=_messages(data["input"]),
                instructions={str(k): str(v) for k, v in data["instructions"].items()},
                context_messages={str(k): _messages(v) for k, v in data["context"].items()},
                tools={str(k): tuple(str(n) for n in v) for k, v in data["tools"].items()},
                response_messages=_messages(data["response"]),
                usage=Usage.from_dict(usage) if usage else None,
                budget=data.get("budget"),
                removed=tuple(dict(r) for r in data.get("removed", ())),
                recovered=_optional_text(data.get("recovered")),
            )
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise MessageFormatError(f"malformed audit record: {exc!r}") from exc


def removed_note(removed: Mapping[str, Any]) -> str:
    """One line saying what was taken out of a record since it was written."""
    where = ", ".join(str(s) for s in removed.get("sources", ()))
    return f"removed since: {removed.get('count', 0)} × {removed.get('marker')} (in {where})"


def _optional_text(value: Any) -> str | None:
    return None if value is None else str(value)


def _dicts(messages: Iterable[Message]) -> list[dict[str, Any]]:
    return [m.to_dict() for m in messages]


def _messages(items: Iterable[Any]) -> tuple[Message, ...]:
    return tuple(Message.from_dict(item) for item in items)


AuditTrail = list[tuple[str, list[AuditRecord]]]  # (source_id, records oldest first)
