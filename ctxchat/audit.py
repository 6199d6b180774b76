"""What an audit provider records of each turn, and how the CLI asks for it.

Any provider can offer an audit trail by implementing `AuditSource`; the CLI renders every
provider that does, without knowing its type.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from ctxchat.messages import Message, Usage


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


@runtime_checkable
class AuditSource(Protocol):
    source_id: str

    async def audit_records(
        self, session_id: str, *, state: dict[str, Any], limit: int | None = None
    ) -> list[AuditRecord]:
        """Recorded turns, oldest first (the last `limit` when given)."""
        ...
