"""BM25 over plain-string documents with ids, scored through an inverted index.

Generic on purpose: the tool selector ranks tool texts with it and the user-memory provider
ranks remembered facts; neither needs more than "documents are strings with ids".

Own code (about 100 lines) rather than `bm25s` 0.3.16. Measured on this machine
(Python 3.11, 2 shared cores):

- import: `import bm25s` takes ~150 ms (it loads numpy and 75 scipy modules before it
  scores anything); this module needs only the standard library, and all of
  `ctxchat.ranking` imports in ~17 ms on an editable install (half of it the editable
  finder), with no numpy. The selector is in the default pipeline, so this is paid by every
  start, ranked or not.
- quality: the same. With the same analyzer, `bm25s` (method "lucene", k1 1.2, b 0.75) and
  this index give dev recall@5 of .629/.629 (MetaTool single), .566/.586 (multi) and
  .784/.779 (BFCL, last message); the differences come from query-term counting and ties.
  Quality comes from the analyzer and from how the conversation becomes the query, which
  are ours either way.
- speed: a query at 10,000 tools is a few milliseconds of posting-list walking
  (`bench/tool_selection.py`); `bm25s`'s sparse matrices pay off at collection sizes a tool
  catalogue or a memory does not reach.

Scoring is Okapi BM25 with Lucene's non-negative idf, `ln(1 + (N - df + 0.5) / (df + 0.5))`.
Each posting stores its term's full BM25 weight for that document, computed once at build
time, so a query is a sum over the postings of its terms, each times its query weight
(see `ctxchat.ranking.terms.query_terms`, or any weighting a caller passes).
"""

from __future__ import annotations

import heapq
import math
from collections import Counter, OrderedDict
from collections.abc import Iterable, Mapping

from ctxchat.ranking.base import Scored
from ctxchat.ranking.context import Query
from ctxchat.ranking.terms import DEFAULT_B, DEFAULT_K1, Analyzer, query_terms, terms

DEFAULT_MEMO = 16


class LexicalIndex:
    """An immutable BM25 index: build once from `(id, text)` pairs, query many times."""

    __slots__ = ("_analyzer", "_ids", "_postings", "b", "k1")

    def __init__(
        self,
        documents: Iterable[tuple[str, str]],
        *,
        k1: float = DEFAULT_K1,
        b: float = DEFAULT_B,
        analyzer: Analyzer = terms,
    ) -> None:
        self.k1 = k1
        self.b = b
        self._analyzer = analyzer
        ids: list[str] = []
        counts: list[Counter[str]] = []
        lengths: list[int] = []
        seen: set[str] = set()
        for doc_id, text in documents:
            if doc_id in seen:
                raise ValueError(f"two documents have the id {doc_id!r}")
            seen.add(doc_id)
            doc_terms = analyzer(text)
            ids.append(doc_id)
            counts.append(Counter(doc_terms))
            lengths.append(len(doc_terms))
        self._ids: tuple[str, ...] = tuple(ids)
        count = len(ids)
        average = (sum(lengths) / count) if count else 0.0
        document_frequency: Counter[str] = Counter()
        for doc_counts in counts:
            document_frequency.update(doc_counts.keys())
        postings: dict[str, dict[int, float]] = {}
        for index, (doc_counts, length) in enumerate(zip(counts, lengths, strict=True)):
            norm = k1 * (1.0 - b + b * length / average) if average else k1
            for term, tf in doc_counts.items():
                df = document_frequency[term]
                idf = math.log(1.0 + (count - df + 0.5) / (df + 0.5))
                weight = idf * tf * (k1 + 1.0) / (tf + norm)
                postings.setdefault(term, {})[index] = weight
        self._postings = postings

    # -- inspection --------------------------------------------------------------------------
    @property
    def ids(self) -> tuple[str, ...]:
        """Document ids in build order (the positions `scores` refers to)."""
        return self._ids

    def __len__(self) -> int:
        return len(self._ids)

    def query_weights(self, text: str) -> dict[str, float]:
        """Query term weights for `text`: each term once per occurrence, quoted text less
        (see `ctxchat.ranking.terms.query_terms`)."""
        return query_terms(text, self._analyzer)

    # -- scoring -----------------------------------------------------------------------------
    def scores(self, query: str | Mapping[str, float]) -> dict[int, float]:
        """BM25 score of every document matching at least one query term, by position.

        `query` is text (analysed like the documents) or a mapping of terms to weights.
        """
        weights = self.query_weights(query) if isinstance(query, str) else query
        matched = [
            (self._postings[term], weight)
            for term, weight in weights.items()
            if weight > 0.0 and term in self._postings
        ]
        if not matched:
            return {}
        # The longest posting list seeds the totals in one comprehension; the rest are added.
        matched.sort(key=lambda item: len(item[0]), reverse=True)
        first, first_weight = matched[0]
        totals = {index: first_weight * weight for index, weight in first.items()}
        get = totals.get
        for postings, query_weight in matched[1:]:
            for index, weight in postings.items():
                totals[index] = get(index, 0.0) + query_weight * weight
        return totals

    def score(self, query: str | Mapping[str, float]) -> dict[str, float]:
        """Like `scores`, keyed by document id."""
        ids = self._ids
        return {ids[index]: value for index, value in self.scores(query).items()}

    def rank(
        self, query: str | Mapping[str, float], k: int | None = None
    ) -> list[tuple[str, float]]:
        """Matching documents, best first (ties by build order), at most `k` of them."""
        return top(self.scores(query), self._ids, k)


