"""Ranking documents for a query: lexical (BM25), embedding (cosine) and their blend.

The one ranking module of the engine: the tool selector ranks tools with it, the user-memory
provider ranks remembered facts with its lexical part. Importing it (any of its modules)
imports only the standard library; numpy is imported when vectors are first compared.

Modules, one job each:

- `terms`: text to index terms (identifier splitting, stop words, light stemming).
- `lexical`: `LexicalIndex` (BM25 over `(id, text)` documents) and `LexicalRanker`.
- `embedding`: `EmbeddingRanker`, vectors from an injected async `embed(texts)`.
- `hybrid`: `HybridRanker`, the blend of the two.
- `cache`: `VectorCache`, document vectors on disk keyed by text hash and ranker identity.
- `context`: the recent conversation as a query of weighted parts.
- `tooltext`: the text a tool is ranked by.
- `selection`: `build_ranker` and `rank_turn`, what the tool selector calls.
- `evaluate`: recall@k, all-gold@k and MRR over JSONL tools and cases.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ctxchat.core.lazy import load_export

# Names load on first use: the memory provider's live index needs two small modules, not
# the evaluation or the embedding cache. (`terms` and `evaluate` are imported from their
# modules: a lazily exported function would be shadowed by the module of the same name.)
if TYPE_CHECKING:
    from ctxchat.core.progress import Progress
    from ctxchat.ranking.base import Ranker, Scored
    from ctxchat.ranking.context import ContextFn, Query, Turn, build_query, weighted_context
    from ctxchat.ranking.evaluate import (
        EvalResult,
        RankingDataError,
        load_cases,
        load_tools,
    )
    from ctxchat.ranking.lexical import LexicalIndex, LexicalRanker
    from ctxchat.ranking.selection import RANKER_KINDS, RankerKind, build_ranker, rank_turn
    from ctxchat.ranking.terms import split_words
    from ctxchat.ranking.tooltext import ToolDoc, ToolLike, ToolTextFn, default_tool_text

_EXPORTS = {
    "Progress": "ctxchat.core.progress",
    "Ranker": "ctxchat.ranking.base",
    "Scored": "ctxchat.ranking.base",
    "ContextFn": "ctxchat.ranking.context",
    "Query": "ctxchat.ranking.context",
    "Turn": "ctxchat.ranking.context",
    "build_query": "ctxchat.ranking.context",
    "weighted_context": "ctxchat.ranking.context",
    "EvalResult": "ctxchat.ranking.evaluate",
    "RankingDataError": "ctxchat.ranking.evaluate",
    "load_cases": "ctxchat.ranking.evaluate",
    "load_tools": "ctxchat.ranking.evaluate",
    "LexicalIndex": "ctxchat.ranking.lexical",
    "LexicalRanker": "ctxchat.ranking.lexical",
    "RANKER_KINDS": "ctxchat.ranking.selection",
    "RankerKind": "ctxchat.ranking.selection",
    "build_ranker": "ctxchat.ranking.selection",
    "rank_turn": "ctxchat.ranking.selection",
    "split_words": "ctxchat.ranking.terms",
    "ToolDoc": "ctxchat.ranking.tooltext",
    "ToolLike": "ctxchat.ranking.tooltext",
    "ToolTextFn": "ctxchat.ranking.tooltext",
    "default_tool_text": "ctxchat.ranking.tooltext",
}

__all__ = [
    "RANKER_KINDS",
    "ContextFn",
    "EvalResult",
    "LexicalIndex",
    "LexicalRanker",
    "Progress",
    "Query",
    "Ranker",
    "RankerKind",
    "RankingDataError",
    "Scored",
    "ToolDoc",
    "ToolLike",
    "ToolTextFn",
    "Turn",
    "build_query",
    "build_ranker",
    "default_tool_text",
    "load_cases",
    "load_tools",
    "rank_turn",
    "split_words",
    "weighted_context",
]


def __getattr__(name: str) -> Any:
    return load_export(__name__, _EXPORTS, globals(), name)
