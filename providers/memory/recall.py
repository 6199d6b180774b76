"""The recall block: what is injected before each model call.

Deterministic and bounded: at most `max_facts` lines and `max_chars` characters. Reply-style
preferences come first (they shape every answer), then the facts the ranker finds relevant to
the current input, then the rest, newest first. One line says the facts may be out of date.
Nothing is injected when nothing is remembered.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter

from .facts import Fact
from .rank import Rank, word_overlap
from .slots import STYLE_SLOTS, slot_info

HEADER = "What the user has told you about themselves in earlier conversations:"
FOOTNOTE = "These notes may be out of date; if the user says otherwise, believe the user."


def fact_line(fact: Fact) -> str:
    return f"- {slot_info(fact.slot).label}: {fact.value}"


def fact_lines(block: str) -> list[str]:
    """The fact lines of a rendered block (its header and footnote left out)."""
    return [line for line in block.splitlines() if line.startswith("- ")]


_RECENCY = attrgetter("last_seen", "id")


# Scores of facts for a query, in their order: for a ranker that indexes facts by id and
# keeps its index as the store changes, instead of ranking their values from scratch.
FactRank = Callable[[str, Sequence[Fact]], list[float]]


def order_facts(
    facts: Sequence[Fact],
    query: str,
    rank: Rank = word_overlap,
    limit: int | None = None,
    relevance: FactRank | None = None,
) -> list[Fact]:
    """Active facts in recall order: style, relevant to `query`, then by recency.

    With `limit`, only that many are returned. Written for a turn with 10,000 stored facts:
    one pass to split, labels looked up once per slot, and the newest picked by a sort that
    runs in linear time on a store kept in time order."""
    style: list[Fact] = []
    rest: list[Fact] = []
    for f in facts:
        if f.active:
            (style if f.slot in STYLE_SLOTS else rest).append(f)
    style.sort(key=_RECENCY, reverse=True)
    room = len(rest) if limit is None else max(0, limit - len(style))
    relevant: list[Fact] = []
    if query.strip() and rest and room:
        # Values and slot labels are ranked apart: a handful of labels, and no string
        # built per fact ("pets" answers "what pets do I have?").
        slots = list(dict.fromkeys(f.slot for f in rest))
        by_label = dict(zip(slots, rank(query, [slot_info(s).label for s in slots]), strict=True))
        scores = relevance(query, rest) if relevance else rank(query, [f.value for f in rest])
        if any(by_label.values()):
            scores = [s + by_label[f.slot] for s, f in zip(scores, rest, strict=True)]
        hits = [(s, rest[i]) for i, s in enumerate(scores) if s > 0]
        hits.sort(key=lambda hit: (hit[0], hit[1].last_seen, hit[1].id), reverse=True)
        relevant = [f for _, f in hits[:room]]
    chosen = {f.id for f in relevant}
    others = [f for f in rest if f.id not in chosen] if chosen else rest
    newest = sorted(others, key=_RECENCY, reverse=True)[: room - len(relevant)]
    ordered = style + relevant + newest
    return ordered if limit is None else ordered[:limit]


def render_recall(
    facts: Sequence[Fact],
    query: str = "",
    *,
    max_facts: int = 30,
    max_chars: int = 2000,
    rank: Rank = word_overlap,
    relevance: FactRank | None = None,
) -> str:
    """The instruction text for the next model call, or "" when there is nothing to say.
    `rank` scores texts (slot labels; values too unless `relevance` scores the facts)."""
    if max_facts <= 0:
        return ""
    lines: list[str] = []
    used = len(HEADER) + 1 + len(FOOTNOTE)
    for fact in order_facts(facts, query, rank, limit=max_facts, relevance=relevance):
        line = fact_line(fact)
        if len(lines) >= max_facts or used + len(line) + 1 > max_chars:
            break
        lines.append(line)
        used += len(line) + 1
    if not lines:
        return ""
    return "\n".join([HEADER, *lines, FOOTNOTE])
