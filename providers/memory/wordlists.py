"""Word lists written as text: "a, b, c" and "key=value, ..." (one entry may span words)."""

from __future__ import annotations


def phrases(text: str) -> list[str]:
    """Comma-separated phrases; line breaks are spaces."""
    return [p.strip() for p in " ".join(text.split()).split(",") if p.strip()]


def pairs(text: str) -> dict[str, str]:
    """Comma-separated `key=value` pairs."""
    out: dict[str, str] = {}
    for item in phrases(text):
        key, _, value = item.partition("=")
        out[key.strip()] = value.strip()
    return out
