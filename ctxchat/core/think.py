"""Reasoning written into the reply text: a `<think>...</think>` block at its start, as
models that think aloud (DeepSeek R1 and its distillations, Qwen3) emit it through servers
that leave it in the content. Split off as it streams, so the reply proper never shows it.
"""

from __future__ import annotations

from typing import Literal

OPEN = "<think>"
CLOSE = "</think>"

Kind = Literal["reasoning", "text"]


class ThinkSplitter:
    """Feed the content as it streams; get back (kind, text) pieces. Only a block that opens
    the content counts (leading whitespace aside): a `<think>` later on is text. A tag split
    between two pieces is held back until it is whole."""

    def __init__(self) -> None:
        self.state: Literal["start", "thinking", "after", "text"] = "start"
        self.held = ""

    def feed(self, piece: str) -> list[tuple[Kind, str]]:
        out: list[tuple[Kind, str]] = []
        text = self.held + piece
        self.held = ""
        if self.state == "start":
            stripped = text.lstrip()
            if stripped.startswith(OPEN):
                self.state = "thinking"
                text = stripped[len(OPEN) :]
            elif OPEN.startswith(stripped):
                self.held = text  # all whitespace, or the start of "<think>": wait
                return out
            else:
                self.state = "text"
        if self.state == "thinking":
            end = text.find(CLOSE)
            if end == -1:
                keep = _partial_suffix(text, CLOSE)
                self.held = text[len(text) - keep :] if keep else ""
                _add(out, "reasoning", text[: len(text) - keep])
                return out
            _add(out, "reasoning", text[:end])
            self.state = "after"
            text = text[end + len(CLOSE) :]
        if self.state == "after":
            text = text.lstrip()  # the blank line between the block and the reply
            if not text:
                return out
            self.state = "text"
        _add(out, "text", text)
        return out

    def flush(self) -> list[tuple[Kind, str]]:
        """What was held back when the content ends: an unclosed block is all reasoning."""
        held, self.held = self.held, ""
        out: list[tuple[Kind, str]] = []
        if self.state == "thinking":
            _add(out, "reasoning", held)
        elif self.state != "after":
            _add(out, "text", held)
        return out


def _add(out: list[tuple[Kind, str]], kind: Kind, text: str) -> None:
    if text:
        out.append((kind, text))


def _partial_suffix(text: str, tag: str) -> int:
    """How many characters at the end of `text` could be the start of `tag`."""
    for size in range(min(len(tag) - 1, len(text)), 0, -1):
        if tag.startswith(text[-size:]):
            return size
    return 0
