"""Small pieces of English shared by every report: counts with their nouns."""

from __future__ import annotations


def plural(count: int, noun: str, plural_noun: str | None = None) -> str:
    """`1 turn`, `2 turns`, `0 turns`; `plural_noun` for nouns that do not just take an s."""
    word = noun if count == 1 else (plural_noun or noun + "s")
    return f"{count:,} {word}"
