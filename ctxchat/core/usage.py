"""The usage ledger's shapes: what a history that keeps a ledger of each stored turn's
tokens hands to `ctxchat usage` and `/cost` (see `ctxchat.services.usage`).

A turn's tokens are None when the endpoint did not report them: unknown, never 0, so a
total says how many turns it could not count instead of quietly being too low. A turn
stored before the ledger existed has a row that says so (`recorded` False).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

Grouping = Literal["model", "session", "day", "role"]
GROUPINGS: tuple[Grouping, ...] = ("model", "session", "day", "role")


@dataclass(frozen=True)
class UsageGroup:
    """The ledger's rows of one group (`key`: a model, a session's history key, a UTC day
    `YYYY-MM-DD` or a role; "" when the rows name none) and one model, summed."""

    key: str
    model: str
    turns: int  # recorded turns, usage known or not
    unknown: int  # recorded turns whose usage the endpoint did not report
    unrecorded: int  # turns stored before the ledger existed
    input_tokens: int  # of the turns whose usage is known
    output_tokens: int


@dataclass(frozen=True)
class UsageLine:
    """One group of the report (or the total, `key` "total")."""

    key: str
    turns: int
    unknown: int
    unrecorded: int
    input_tokens: int
    output_tokens: int
    cost: float | None
    cost_partial: bool
    unpriced: tuple[str, ...]  # models of the group without a price

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "turns": self.turns,
            "unknown_turns": self.unknown,
            "unrecorded_turns": self.unrecorded,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "cost": self.cost,
            "cost_partial": self.cost_partial,
            "unpriced_models": list(self.unpriced),
        }


@dataclass(frozen=True)
class UsageReport:
    by: Grouping
    since: datetime | None
    lines: tuple[UsageLine, ...]
    total: UsageLine

    def to_dict(self) -> dict[str, Any]:
        return {
            "by": self.by,
            "since": self.since.isoformat() if self.since is not None else None,
            "groups": [line.to_dict() for line in self.lines],
            "total": self.total.to_dict(),
        }
