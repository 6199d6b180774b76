"""Facts brought into a user's memory from outside (what `ctxchat import` will call): each
fact is screened on its own, so one secret among them costs only that fact, and the rest
are written in one change of the store (which screens them again at its write boundary)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .secrets import SecretRefused, refuse_secret_facts

if TYPE_CHECKING:
    from .facts import Fact
    from .factset import FactSet
    from .store import SessionMemory, SqlMemory


@dataclass(frozen=True)
class Imported:
    """How many facts were added, and how many refused as secrets (never stored)."""

    added: int
    refused: int


def import_facts(memory: SqlMemory | SessionMemory, facts: Iterable[Fact]) -> Imported:
    """Add `facts` whose ids the memory does not hold yet; a fact that looks like a secret
    (its value or any past value) is refused and counted, not stored."""
    clean: list[Fact] = []
    refused = 0
    for fact in facts:
        try:
            refuse_secret_facts([fact])
        except SecretRefused:
            refused += 1
        else:
            clean.append(fact)

    def add(known: FactSet) -> int:
        held = {f.id for f in known.all()}
        new = [f for f in clean if f.id not in held]
        for fact in new:
            known.add(fact)
        return len(new)

    return Imported(memory.change(add), refused)
