"""Stored messages ranked by words and meaning together: the lexical ranking of
`message_rank` over the full-text index's candidates, and the cosines of the messages
nearest the query's vector, fused with `hybrid.blend` over their union.

The union matters: the nearest vectors find the answer put in other words, which no word
of the query matches, and the words find the name or number a sentence model blurs.
A message's relevance (the threshold recall injects by, see `recall_block`) is the larger
of its share of the query's words and its cosine scaled by `COSINE_RELEVANCE`, so a
message found by meaning alone can be recalled, and one that is neither shares nothing.

The lexical weight was chosen on the 283 recall dev questions not set aside (LoCoMo 26, 30,
41; all-MiniLM-L6-v2 through `bench/embedding_server.py`), R@10 as written / in the user's
words, against .564 / .610 for words alone, before common words were left out of the query
and neighbours lifted a message (`message_rank`, which says how 0.6 was chosen since):

- w = 0.3: .397 / .718; 0.5: .523 / .715; 0.6: .561 / .698; 0.7 (kept then): .573 /
  .691; 0.8: .581 / .683
- the user's vectors centred on their mean (as tool vectors are), w = 0.5: .510 / .706;
  w = 0.7: .575 / .690: no better, dropped
- cosine relevance scaled by 0.6 instead of 1.0: the same ranking, less injected (.532
  against .553 as written, w = 0.6)

A question as written names the user in the third person ("When did Caroline..."), which a
stored message never does, while the other speaker's turns greet her by name: the query's
vector leaned towards greetings, until the words common in the user's history (such a
name among them) were left out of the text it is made of (`message_rank`).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from ctxchat.ranking.hybrid import blend
from ctxchat.ranking.message_rank import Ranked

K = TypeVar("K", bound=Hashable)
DEFAULT_MESSAGE_LEXICAL_WEIGHT = 0.6
COSINE_RELEVANCE = 1.0


@dataclass(frozen=True)
class Fused(Generic[K]):
    ident: K
    score: float
    relevance: float


def fuse(
    lexical: Sequence[tuple[K, Ranked]],
    cosines: Mapping[K, float],
    *,
    lexical_weight: float | None = None,
    cosine_relevance: float | None = None,
) -> list[Fused[K]]:
    """The union of the lexical candidates (`(ident, Ranked)`) and the messages with a
    cosine, best first. A message without a cosine (no vector yet) counts as the least
    similar of the union."""
    import numpy as np

    weight = DEFAULT_MESSAGE_LEXICAL_WEIGHT if lexical_weight is None else lexical_weight
    scale = COSINE_RELEVANCE if cosine_relevance is None else cosine_relevance
    idents = list(dict.fromkeys([i for i, _ in lexical] + list(cosines)))
    if not idents:
        return []
    by_lexical = dict(lexical)
    floor = min(cosines.values()) if cosines else 0.0
    lex = np.asarray(
        [by_lexical[i].score if i in by_lexical else 0.0 for i in idents], dtype=np.float32
    )
    cos = np.asarray([cosines.get(i, floor) for i in idents], dtype=np.float32)
    fused = blend(lex, cos, weight)
    found: list[Fused[K]] = []
    for position, ident in enumerate(idents):
        words = by_lexical[ident].relevance if ident in by_lexical else 0.0
        meaning = max(0.0, min(1.0, scale * float(cos[position])))
        found.append(Fused(ident, float(fused[position]), max(words, meaning)))
    found.sort(key=lambda f: -f.score)
    return found
