"""Cosine ranking over vectors from an injected async `embed(texts) -> vectors` callable.

numpy is imported inside the functions that need it, never at module import, so importing
this module (or any of `ctxchat.ranking`) costs nothing until vectors are actually compared.

Vectors are normalised, centred on the catalogue and their fields fused once, when the index
is built, so ranking is one matrix-vector product. Query vectors are memoised by text: on
each turn only the new message is embedded, the earlier messages of the context window
were embedded on their own turns.
"""

from __future__ import annotations

import heapq
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

from ctxchat.core.progress import Progress
from ctxchat.ranking.base import Scored
from ctxchat.ranking.context import Query
from ctxchat.ranking.terms import mask_quoted

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from ctxchat.ranking.cache import VectorCache

    Matrix = NDArray[np.float32]

EmbedFn = Callable[[list[str]], Awaitable[list[list[float]]]]

DEFAULT_BATCH = 64
DEFAULT_MEMO = 1024


class EmbeddingError(RuntimeError):
    """The embeddings endpoint answered something unusable (count or size mismatch)."""


async def embed_texts(
    embed: EmbedFn,
    texts: Sequence[str],
    *,
    batch_size: int = DEFAULT_BATCH,
    progress: Progress | None = None,
) -> Matrix:
    """Embed `texts` in batches; rows are L2-normalised float32, in the order given."""
    import numpy as np

    rows: list[list[float]] = []
    total = len(texts)
    for start in range(0, total, batch_size):
        batch = list(texts[start : start + batch_size])
        vectors = await embed(batch)
        if len(vectors) != len(batch):
            raise EmbeddingError(f"asked for {len(batch)} embeddings, got {len(vectors)}")
        rows.extend(vectors)
        if progress is not None:
            progress(len(rows), total)
    if not rows:
        return np.zeros((0, 0), dtype=np.float32)
    width = len(rows[0])
    if width == 0 or any(len(row) != width for row in rows):
        raise EmbeddingError("the embeddings endpoint returned vectors of different sizes")
    return normalise(np.asarray(rows, dtype=np.float32))


def normalise(matrix: Matrix) -> Matrix:
    """Rows scaled to unit length (zero rows stay zero)."""
    import numpy as np

    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0.0] = 1.0
    result: Matrix = (matrix / norms).astype(np.float32, copy=False)
    return result


class VectorIndex:
    """Document ids and their vectors, one row each (unit vectors, or the weighted mean of
    a document's unit vectors, see `build_vector_index`)."""

    __slots__ = ("ids", "matrix")

    def __init__(self, ids: Sequence[str], matrix: Matrix) -> None:
        if len(ids) != matrix.shape[0]:
            raise ValueError("one vector per id is needed")
        self.ids: tuple[str, ...] = tuple(ids)
        self.matrix = matrix

    @property
    def dimensions(self) -> int:
        return int(self.matrix.shape[1]) if self.matrix.ndim == 2 else 0

    def cosines(self, vector: Matrix) -> Matrix:
        """Cosine of every document with a unit query vector (the weighted mean of its
        fields' cosines, for a document of several fields)."""
        result: Matrix = self.matrix @ vector
        return result


