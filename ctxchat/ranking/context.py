"""How the recent conversation becomes the query: weighted parts, newest message first.

Concatenating the last few messages into one query (the reference design) makes lexical
ranking worse on multi-turn data: the earlier messages are usually longer than the new one
and their words outvote it, so the tools of the previous request win over those of this
one. Yet the earlier turns are needed too ("now cancel it").

The default keeps each message apart as a weighted part: the new input weighs 1 and each
earlier message `decay` times the one after it. Rankers score the parts and fuse them by
weight (see `ctxchat.ranking.rankers`), so an earlier message can only break ties and add
tools the new input leaves open, never drown it.

`recent` counts earlier messages whatever their role, as the provider's `recent_messages`
option does. Both the window and the weighting can be replaced by a `ContextFn`; a hook that
returns one string gets the reference behaviour (a single part of weight 1).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

Turn = tuple[str, str]  # (role, text)
WeightedText = tuple[str, float]
Query = tuple[WeightedText, ...]
ContextFn = Callable[[Sequence[Turn], str], "str | Sequence[WeightedText]"]

DEFAULT_RECENT = 2
DEFAULT_EARLIER_WEIGHT = 0.1
DEFAULT_DECAY = 0.5


def recent_window(messages: Sequence[Turn], recent: int) -> list[Turn]:
    """The last `recent` messages (none when `recent` <= 0), oldest first."""
    if recent <= 0:
        return []
    return list(messages[-recent:])


def weighted_context(
    recent: Sequence[Turn],
    new_input: str,
    *,
    earlier: float = DEFAULT_EARLIER_WEIGHT,
    decay: float = DEFAULT_DECAY,
) -> Query:
    """The new input at weight 1, the message before it at `earlier`, each one before that
    `decay` times the next one's weight; empty texts are dropped."""
    parts: list[WeightedText] = [(new_input, 1.0)] if new_input.strip() else []
    weight = earlier
    for _, text in reversed(recent):
        if text.strip():
            parts.append((text, weight))
        weight *= decay
    return tuple(parts)


def as_query(value: str | Sequence[WeightedText]) -> Query:
    """A context hook's answer as a query: one string is one part of weight 1."""
    if isinstance(value, str):
        return ((value, 1.0),) if value.strip() else ()
    return tuple((text, float(weight)) for text, weight in value if text.strip() and weight > 0)


def build_query(
    messages: Sequence[Turn],
    new_input: str,
    *,
    recent: int = DEFAULT_RECENT,
    context: ContextFn | None = None,
) -> Query:
    """The query for a turn: the last `recent` earlier messages and the new input, through
    `context` (default: `weighted_context`)."""
    window = recent_window(messages, recent)
    if context is None:
        return weighted_context(window, new_input)
    return as_query(context(window, new_input))
