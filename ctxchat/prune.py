"""Choosing sessions to prune: ages like `30d` and the sessions last used before them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from ctxchat.errors import UsageError
from ctxchat.store import SessionSummary

_UNITS = {
    "s": timedelta(seconds=1),
    "m": timedelta(minutes=1),
    "h": timedelta(hours=1),
    "d": timedelta(days=1),
    "w": timedelta(weeks=1),
}
_AGE = re.compile(r"^\s*(\d+)\s*([smhdw])\s*$", re.IGNORECASE)


def parse_age(text: str) -> timedelta:
    """`90s`, `15m`, `12h`, `30d` or `2w`: a plain number of a unit, nothing else."""
    found = _AGE.match(text)
    if not found:
        raise UsageError(
            f"--older-than: '{text}' is not an age; use a number and a unit, "
            "e.g. 30d, 12h, 2w (units: s, m, h, d, w)"
        )
    amount = int(found.group(1))
    if amount == 0:
        raise UsageError("--older-than: the age must be more than 0")
    try:
        return amount * _UNITS[found.group(2).lower()]
    except OverflowError:
        raise UsageError(f"--older-than: '{text}' is too long ago") from None


def older_than(
    sessions: Sequence[SessionSummary], age: timedelta, *, now: datetime | None = None
) -> list[SessionSummary]:
    """Sessions last used more than `age` ago, oldest first."""
    now = now or datetime.now(UTC)
    try:
        cutoff = now - age
    except OverflowError:
        return []
    chosen = [s for s in sessions if s.updated_at < cutoff]
    return sorted(chosen, key=lambda s: s.updated_at)
