"""What every ranker shares: a scored result, the ranker protocol, progress callbacks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ctxchat.ranking.context import Query

# Called as progress(done, total) while long work advances (embedding, evaluating).
Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class Scored:
    """One ranked document: its id, its score (higher is better, comparable only within
    one ranking) and the parts the score was fused from, for showing why it ranked."""

    id: str
    score: float
    detail: tuple[tuple[str, float], ...] = ()


class Ranker(Protocol):
    """Ranks a fixed set of documents for a query of weighted parts."""

    @property
    def kind(self) -> str: ...

    @property
    def ids(self) -> tuple[str, ...]: ...

    async def rank(self, query: Query, k: int | None = None) -> list[Scored]:
        """The best `k` documents (all that score, when None), best first."""
        ...
