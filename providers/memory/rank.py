"""Relevance: the recall renderer takes any `rank(query, docs) -> scores` callable.

The default counts shared words. It is a stand-in for the engine's shared lexical ranker
(BM25), which has the same shape and can be passed in its place.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from itertools import accumulate, count
from operator import add

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
    """The number of distinct query words (stop words aside) each doc contains; hyphens
    split words ("peanut-free" meets "peanuts").

    A regex of the query's word stems screens the docs first, in C, so only the few that
    can share a word are split into words: recall ranks thousands of facts every turn."""
    wanted = set(words(query.replace("-", " "))) - _STOP
    if not wanted:
        return [0.0] * len(docs)
    # One lower-cased text of all docs, searched with str.find for each wanted word (a
    # memchr-speed scan); only docs with a hit are split into words and scored.
    text = "\n".join(docs).lower()
    ends = list(map(add, accumulate(map(len, docs)), count(1)))  # each doc's end + "\n"
    candidates: set[int] = set()
    for word in wanted:
        stem = word[:-1] if len(word) > 4 else word  # "berry" must find "berries"
        at = text.find(stem)
        while at >= 0:
            candidates.add(bisect_right(ends, at))
            at = text.find(stem, at + len(stem))
    scores = [0.0] * len(docs)
    for i in candidates:
        doc = docs[i]
        terms = words(doc.replace("-", " ") if "-" in doc else doc)
        scores[i] = float(len(wanted.intersection(terms)))
    return scores
