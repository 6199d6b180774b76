"""What every ranker shares: a scored result and the ranker protocol."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ctxchat.ranking.context import Query


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
