"""Helpers for the user-memory tests: run turns through rules + update + recall."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from ctxchat.providers.memory.factset import InMemoryFactSet
from ctxchat.providers.memory.recall import render_recall
from ctxchat.providers.memory.statements import extract_rules
from ctxchat.providers.memory.update import apply_ops

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)


def ops_of(text: str) -> set[tuple[str, str | None, str]]:
    """(kind, slot, value) of every op the rules find in one message."""
    return {(o.kind, o.slot, o.value) for o in extract_rules(text).ops}


def slots_of(text: str) -> set[str | None]:
    return {o.slot for o in extract_rules(text).ops}


def learn(*turns: str) -> InMemoryFactSet:
    facts = InMemoryFactSet()
    for number, turn in enumerate(turns):
        apply_ops(
            facts, extract_rules(turn, facts.active()).ops, now=T0 + timedelta(minutes=number)
        )
    return facts


def remembered(*turns: str) -> str:
    """The recall block after the turns, lower-cased, for keyword checks."""
    return render_recall(learn(*turns).active()).casefold()