def top(
    scores: Mapping[int, float], ids: tuple[str, ...], k: int | None
) -> list[tuple[str, float]]:
    """`(id, score)` of the best `k` positions (all when `k` is None), best first; equal
    scores keep build order so rankings are deterministic."""
    if k is not None and k < len(scores):
        if k <= 0:
            return []
        # nlargest by score alone runs in C; then every position tied with the k-th best
        # is taken back in, so ties at the cut are decided by position, not by dict order.
        cut = heapq.nlargest(k, scores.values())[-1]
        items = [(index, value) for index, value in scores.items() if value >= cut]
    else:
        items = list(scores.items())
    items.sort(key=lambda item: (-item[1], item[0]))
    return [(ids[index], value) for index, value in items[:k]]


class LexicalRanker:
    """Ranks documents for a query of weighted parts (the new message, earlier ones).

    Each part is scored on its own and its scores are divided by its best score before
    they are summed by weight: BM25 scores grow with query length, so unnormalised, a long
    earlier message would outweigh a short new one whatever the weights say.
    """

    kind = "lexical"

    def __init__(self, index: LexicalIndex, *, memo_size: int = DEFAULT_MEMO) -> None:
        self.index = index
        self.memo_size = memo_size
        # Normalised scores of recent query texts: on each turn the earlier messages of the
        # window were scored on their own turns already.
        self._memo: OrderedDict[str, dict[int, float]] = OrderedDict()

    @classmethod
    def from_documents(cls, documents: Iterable[tuple[str, str]]) -> LexicalRanker:
        return cls(LexicalIndex(documents))

    @property
    def ids(self) -> tuple[str, ...]:
        return self.index.ids

    def scores(self, query: Query) -> dict[int, float]:
        """Fused score by document position; documents no part matches are absent."""
        totals: dict[int, float] = {}
        for text, weight in query:
            part = self.normalised(text)
            if not totals:
                totals = {position: weight * value for position, value in part.items()}
                continue
            get = totals.get
            for position, value in part.items():
                totals[position] = get(position, 0.0) + weight * value
        return totals

    def normalised(self, text: str) -> dict[int, float]:
        """Scores of one query text divided by its best score (memoised)."""
        part = self._memo.get(text)
        if part is None:
            raw = self.index.scores(text)
            scale = 1.0 / max(raw.values()) if raw else 0.0
            part = {position: value * scale for position, value in raw.items()}
            self._memo[text] = part
            while len(self._memo) > self.memo_size:
                self._memo.popitem(last=False)
        else:
            self._memo.move_to_end(text)
        return part

    async def rank(self, query: Query, k: int | None = None) -> list[Scored]:
        return [Scored(doc_id, value) for doc_id, value in top(self.scores(query), self.ids, k)]
