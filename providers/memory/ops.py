"""Operations: what an extractor proposes and the update step applies.

The rules extractor and the LLM extractor produce the same `Op`, so one deterministic update
step serves both. Every op carries `evidence`: the exact span of the user's message it came
from, which is what lets an LLM's answer be checked (an op whose evidence is not in the message
is dropped) and what `/memory why` can point at.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias, cast, get_args

OpKind: TypeAlias = Literal["add", "update", "forget", "retract"]
OP_KINDS: frozenset[str] = frozenset(get_args(OpKind))

# Selectors a `forget` op may name instead of one slot.
FORGET_ALL = "*"
# The newest fact learnt before this message: what "not anymore" or "scrap that" means.
NEWEST = "*newest*"
# An update of the newest fact that fixes a spelling: it replaces only a word it resembles.
SPELLING = "*spelling*"
# The same for a value said again alone, with no word of correction ("*Manchester lol"): only
# a word it closely resembles can be what it retypes.
LOOKALIKE = "*lookalike*"
# A value said alone as how things are now ("Glasgow now."): the newest fact's value, where
# it holds one value only, becomes it, however unlike.
BECOME = "*become*"
# An add of a new thing of a type the user keeps one of (`type_changes`): it replaces the
# stored thing of its type, however it was told.
OF_ITS_TYPE = "*of-its-type*"
CATEGORY_PREFIX = "category:"
# A forget of a slot's kind applied only when nothing else the message asked to forget went:
# "forget that I don't eat meat" names a statement by its words, and its kind if none holds them.
OTHERWISE_PREFIX = "otherwise:"


class OpFormatError(ValueError):
    """A serialised op is not one this version understands."""


@dataclass(frozen=True, slots=True)
class Op:
    """One proposed change to the user's memory.

    - `add`: remember `value` in `slot` (None: a free-text fact). A single-valued slot is
      replaced, a list slot gains the value.
    - `update`: as `add`, but when `replaces` is given it corrects the fact holding that old
      value ("it's Elina, not Elena"), whichever slot it is in.
    - `retract`: the user says `value` no longer holds ("I don't eat meat anymore"); the fact
      is retired (kept, superseded). An empty value retires whatever the slot holds; slot None
      retires any fact whose value contains `value`.
    - `forget`: delete for real. `slot` is a slot name, `category:<name>`, `*` (everything) or
      None (match on `value` words alone); a non-empty `value` narrows the match.
    """

    kind: OpKind
    slot: str | None
    value: str
    evidence: str
    replaces: str | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "op": self.kind,
            "slot": self.slot,
            "value": self.value,
            "evidence": self.evidence,
        }
        if self.replaces is not None:
            data["replaces"] = self.replaces
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Op:
        kind = data.get("op")
        if kind not in OP_KINDS:
            raise OpFormatError(f"unknown op {kind!r}")
        slot = data.get("slot")
        value = data.get("value", "")
        evidence = data.get("evidence")
        replaces = data.get("replaces")
        if slot is not None and not isinstance(slot, str):
            raise OpFormatError("slot must be a string or null")
        if not isinstance(value, str) or not isinstance(evidence, str):
            raise OpFormatError("value and evidence must be strings")
        if replaces is not None and not isinstance(replaces, str):
            raise OpFormatError("replaces must be a string or null")
        return cls(cast(OpKind, kind), slot, value, evidence, replaces)


@dataclass(frozen=True, slots=True)
class Extraction:
    """What one extractor made of one user message.

    `secret_dropped`: an op would have stored something that looks like a secret and was
    dropped; the provider tells the user once. `warning`: a one-line note for the user (an LLM
    reply that was not valid JSON).
    """

    ops: tuple[Op, ...] = ()
    secret_dropped: bool = False
    warning: str | None = None


def _same_statement(op: Op, kept: Op, slot_info: Any) -> bool:
    """Two extractors' adds of one statement: same category, one evidence within the other
    ("I live in Leith." kept in the user's words, "Leith" as the model's slot value)."""
    if op.kind != "add" or kept.kind != "add":
        return False
    a, b = op.evidence.casefold().strip(" ."), kept.evidence.casefold().strip(" .")
    same_place = bool(a) and bool(b) and (a in b or b in a)
    return same_place and slot_info(op.slot).category == slot_info(kept.slot).category


def merge(*extractions: Extraction) -> Extraction:
    """Several extractors' results as one (`extractor = "both"`): ops in order, duplicates
    (same kind, slot, value and replaced value) kept once, flags and warnings combined."""
    from .slots import slot_info

    seen: set[tuple[str, str | None, str, str | None]] = set()
    ops: list[Op] = []
    for extraction in extractions:
        for op in extraction.ops:
            key = (op.kind, op.slot, op.value.casefold().strip(), op.replaces)
            if key in seen or any(_same_statement(op, kept, slot_info) for kept in ops):
                continue
            seen.add(key)
            ops.append(op)
    warnings = [e.warning for e in extractions if e.warning]
    return Extraction(
        tuple(ops),
        any(e.secret_dropped for e in extractions),
        "; ".join(warnings) if warnings else None,
    )
