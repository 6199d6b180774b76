"""Turning a rule's match into ops: the few shapes every language needs.

A language makes one `Builders` with its value cleaner and list separators, and takes its
builders from it: `b.one("location")`, `b.many("likes")`, `b.retract("avoids")`...
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from .grammar import Build, Cleaner, acceptable, op, split_items
from .ops import Op
from .slots import slot_info

Classifier = Callable[[str], list[tuple[str, str]]]


@dataclass(frozen=True)
class Builders:
    clean: Cleaner
    separators: str  # between list items: ", ", " and "...
    banned: re.Pattern[str]  # values that are not facts ("it", "that", "you")

    def ok(self, value: str, max_words: int = 8) -> bool:
        return acceptable(value, max_words=max_words, banned=self.banned)

    def values(self, raw: str, slot: str | None, max_words: int = 8) -> list[str]:
        value = self.clean(raw)
        if slot_info(slot).kind == "list":
            items = split_items(value, self.separators)
            items = [self.clean(i) for i in items]
            return [i for i in items if self.ok(i, max_words)]
        return [value] if self.ok(value, max_words) else []

    def one(self, slot: str | None, group: str = "v", fmt: str = "{}", max_words: int = 8) -> Build:
        def build(m: re.Match[str], evidence: str) -> list[Op]:
            value = self.clean(m.group(group) or "")
            if not self.ok(value, max_words):
                return []
            return [op("add", slot, fmt.format(value), evidence)]

        return build

    def many(self, slot: str, group: str = "v", fmt: str = "{}", max_words: int = 6) -> Build:
        def build(m: re.Match[str], evidence: str) -> list[Op]:
            items = self.values(m.group(group) or "", slot, max_words)
            return [op("add", slot, fmt.format(v), evidence) for v in items]

        return build

    def retract(self, slot: str | None, group: str = "v") -> Build:
        def build(m: re.Match[str], evidence: str) -> list[Op]:
            raw = m.group(group) if group in m.re.groupindex else ""
            items = self.values(raw or "", slot or "notes", 6) if raw else [""]
            if slot is None:
                items = [i for i in items if i]
            return [op("retract", slot, v, evidence) for v in items]

        return build

    def classified(self, classify: Classifier, group: str = "v", negated: str = "") -> Build:
        """Ops for whatever `classify` makes of a bare predicate; a match of the `negated`
        group turns them into retractions."""

        def build(m: re.Match[str], evidence: str) -> list[Op]:
            raw = self.clean(m.group(group) or "")
            if not raw:
                return []
            negative = bool(negated and m.group(negated))
            made: list[Op] = []
            for slot, value in classify(raw):
                if negative and slot == "name":
                    continue
                items = self.values(value, slot) if slot_info(slot).kind == "list" else [value]
                for item in items:
                    made.append(op("retract" if negative else "add", slot, item, evidence))
            return made

        return build
