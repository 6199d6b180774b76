"""The recall block: what is injected before each model call.

Deterministic and bounded: at most `max_facts` lines and `max_chars` characters. Reply-style
preferences come first (they shape every answer), then the facts the ranker finds relevant to
the current input, then the rest, newest first. One line says the facts may be out of date.
Nothing is injected when nothing is remembered.
"""

from __future__ import annotations

from collections.abc import Sequence

from .facts import Fact
from .rank import Rank, word_overlap
from .slots import is_style, slot_info

HEADER = "What the user has told you about themselves in earlier conversations:"
FOOTNOTE = "These notes may be out of date; if the user says otherwise, believe the user."


def fact_line(fact: Fact) -> str:
    return f"- {slot_info(fact.slot).label}: {fact.value}"


def _newest_first(facts: Sequence[Fact]) -> list[Fact]:
    return sorted(facts, key=lambda f: (f.last_seen, f.id), reverse=True)


def order_facts(facts: Sequence[Fact], query: str, rank: Rank = word_overlap) -> list[Fact]:
    """Active facts in recall order: style, relevant to `query`, then by recency."""
    active = [f for f in facts if f.active]
    style = _newest_first([f for f in active if is_style(f.slot)])
    rest = _newest_first([f for f in active if not is_style(f.slot)])
    if not query.strip() or not rest:
        return style + rest
    scores = rank(query, [f"{slot_info(f.slot).label} {f.value}" for f in rest])
    relevant = sorted((i for i, s in enumerate(scores) if s > 0), key=lambda i: (-scores[i], i))
    chosen = set(relevant)
    return style + [rest[i] for i in relevant] + [f for i, f in enumerate(rest) if i not in chosen]


def render_recall(
    facts: Sequence[Fact],
    query: str = "",
    *,
    max_facts: int = 30,
    max_chars: int = 2000,
    rank: Rank = word_overlap,
) -> str:
    """The instruction text for the next model call, or "" when there is nothing to say."""
    if max_facts <= 0:
        return ""
    lines: list[str] = []
    used = len(HEADER) + 1 + len(FOOTNOTE)
    for fact in order_facts(facts, query, rank):
        line = fact_line(fact)
        if len(lines) >= max_facts or used + len(line) + 1 > max_chars:
            break
        lines.append(line)
        used += len(line) + 1
    if not lines:
        return ""
    return "\n".join([HEADER, *lines, FOOTNOTE])