def per_document(progress: Progress, documents: int, texts: int) -> Progress:
    """`progress` told of `texts` embedded as a share of `documents`."""

    def report(done: int, _total: int) -> None:
        progress(done * documents // texts, documents)

    return report


def centred(matrix: Matrix) -> Matrix:
    """Rows less the catalogue's mean row, scaled back to unit length.

    A sentence model's vectors all lean the same way, so part of every cosine is what all
    the documents share and tells none of them apart; taking the mean out leaves what
    distinguishes each. Fewer than two rows are returned as they are.
    """
    if matrix.ndim != 2 or matrix.shape[0] < 2:
        return matrix
    return normalise(matrix - matrix.mean(axis=0, keepdims=True))


async def build_vector_index(
    documents: Sequence[tuple[str, str]],
    embed: EmbedFn,
    *,
    extra_fields: Sequence[tuple[Sequence[str], float]] = (),
    cache: VectorCache | None = None,
    reuse: bool = True,
    batch_size: int = DEFAULT_BATCH,
    progress: Progress | None = None,
) -> VectorIndex:
    """Vectors for `(id, text)` documents, embedding only texts the cache lacks (every
    text with `reuse=False`, the cache then only written).

    `extra_fields` are more texts for the same documents, each `(one text per document,
    weight)` (the tool selector's: a tool's name as words). Each field's vectors are
    `centred` on the catalogue, and a document's row is the weighted mean of its fields'
    (the text's at weight 1), so a query's score is the weighted mean of its cosines with
    each field: one matrix-vector product whatever the number of fields.

    The cache is keyed by a hash of each text (under the ranker's identity), so a changed
    text is embedded again, an unchanged one is not, and what is saved back holds exactly
    the current texts of every field: removed ones disappear from it.
    """
    import numpy as np

    from ctxchat.ranking.cache import text_key

    count = len(documents)
    fields: list[tuple[list[str], float]] = [([text for _, text in documents], 1.0)]
    for texts, weight in extra_fields:
        if len(texts) != count:
            raise ValueError("an extra field needs one text per document")
        fields.append((list(texts), float(weight)))
    all_texts = [text for texts, _ in fields for text in texts]
    keys = [text_key(text) for text in all_texts]
    known = cache.load() if cache is not None and reuse else {}
    missing: dict[str, str] = {}
    for key, text in zip(keys, all_texts, strict=True):
        if key not in known:
            missing.setdefault(key, text)
    if missing:
        scaled = progress
        if progress is not None and len(fields) > 1:
            # Progress counts documents, as the user knows them, not texts.
            owners = len({n % count for n, key in enumerate(keys) if key in missing})
            scaled = per_document(progress, owners, len(missing))
        fresh = await embed_texts(
            embed, list(missing.values()), batch_size=batch_size, progress=scaled
        )
        width = fresh.shape[1]
        if any(vector.shape[0] != width for vector in known.values()):
            # The model behind the same name changed size: nothing cached is usable, and
            # the cache is rewritten at the new size (or every run would embed it all).
            return await build_vector_index(
                documents,
                embed,
                extra_fields=extra_fields,
                cache=cache,
                reuse=False,
                batch_size=batch_size,
                progress=progress,
            )
        known = {**known, **dict(zip(missing, fresh, strict=True))}
    if documents:
        raw = np.stack([known[key] for key in keys]).astype(np.float32, copy=False)
    else:
        raw = np.zeros((0, 0), dtype=np.float32)
    if cache is not None and (missing or set(known) != set(keys) or not cache.path.exists()):
        cache.save(keys, raw)
    if not documents:
        return VectorIndex([], raw)
    total = sum(weight for _, weight in fields)
    matrix: Matrix = np.zeros((count, raw.shape[1]), dtype=np.float32)
    for number, (_, weight) in enumerate(fields):
        matrix += (weight / total) * centred(raw[number * count : (number + 1) * count])
    return VectorIndex([doc_id for doc_id, _ in documents], matrix)


class EmbeddingRanker:
    """Ranks by the cosine between a document's vector and the query's.

    A query of several weighted parts is ranked by the weighted sum of each part's cosine,
    which is the cosine with the weighted sum of the parts' unit vectors (up to a factor
    that changes no ranking): one product per turn whatever the window. Quoted values in
    a query are masked before it is embedded (`mask_quoted`).
    """

    kind = "embedding"

    def __init__(
        self,
        index: VectorIndex,
        embed: EmbedFn,
        *,
        memo_size: int = DEFAULT_MEMO,
        rebuild: Callable[[], Awaitable[VectorIndex]] | None = None,
    ) -> None:
        self.index = index
        self.embed = embed
        self.memo_size = memo_size
        # Embeds the documents again, cache or no cache: for a query of another size.
        self.rebuild = rebuild
        self._memo: OrderedDict[str, Matrix] = OrderedDict()

    @property
    def ids(self) -> tuple[str, ...]:
        return self.index.ids

    async def prefetch(self, texts: Sequence[str], *, batch_size: int = DEFAULT_BATCH) -> None:
        """Embed the texts not memoised yet, in batches (the memo may then evict older
        entries, so prefetch no more than `memo_size` texts at a time)."""
        wanted = [t for t in dict.fromkeys(texts) if t not in self._memo]
        if not wanted:
            return
        masked = [mask_quoted(text) for text in wanted]
        matrix = await embed_texts(self.embed, masked, batch_size=batch_size)
        for text, vector in zip(wanted, matrix, strict=True):
            self._remember(text, vector)

    def _remember(self, text: str, vector: Matrix) -> None:
        self._memo[text] = vector
        self._memo.move_to_end(text)
        while len(self._memo) > self.memo_size:
            self._memo.popitem(last=False)

    async def query_vector(self, query: Query) -> Matrix | None:
        """The weighted sum of the parts' unit vectors, or None for an empty query."""
        if not query or not self.index.ids:
            return None
        await self.prefetch([text for text, _ in query])
        total: Any = None
        for text, weight in query:
            vector = self._memo.get(text)
            if vector is None:  # evicted meanwhile by a tiny memo: embed it alone
                await self.prefetch([text])
                vector = self._memo[text]
            total = vector * weight if total is None else total + vector * weight
        result: Matrix = total
        return result

    async def scores(self, query: Query) -> Matrix | None:
        """Cosine-like score of every document, in index order (None for an empty query)."""
        vector = await self.query_vector(query)
        if vector is None:
            return None
        if vector.shape[0] != self.index.dimensions and self.rebuild is not None:
            # The model behind the same name now answers at another size, and every
            # document was found in the cache at the old one: embed them all again.
            self._memo.clear()
            self.index = await self.rebuild()
            vector = await self.query_vector(query)
            if vector is None:
                return None
        if vector.shape[0] != self.index.dimensions:
            raise EmbeddingError(
                f"a query of {vector.shape[0]} dimensions against documents of "
                f"{self.index.dimensions}"
            )
        return self.index.cosines(vector)

    async def rank(self, query: Query, k: int | None = None) -> list[Scored]:
        scores = await self.scores(query)
        if scores is None:
            return []
        return [Scored(self.ids[i], float(scores[i])) for i in top_positions(scores, k)]


def top_positions(scores: Matrix, k: int | None) -> list[int]:
    """Positions of the `k` highest scores (all when None), best first, ties by position."""
    import numpy as np

    count = int(scores.shape[0])
    if k is None or k >= count:
        order = np.lexsort((np.arange(count), -scores))
        return [int(i) for i in order]
    # argpartition finds the k best in O(n); only those are sorted.
    part = np.argpartition(-scores, k - 1)[:k]
    return [int(i) for i in heapq.nsmallest(k, part, key=lambda i: (-scores[i], i))]


def openai_embedder(client: Any, model: str, *, dimensions: int | None = None) -> EmbedFn:
    """An `EmbedFn` over an `openai.AsyncOpenAI` client's embeddings endpoint.

    Typed loosely so this module does not import `openai`: any object whose
    `embeddings.create(model=..., input=[...])` is awaitable and answers with `.data`
    items carrying `.index` and `.embedding` will do.
    """

    async def embed(texts: list[str]) -> list[list[float]]:
        extra: dict[str, Any] = {} if dimensions is None else {"dimensions": dimensions}
        response = await client.embeddings.create(model=model, input=texts, **extra)
        data = sorted(response.data, key=lambda item: item.index)
        return [list(item.embedding) for item in data]

    return embed
