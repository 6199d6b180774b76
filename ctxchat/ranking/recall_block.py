"""What automatic recall injects: of a search's hits, those relevant enough, each with its
neighbouring turn, within a message count and a token budget, as one block with dates.

The threshold is on `MessageHit.relevance`, the share of the query's weight (idf) a message
holds, which means the same in every query: a turn whose words match nothing distinctive
gets nothing, and costs nothing. Scores (`MessageHit.score`) are relative to the best hit of
their search and cannot say that.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ctxchat.core.search import MessageHit

# The recall provider's defaults, which `recall eval` measures the injected block at.
DEFAULT_MAX_MESSAGES = 8
WINDOW_SHARE = 16  # the block holds at most this fraction of the model's window
DEFAULT_MIN_RELEVANCE = 0.25

HEADER = (
    "From the user's earlier conversations, found by what they just said (may be relevant "
    "or not; dates are when each was said):"
)


@dataclass(frozen=True)
class RecalledMessage:
    key: str
    seq: int
    role: str
    when: str  # the date, YYYY-MM-DD
    text: str


def choose(
    hits: Sequence[MessageHit],
    *,
    max_messages: int,
    max_tokens: int,
    min_relevance: float,
    tokens_of: Callable[[str], int],
) -> list[RecalledMessage]:
    """The messages to inject, best hit first, each followed by its neighbour while both
    fit; none when no hit reaches `min_relevance`."""
    chosen: list[RecalledMessage] = []
    seen: set[tuple[str, int]] = set()
    used = tokens_of(HEADER)
    for hit in hits:
        if hit.relevance < min_relevance or len(chosen) >= max_messages:
            break
        group = [RecalledMessage(hit.key, hit.seq, hit.role, _date(hit), hit.text)]
        if hit.neighbour is not None:
            n = hit.neighbour
            group.append(
                RecalledMessage(hit.key, n.seq, n.role, n.created_at.date().isoformat(), n.text)
            )
        if hit.role != "user":
            group.reverse()  # what was replied to, then the reply
        for message in group:
            if (message.key, message.seq) in seen or len(chosen) >= max_messages:
                continue
            cost = tokens_of(line(message))
            if used + cost > max_tokens:
                continue
            seen.add((message.key, message.seq))
            chosen.append(message)
            used += cost
    return chosen


def _date(hit: MessageHit) -> str:
    return hit.created_at.date().isoformat()


def line(message: RecalledMessage) -> str:
    return f"[{message.when}] {message.role}: {message.text}"


def block_text(messages: Sequence[RecalledMessage]) -> str:
    """The block, its recalled words unable to open or close a context block."""
    from ctxchat.core.blocks import neutralise

    return neutralise("\n".join([HEADER, *(line(m) for m in messages)]))
