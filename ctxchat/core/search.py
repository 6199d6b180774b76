"""Searching stored conversations: what a history that can be searched offers, what a
match is, and how a query becomes words.

A query is words, nothing else: whatever a user (or a model) types is cut into words here
and handed to the database as plain terms. Any of them may match; a message holding more of
them, or holding them as a phrase, ranks higher (see `ctxchat.ranking.message_rank`). No
query syntax of either database ever reaches it, so no input can make a search fail with an
SQL error or mean something other than its words.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

# Where a snippet's matched words start and end, as the databases mark them; taken out of
# the stored text first (see `history.index.searchable_text`), so they never occur in it.
MATCH_START = "\x02"
MATCH_END = "\x03"
MAX_TERMS = 32  # words of a query used: a pasted page would otherwise match nothing, slowly

_WORD = re.compile(r"\w+")


def query_terms(query: str) -> list[str]:
    """The words of `query`, in order, each once (case-insensitively)."""
    seen: dict[str, str] = {}
    for word in _WORD.findall(query):
        seen.setdefault(word.casefold(), word)
    return list(seen.values())[:MAX_TERMS]


@dataclass(frozen=True)
class Neighbour:
    """The turn beside a hit: the reply to a user's message, or the message an assistant's
    replied to (its text flattened and clipped)."""

    seq: int
    role: str
    created_at: datetime
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"role": self.role, "created_at": self.created_at.isoformat(), "text": self.text}


@dataclass(frozen=True)
class MessageHit:
    """A stored message that matched: under which history key, its place there, and a
    snippet of its text with the matched words between MATCH_START and MATCH_END.
    `score`: higher is better, comparable within one search only. `local`: written from
    this home (a hit of the same user from another home sharing the database is not)."""

    key: str
    seq: int
    role: str
    created_at: datetime
    snippet: str
    score: float
    local: bool = True
    neighbour: Neighbour | None = None
    # The share of the query's weight the message holds, 0 to 1 (see `message_rank`).
    relevance: float = 0.0
    text: str = ""  # the message's text, flattened and clipped (what recall injects)
    message_id: str = ""  # the stored message's own id (what a forget's provenance names)


# Which hits a search leaves out, decided on each ranked hit (for instance the messages a
# forgotten fact came from); the search reads on past them, so they leave room for others.
HitFilter = Callable[[MessageHit], bool]


def snippet_spans(snippet: str) -> tuple[tuple[str, bool], ...]:
    """A marked snippet as (text, matched) pieces, for a renderer to highlight."""
    spans: list[tuple[str, bool]] = []
    for i, piece in enumerate(re.split(f"[{MATCH_START}{MATCH_END}]", snippet)):
        if piece:
            spans.append((piece, i % 2 == 1))
    return tuple(spans)


@dataclass(frozen=True)
class SessionHit:
    session_id: str
    title: str | None
    role: str
    created_at: datetime
    snippet: tuple[tuple[str, bool], ...]  # (text, matched) pieces
    score: float
    neighbour: Neighbour | None = None

    @property
    def snippet_text(self) -> str:
        return "".join(text for text, _ in self.snippet)

    def to_dict(self) -> dict[str, Any]:
        """For `--json`: the snippet as text, with where each matched word is in it."""
        highlights: list[list[int]] = []
        at = 0
        for text, matched in self.snippet:
            if matched:
                highlights.append([at, at + len(text)])
            at += len(text)
        return {
            "session": self.session_id,
            "title": self.title,
            "role": self.role,
            "created_at": self.created_at.isoformat(),
            "snippet": self.snippet_text,
            "highlights": highlights,
            "score": self.score,
            "neighbour": self.neighbour.to_dict() if self.neighbour is not None else None,
        }
