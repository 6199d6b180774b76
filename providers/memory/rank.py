"""Relevance: the recall renderer takes any `rank(query, docs) -> scores` callable.

The default counts shared words. It is a stand-in for the engine's shared lexical ranker
(BM25), which has the same shape and can be passed in its place.
"""

from __future__ import annotations

from collections.abc import Callable

from .normalize import words

Rank = Callable[[str, list[str]], list[float]]

_STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "of",
        "to",
        "in",
        "on",
        "at",
        "for",
        "with",
        "is",
        "are",
        "am",
        "was",
        "be",
        "i",
        "me",
        "my",
        "you",
        "your",
        "it",
        "this",
        "that",
        "what",
        "how",
        "do",
        "does",
        "can",
        "could",
        "would",
        "should",
        "please",
        "about",
        "from",
    ]
)


def word_overlap(query: str, docs: list[str]) -> list[float]:
    """The number of distinct query words (stop words aside) each doc contains."""
    wanted = set(words(query)) - _STOP
    if not wanted:
        return [0.0] * len(docs)
    return [float(len(wanted.intersection(words(doc)))) for doc in docs]
