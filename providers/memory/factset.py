"""Where facts live: a small protocol a SQL store can implement, and an in-memory version.

The update step only needs to look facts up by slot (an index, so a turn stays cheap with
10,000 facts), list them all (rare: forget-by-topic, recall), add, store a changed copy and
delete for real.
"""

from __future__ import annotations

from typing import Protocol

from .facts import Fact


class FactSet(Protocol):
    def all(self) -> list[Fact]:
        """Every fact, active and superseded, oldest first."""
        ...

    def active(self) -> list[Fact]:
        """The active facts, oldest first."""
        ...

    def in_slot(self, slot: str | None) -> list[Fact]:
        """Every fact (active or not) of one slot; None: the free-text facts."""
        ...

    def add(self, fact: Fact) -> None: ...

    def replace(self, fact: Fact) -> None:
        """Store a changed copy of a fact already held (same id): a superseded value moved
        into its history, a new last_seen, a retired status."""
        ...

    def delete(self, fact_id: str) -> None:
        """Remove the fact and its history; no trace is kept."""
        ...


class InMemoryFactSet:
    """Facts in dicts: by id (insertion ordered) and by slot."""

    def __init__(self, facts: list[Fact] | None = None) -> None:
        self._by_id: dict[str, Fact] = {}
        self._by_slot: dict[str | None, dict[str, None]] = {}
        for fact in facts or ():
            self.add(fact)

    def __len__(self) -> int:
        return len(self._by_id)

    def all(self) -> list[Fact]:
        return list(self._by_id.values())

    def active(self) -> list[Fact]:
        return [f for f in self._by_id.values() if f.active]

    def in_slot(self, slot: str | None) -> list[Fact]:
        return [self._by_id[i] for i in self._by_slot.get(slot, {})]

    def get(self, fact_id: str) -> Fact | None:
        return self._by_id.get(fact_id)

    def add(self, fact: Fact) -> None:
        if fact.id in self._by_id:
            raise KeyError(f"fact {fact.id} is already stored")
        self._by_id[fact.id] = fact
        self._by_slot.setdefault(fact.slot, {})[fact.id] = None

    def replace(self, fact: Fact) -> None:
        old = self._by_id.get(fact.id)
        if old is None:
            raise KeyError(f"no fact {fact.id}")
        if old.slot != fact.slot:
            del self._by_slot[old.slot][fact.id]
            self._by_slot.setdefault(fact.slot, {})[fact.id] = None
        self._by_id[fact.id] = fact

    def delete(self, fact_id: str) -> None:
        old = self._by_id.pop(fact_id, None)
        if old is not None:
            del self._by_slot[old.slot][fact_id]
