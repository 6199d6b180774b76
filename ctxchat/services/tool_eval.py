"""`ctxchat tools eval`: how well the selector ranks tools, on a tools file and a cases
file (JSON Lines, as the shared evaluation data is written). Each case's turn is ranked
exactly as the selector ranks a turn: the same ranker built over the same tool texts, the
same query from the case's last message and its `recent` earlier ones."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ctxchat.core.errors import UsageError

if TYPE_CHECKING:
    from ctxchat.core.model_types import Embeddings
    from ctxchat.core.progress import Progress
    from ctxchat.ranking.selection import RankerKind


async def evaluate_selection(
    tools_path: Path,
    cases_path: Path,
    *,
    ks: str,
    ranker: RankerKind,
    recent: int,
    embeddings: Embeddings | None,
    cache_dir: Path,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """`{"cases": N, "recall": {k: r}, "all_gold": {k: r}, "mrr": m}`; a bad file or
    argument is a `UsageError` naming it."""
    from ctxchat.ranking.evaluate import (
        RankingDataError,
        evaluate,
        load_cases,
        load_tools,
        parse_ks,
    )
    from ctxchat.ranking.selection import build_ranker, missing_embeddings

    if recent < 0:
        raise UsageError(f"--recent: must be 0 or more (not {recent})")
    try:
        cutoffs = parse_ks(ks)
        tools = load_tools(tools_path)
        cases = load_cases(cases_path, [tool.name for tool in tools])
    except RankingDataError as exc:
        raise UsageError(str(exc)) from None
    problem = missing_embeddings(ranker, embeddings is not None)
    if problem is not None:
        raise UsageError(problem)
    built = await build_ranker(
        ranker,
        tools,
        embed=embeddings.embed if embeddings is not None else None,
        identity=embeddings.identity if embeddings is not None else None,
        cache_dir=cache_dir,
    )
    result = await evaluate(built, cases, ks=cutoffs, recent=recent, progress=progress)
    return result.to_dict()
