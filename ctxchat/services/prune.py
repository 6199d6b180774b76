"""Ages for `sessions prune --older-than`: `30d`, `12h`, `6mo`..."""

from __future__ import annotations

import re
from datetime import timedelta

from ctxchat.core.errors import UsageError

# Calendar units are fixed lengths: "older than 1mo" is a cut-off, not a date calculation.
_UNITS = {
    "s": timedelta(seconds=1),
    "min": timedelta(minutes=1),
    "m": timedelta(minutes=1),  # documented as minutes from the start; "mo" is months
    "h": timedelta(hours=1),
    "d": timedelta(days=1),
    "w": timedelta(weeks=1),
    "mo": timedelta(days=30),
    "y": timedelta(days=365),
}
_AGE = re.compile(r"^\s*(\d+)\s*(min|mo|[smhdwy])\s*$", re.IGNORECASE)
UNITS_HELP = "s, min (or m), h, d, w, mo (30 days), y (365 days)"


def parse_age(text: str) -> timedelta:
    """`90s`, `15min`, `12h`, `30d`, `2w`, `6mo` or `1y`: a plain number of a unit."""
    found = _AGE.match(text)
    if not found:
        raise UsageError(
            f"--older-than: '{text}' is not an age; use a number and a unit, "
            f"e.g. 30d, 12h, 2w, 6mo, 1y (units: {UNITS_HELP})"
        )
    amount = int(found.group(1))
    if amount == 0:
        raise UsageError("--older-than: the age must be more than 0")
    try:
        return amount * _UNITS[found.group(2).lower()]
    except OverflowError:
        raise UsageError(f"--older-than: '{text}' is too long ago") from None
