"""Lexical and embedding scores fused into one ranking: a normalised score blend.

    fused = w * lexical / max(lexical) + (1 - w) * (cos - min(cos)) / (max(cos) - min(cos))

with w = 0.3. Each side is brought to [0, 1] over the catalogue first: BM25 scores have no
fixed scale (they grow with the query), cosines of one model crowd into a narrow band. Chosen
on the dev splits against the alternatives (recall@5, MetaTool single on its first
3,000 dev cases / MetaTool multi / BFCL), with the embedding side as it was then (one
vector per tool, not centred):

- blend, w = 0.3: .767 / .682 / .856 (w = 0.2: .770 / .656 / .856; w = 0.4: .741 / .695 / .855)
- z-scored cosines instead of min-max, w = 0.3: .769 / .659 / .856
- raw cosines plus normalised BM25, w = 0.2: .758 / .692 / .858
- reciprocal-rank fusion (k = 60), best weights: .749 / .695 / .841

against .551 / .586 / .793 for lexical (as it is now) and .732 / .546 / .830 for embedding
alone. RRF throws away how far apart the scores are (a clear lexical match counts no more
than a weak one), which is what a short tool catalogue needs most; a blend keeps it.

The embedding side then got better, and the blend was measured again (dev recall@5, now
MetaTool single on all its 6,116 dev cases / multi / BFCL; the first 3,000 in brackets):

- the blend above: .796 (.768) / .692 / .856
- tool vectors centred on the catalogue (`embedding.centred`): .801 (.776) / .699 / .865
- and the tool's name as words embedded as a second field at 0.5 (`tooltext.name_field`),
  as now: .805 (.801) / .755 / .872; w = 0.25: .810 / .748 / .865; w = 0.35: .798 / .745
  / .867; w = 0.4: .785 / .742 / .869
- min-max against the catalogue's mean or median cosine instead of its minimum (w = 0.35):
  .808 / .755-.758 / .868-.869, the same within noise; against the 10th or 20th best
  cosine: .802-.806 / .705-.728 / .854-.858
- the lexical side weighted by its own confidence, as now plus: scaled by the share of
  the query's idf the best match covers (to the power 0.25, w = 0.4): .808 / .758 / .870;
  by 0.5 + the top score's margin over the second: .812 / .745 / .861 (w = 0.3), .804 /
  .755 / .868 (w = 0.4); BM25 divided by the query's own idf total instead of the best
  score, w = 0.3-0.6: .795-.809 / .685-.732 / .842-.859. Kept out: at best .001-.002 on
  average, noise next to what they cost in explanation
- a second, Rocchio-style pass (the query moved towards its top 1-5 tools' vectors):
  .793-.805 / .735-.755 / .864-.868, never better
- hub tools (close to many others) penalised, or the query centred too: 1-8 points worse
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING

from ctxchat.ranking.base import Scored
from ctxchat.ranking.context import Query
from ctxchat.ranking.embedding import EmbeddingRanker, top_positions
from ctxchat.ranking.lexical import LexicalRanker

if TYPE_CHECKING:
    from ctxchat.ranking.embedding import Matrix

DEFAULT_LEXICAL_WEIGHT = 0.3


class HybridRanker:
    """Ranks by the blend of a lexical and an embedding ranker over the same documents."""

    kind = "hybrid"

    def __init__(
        self,
        lexical: LexicalRanker,
        embedding: EmbeddingRanker,
        *,
        lexical_weight: float = DEFAULT_LEXICAL_WEIGHT,
    ) -> None:
        if lexical.ids != embedding.ids:
            raise ValueError("the lexical and embedding indexes must hold the same documents")
        if not 0.0 <= lexical_weight <= 1.0:
            raise ValueError("lexical_weight must be between 0 and 1")
        self.lexical = lexical
        self.embedding = embedding
        self.lexical_weight = lexical_weight
        self._lexical_memo: OrderedDict[str, tuple[Matrix, Matrix]] = OrderedDict()

    @property
    def ids(self) -> tuple[str, ...]:
        return self.lexical.ids

    async def prefetch(self, texts: list[str]) -> None:
        """Embed query texts ahead, in batches (see `EmbeddingRanker.prefetch`)."""
        await self.embedding.prefetch(texts)

    async def scores(self, query: Query) -> tuple[Matrix, Matrix, Matrix] | None:
        """(fused, lexical, cosine) scores in index order; None for an empty query."""
        import numpy as np

        cosines = await self.embedding.scores(query)
        if cosines is None:
            return None
        lexical = np.zeros(len(self.ids), dtype=np.float32)
        for text, weight in query:
            positions, values = self._lexical_part(text)
            lexical[positions] += weight * values  # positions are unique within a part
        return blend(lexical, cosines, self.lexical_weight), lexical, cosines

    def _lexical_part(self, text: str) -> tuple[Matrix, Matrix]:
        """One query text's normalised lexical scores as (positions, values) arrays,
        memoised like the lexical ranker's own: scattering arrays runs in C, where merging
        dicts of thousands of entries in Python would cost more than the rest of the turn."""
        import numpy as np

        part = self._lexical_memo.get(text)
        if part is None:
            matched = self.lexical.normalised(text)
            count = len(matched)
            part = (
                np.fromiter(matched.keys(), dtype=np.intp, count=count),
                np.fromiter(matched.values(), dtype=np.float32, count=count),
            )
            self._lexical_memo[text] = part
            while len(self._lexical_memo) > self.lexical.memo_size:
                self._lexical_memo.popitem(last=False)
        else:
            self._lexical_memo.move_to_end(text)
        return part

    async def rank(self, query: Query, k: int | None = None) -> list[Scored]:
        found = await self.scores(query)
        if found is None:
            return []
        fused, lexical, cosines = found
        return [
            Scored(
                self.ids[i],
                float(fused[i]),
                (("lexical", float(lexical[i])), ("embedding", float(cosines[i]))),
            )
            for i in top_positions(fused, k)
        ]


def blend(lexical: Matrix, cosines: Matrix, lexical_weight: float) -> Matrix:
    """`lexical_weight` of the max-normalised lexical scores plus the rest of the min-max
    normalised cosines (a side with no spread contributes nothing)."""
    top = float(lexical.max()) if lexical.size else 0.0
    lex = lexical / top if top > 0.0 else lexical * 0.0
    high = float(cosines.max()) if cosines.size else 0.0
    low = float(cosines.min()) if cosines.size else 0.0
    emb = (cosines - low) / (high - low) if high > low else cosines * 0.0
    result: Matrix = lexical_weight * lex + (1.0 - lexical_weight) * emb
    return result
