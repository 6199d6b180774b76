"""Build a ranker over a tool catalogue, and rank the tools for one turn of a conversation.

The provider and the evaluation both go through these two functions, so what `tools eval`
measures is what the selector does on that turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypeAlias

from ctxchat.core.progress import Progress
from ctxchat.ranking.base import Ranker, Scored
from ctxchat.ranking.context import DEFAULT_RECENT, ContextFn, Turn, build_query
from ctxchat.ranking.embedding import DEFAULT_BATCH, EmbedFn
from ctxchat.ranking.lexical import LexicalRanker
from ctxchat.ranking.tooltext import (
    ToolLike,
    ToolTextFn,
    default_tool_text,
    name_field,
    name_words,
)

if TYPE_CHECKING:
    from ctxchat.ranking.cache import VectorCache
    from ctxchat.ranking.embedding import VectorIndex

RankerKind: TypeAlias = Literal["lexical", "embedding", "hybrid"]
RANKER_KINDS: tuple[RankerKind, ...] = ("lexical", "embedding", "hybrid")


def missing_embeddings(kind: str, has_embeddings: bool) -> str | None:
    """Why `kind` cannot rank here, or None: every ranker but the lexical one embeds, so it
    needs an embeddings endpoint. The one statement of that rule (the tool selector and
    `ctxchat tools eval` both ask)."""
    if kind == "lexical" or has_embeddings:
        return None
    return f"the {kind} ranker needs an embeddings endpoint ([embeddings])"


def tool_documents(
    tools: Sequence[ToolLike], tool_text: ToolTextFn | None = None
) -> list[tuple[str, str]]:
    """`(name, text)` for each tool, the text from `tool_text` (default: name, description
    and parameters)."""
    make = tool_text or default_tool_text
    return [(tool.name, make(tool)) for tool in tools]


async def build_tool_index(
    documents: Sequence[tuple[str, str]],
    embed: EmbedFn,
    *,
    names: bool = True,
    cache: VectorCache | None = None,
    reuse: bool = True,
    batch_size: int = DEFAULT_BATCH,
    progress: Progress | None = None,
) -> VectorIndex:
    """The vectors the embedding and hybrid rankers compare a turn with, for the
    `(name, text)` documents of `tool_documents`.

    With `names`, a tool's name as words is a second field, embedded on its own
    (`tooltext.name_field`): names say what a tool is for in a few words a description
    buries. `build_ranker` asks for it with the default text only: a custom `tool_text` is
    the one text embedded.
    """
    from ctxchat.ranking.embedding import build_vector_index

    fields = [name_field([name for name, _ in documents])] if names else []
    return await build_vector_index(
        documents,
        embed,
        extra_fields=fields,
        cache=cache,
        reuse=reuse,
        batch_size=batch_size,
        progress=progress,
    )


async def build_ranker(
    kind: RankerKind,
    tools: Sequence[ToolLike],
    *,
    embed: EmbedFn | None = None,
    identity: str | None = None,
    cache_dir: Path | None = None,
    tool_text: ToolTextFn | None = None,
    batch_size: int = DEFAULT_BATCH,
    progress: Progress | None = None,
) -> Ranker:
    """A ranker of `kind` over `tools`.

    The embedding and hybrid kinds need `embed`; with `cache_dir` and `identity` (see
    `ctxchat.ranking.cache.ranker_identity`) their tool vectors are cached on disk there.
    `progress(done, total)` follows the embedding of tools the cache lacks.
    """
    documents = tool_documents(tools, tool_text)
    # The lexical index reads the name twice, as a title field would weigh it: on the dev
    # splits that is worth 1-3 points of recall@5 (names say what a tool does).
    lexical = LexicalRanker.from_documents(
        (name, f"{name_words(name)}\n{text}") for name, text in documents
    )
    if kind == "lexical":
        return lexical
    if embed is None:
        raise ValueError(f"the {kind} ranker needs an embed function")
    from ctxchat.ranking.cache import VectorCache
    from ctxchat.ranking.embedding import EmbeddingRanker

    cache = None
    if cache_dir is not None and identity is not None:
        cache = VectorCache(cache_dir, identity)

    embedder: EmbedFn = embed  # narrowed for the closures below

    async def index(*, reuse: bool = True) -> VectorIndex:
        return await build_tool_index(
            documents,
            embedder,
            names=tool_text is None,
            cache=cache,
            reuse=reuse,
            batch_size=batch_size,
            progress=progress,
        )

    async def rebuild() -> VectorIndex:
        return await index(reuse=False)

    embedding = EmbeddingRanker(await index(), embedder, rebuild=rebuild)
    if kind == "embedding":
        return embedding
    from ctxchat.ranking.hybrid import HybridRanker

    return HybridRanker(lexical, embedding)


async def rank_turn(
    ranker: Ranker,
    messages: Sequence[Turn],
    new_input: str,
    *,
    recent: int = DEFAULT_RECENT,
    context: ContextFn | None = None,
    k: int | None = None,
) -> list[Scored]:
    """The tools for a turn: `new_input` with the last `recent` of the earlier `messages`
    (role, text), made a query by `context` (default: weighted by age), best `k` first."""
    query = build_query(messages, new_input, recent=recent, context=context)
    return await ranker.rank(query, k)
