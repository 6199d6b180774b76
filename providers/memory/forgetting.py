"""The update step's part for forgetting: which facts a `forget` op names, by slot, by
kind, by its words, or, when none holds them, by a word of the same stem; and the parts of a
statement that stay when a word of it is forgotten."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime

from .categories import categories_in, category_of
from .changes import Change
from .facts import Fact
from .factset import FactSet
from .normalize import contains_words, stem, words
from .ops import CATEGORY_PREFIX, FORGET_ALL, NEWEST, Op
from .slots import slot_info

_PARTS = re.compile(r"[,;]\s*|\s+[-–—]\s+|\s+and\s+")


class Forgetting:
    """Forgetting, on the fact set of one update step."""

    facts: FactSet
    now: datetime
    make_id: Callable[[], str]

    def newest_before(self) -> list[Fact]:
        """The newest active fact from an earlier message: what "not anymore" is about."""
        earlier = [f for f in self.facts.active() if f.last_seen < self.now]
        return [max(earlier, key=lambda f: (f.last_seen, f.id))] if earlier else []

    def forget(self, op: Op) -> list[Change]:
        selector = op.slot
        if selector == FORGET_ALL:
            kept_aside = _kept_aside(op.replaces)
            pool = [f for f in self.facts.all() if not kept_aside(f)]
        elif selector == NEWEST:
            pool = self.newest_before()
        elif selector is not None and selector.startswith(CATEGORY_PREFIX):
            category = selector[len(CATEGORY_PREFIX) :]
            pool = [f for f in self.facts.all() if _of_kind(f, category)]
        elif selector is not None:
            # A slot stands for its whole category: "forget where I work" means the job and
            # the workplace, whichever slot an older version kept them in.
            category = slot_info(selector).category
            pool = [f for f in self.facts.all() if _of_kind(f, category)]
        else:
            pool = [f for f in self.facts.all() if contains_words(_describe(f), op.value)]
        if op.value.strip() and selector is not None:
            pool = [f for f in pool if contains_words(_describe(f), op.value)]
        if op.replaces and selector not in (FORGET_ALL, NEWEST):
            # "Forget my dietary stuff but keep the allergy": what is kept is spared.
            spared = category_of(op.replaces)
            pool = [
                f
                for f in pool
                if not (spared is not None and f.slot == spared.slot)
                and not contains_words(_describe(f), op.replaces)
            ]
        changes = [Change("forgotten", f) for f in pool]
        for fact in pool:
            self.facts.delete(fact.id)
            if selector is None and fact.active:
                self.keep_other_parts(fact, op.value)
        if selector not in (None, FORGET_ALL, NEWEST) and _names_places(selector):
            changes += self.drop_places_said_with()
        return changes

    def drop_places_said_with(self) -> list[Change]:
        """ "I'm a dentist in Atlanta", then "forget where I live": the place said beside
        another fact goes with the home, and the rest of that fact stays."""
        changes = []
        for fact in self.facts.active():
            rest = _PLACE_SAID_WITH.sub("", fact.value).strip(" ,")
            if rest == fact.value.strip(" ,") or len(rest.split()) < 2:
                continue
            self.facts.delete(fact.id)
            self.facts.add(replace(fact, id=self.make_id(), value=rest, history=()))
            changes.append(Change("forgotten", fact))
        return changes

    def forget_alike(self, named: Sequence[str]) -> list[Change]:
        asked = [w for value in named for w in words(value) if len(w) >= 4]
        if not asked:
            return []

        def alike(fact: Fact) -> bool:
            have = words(_describe(fact))
            return any(
                stem(w) == stem(a) or (len(a) >= 5 and w.startswith(a)) for w in have for a in asked
            )

        pool = [f for f in self.facts.all() if alike(f)]
        for fact in pool:
            self.facts.delete(fact.id)
        return [Change("forgotten", f) for f in pool]

    def keep_other_parts(self, fact: Fact, value: str) -> None:
        """ "Remove Zalando" from "Lena here, from the Zalando data team": the parts of a
        statement that do not hold the forgotten words stay, as a fact of their own."""
        parts = [p.strip() for p in _PARTS.split(fact.value) if p.strip()]
        if contains_words(parts[0], value) and len(parts[0].split()) <= 2:
            return  # "Greg, my partner, is the cook": the rest is about what was forgotten
        # "I love K-pop, especially BTS": a part that narrows the forgotten one goes with it.
        rest = [p for p in parts if not contains_words(p, value) and not _NARROWING.match(p)]
        if rest and len(rest) < len(parts):
            kept = replace(fact, id=self.make_id(), value=", ".join(rest), history=())
            self.facts.add(kept)


def _kept_aside(kept: str | None) -> Callable[[Fact], bool]:
    """Which facts are what "keep …" names in a message that forgets the rest (its kind
    found once, not once a fact)."""
    if not kept:
        return lambda fact: False
    kind = category_of(kept)
    category = slot_info(kind.slot).category if kind is not None else None

    def named(fact: Fact) -> bool:
        same_kind = category is not None and slot_info(fact.slot).category == category
        return same_kind or contains_words(_describe(fact), kept)

    return named


def _names_places(selector: str) -> bool:
    category = selector.removeprefix(CATEGORY_PREFIX)
    return slot_info(category).category == "location" or category == "location"


# A place named with a capital after "in", "near" or "outside", up to the clause's end.
_PLACE_SAID_WITH = re.compile(
    r",?\s+(?:in|near|(?:just\s+)?outside(?:\s+of)?)\s+[A-Z][\w'’-]*(?:(?:,\s*|\s+)[A-Z][\w'’-]*)*"
    r"(?=\s*[.!]?\s*$)"
)


def _of_kind(fact: Fact, category: str) -> bool:
    """Whether a fact is of the kind a request names: by its slot, or, for a statement kept
    in the user's words, by any kind its words hold."""
    if slot_info(fact.slot).category == category:
        return True
    return any(slot_info(c.slot).category == category for c in categories_in(fact.value))


def _describe(fact: Fact) -> str:
    return f"{slot_info(fact.slot).label} {fact.slot or ''} {fact.value}"


_NARROWING = re.compile(
    r"(?:especially|particularly|mostly|mainly|above all|including|like|such as|e\.g\.|"
    r"besonders|vor allem|surtout|notamment|sobre todo|especialmente)\b",
    re.IGNORECASE,
)
