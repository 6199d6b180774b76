"""Small pieces every view of sessions and messages shares: how times, titles and long
texts are shortened for people. Plain text, nothing terminal-specific."""

from __future__ import annotations

from datetime import datetime

UNTITLED = "(untitled)"
# Titles in lists (`sessions list`, /sessions, prune) are cut to this many characters: a
# title can be renamed to anything, and one of a megabyte must not bury the list.
TITLE_SHOWN = 80
# The largest message sent, in bytes: about 250k tokens of English, already past most
# models' context windows. Here rather than beside the input reader so that `run --help`
# can show it without importing messages.
DEFAULT_MAX_INPUT_BYTES = 1_000_000


def local_time(moment: datetime) -> str:
    """A moment in the user's time zone, to the minute: `2026-11-30 15:34`."""
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")


def local_date(moment: datetime) -> str:
    return moment.astimezone().strftime("%Y-%m-%d")


def preview(text: str, limit: int = 72) -> str:
    """`text` on one line, cut to `limit` characters with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def title_or_untitled(title: str | None) -> str:
    return title or UNTITLED


def plural(count: int, noun: str, plural_noun: str | None = None) -> str:
    """`1 turn`, `2 turns`, `0 turns`; `plural_noun` for nouns that do not just take an s."""
    word = noun if count == 1 else (plural_noun or noun + "s")
    return f"{count:,} {word}"
