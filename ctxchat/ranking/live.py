"""BM25 over a collection that changes a little at a time: documents added and removed one
by one, each change costing its own terms, never a rebuild.

`LexicalIndex` computes each posting's full weight when it is built, which is what makes a
query over a fixed catalogue (tools) cheap; but a weight depends on the whole collection
(the idf of the term, the average length), so one new document would mean building it all
again. Remembered facts change every few turns, and a store holds thousands of them. Here a
posting keeps only the term's count in its document, and the weights are worked out when a
query asks, from counts kept up to date: the terms of one query touch few postings, so the
query stays cheap, and adding or forgetting a fact is a few dictionary updates.

Same scoring as `LexicalIndex` (Okapi BM25, Lucene's non-negative idf, the same analyzer and
query weighting), so both rank a collection alike.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping

from ctxchat.ranking.terms import DEFAULT_B, DEFAULT_K1, Analyzer, query_terms, terms


class LiveLexicalIndex:
    def __init__(
        self, *, k1: float = DEFAULT_K1, b: float = DEFAULT_B, analyzer: Analyzer = terms
    ) -> None:
        self.k1 = k1
        self.b = b
        self._analyzer = analyzer
        self._counts: dict[str, Counter[str]] = {}  # id -> term counts
        self._lengths: dict[str, int] = {}
        self._postings: dict[str, dict[str, int]] = {}  # term -> id -> count
        self._total_length = 0

    def __len__(self) -> int:
        return len(self._counts)

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._counts

    def add(self, doc_id: str, text: str) -> None:
        """Index `text` as `doc_id`, in place of what the id held before."""
        self.remove(doc_id)
        counts = Counter(self._analyzer(text))
        self._counts[doc_id] = counts
        length = sum(counts.values())
        self._lengths[doc_id] = length
        self._total_length += length
        for term, count in counts.items():
            self._postings.setdefault(term, {})[doc_id] = count

    def remove(self, doc_id: str) -> None:
        counts = self._counts.pop(doc_id, None)
        if counts is None:
            return
        self._total_length -= self._lengths.pop(doc_id)
        for term in counts:
            postings = self._postings[term]
            del postings[doc_id]
            if not postings:
                del self._postings[term]

    def scores(self, query: str | Mapping[str, float]) -> dict[str, float]:
        """BM25 score of every document matching at least one query term, by id."""
        weights = query_terms(query, self._analyzer) if isinstance(query, str) else query
        count = len(self._counts)
        if not count:
            return {}
        average = self._total_length / count
        k1, b = self.k1, self.b
        lengths = self._lengths
        totals: dict[str, float] = {}
        for term, weight in weights.items():
            postings = self._postings.get(term)
            if weight <= 0.0 or not postings:
                continue
            df = len(postings)
            idf = math.log(1.0 + (count - df + 0.5) / (df + 0.5)) * weight
            for doc_id, tf in postings.items():
                norm = k1 * (1.0 - b + b * lengths[doc_id] / average) if average else k1
                totals[doc_id] = totals.get(doc_id, 0.0) + idf * tf * (k1 + 1.0) / (tf + norm)
        return totals


def rank_texts(query: str, texts: list[str]) -> list[float]:
    """BM25 scores of a few `texts` for `query`, in their order (a small list ranked once:
    a throwaway index)."""
    index = LiveLexicalIndex()
    for number, text in enumerate(texts):
        index.add(str(number), text)
    scores = index.scores(query)
    return [scores.get(str(number), 0.0) for number in range(len(texts))]
