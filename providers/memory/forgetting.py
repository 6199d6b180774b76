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
from .kinds import kind_named, kinds_within
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
            pool = [f for f in self.facts.all() if _of_kind(f, kinds_within(category))]
        elif selector is not None:
            # A slot stands for its whole category: "forget where I work" means the job and
            # the workplace, whichever slot an older version kept them in.
            kinds = kinds_within(slot_info(selector).category)
            pool = [f for f in self.facts.all() if _of_kind(f, kinds)]
        else:
            pool = [f for f in self.facts.all() if contains_words(_describe(f), op.value)]
        if op.value.strip() and selector is not None:
            pool = [f for f in pool if contains_words(_describe(f), op.value)]
        if op.replaces and selector not in (FORGET_ALL, NEWEST):
            # "Forget my dietary stuff but keep the allergy": what is kept is spared.
            spared = _kind_of(op.replaces)
            pool = [
                f
                for f in pool
                if not (spared is not None and f.slot == spared)
                and not contains_words(_describe(f), op.replaces)
            ]
        changes = [Change("forgotten", f) for f in pool]
        # "Keep my name, lose the rest" of "I'm Rina, Osaka-based, and I teach piano": the
        # part of the kind kept, said beside the rest, stays.
        kept_kind = _kind_of(op.replaces) if selector == FORGET_ALL and op.replaces else None
        kept_part = _SAID_WITH.get(slot_info(kept_kind).category) if kept_kind else None
        for fact in pool:
            self.facts.delete(fact.id)
            if selector is None and fact.active:
                self.keep_other_parts(fact, op.value)
            part = kept_part.search(fact.value) if kept_part and fact.active else None
            if part is not None:
                value = part.group().strip(" ,;-–—")
                self.facts.add(
                    replace(fact, id=self.make_id(), slot=kept_kind, value=value, history=())
                )
        said_with = _SAID_WITH.get(_category_named(selector) or "")
        if said_with is not None:
            changes += self.drop_parts_said_with(said_with)
        return changes

    def drop_parts_said_with(self, part: re.Pattern[str]) -> list[Change]:
        """ "I'm a dentist in Atlanta", then "forget where I live"; "I'm Ravi, a pharmacist",
        then "forget my name": what was said of the forgotten kind beside another fact goes
        with it, and the rest of that fact stays (all of it goes when nothing is left)."""
        changes = []
        for fact in self.facts.active():
            rest = re.sub(r"\s{2,}", " ", part.sub("", fact.value)).strip(" ,;-–—")
            if rest == fact.value.strip(" ,;-–—"):
                continue
            self.facts.delete(fact.id)
            if len(rest.strip(" .!").split()) >= 2:
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
        # "I love K-pop, especially BTS": a part that narrows the forgotten one goes with it,
        # and so does a name set after it by a comma ("Ich habe einen Kater, Moritz"), not a
        # thing listed with it ("cats, dogs and owls").
        last = parts[-1].strip(" .!")
        named = (
            len(parts) == 2
            and contains_words(parts[0], value)
            and re.fullmatch(r"[A-ZÀ-Ý][\w'’-]+", last) is not None
            and "," in fact.value
        )
        rest = [
            p
            for p in parts[: -1 if named else None]
            if not contains_words(p, value) and not _NARROWING.match(p) and not _ELLIPTIC.search(p)
        ]
        if rest and len(rest) < len(parts):
            kept = replace(fact, id=self.make_id(), value=", ".join(rest), history=())
            self.facts.add(kept)


# A part that ends on its verb's helper says its verb of the part before ("call me Jazzy,
# all my mates do"): it goes with it.
_ELLIPTIC = re.compile(
    r"\b(?:do|does|did|is|are|was|were|have|has|had|can|could|will|would)\W*$", re.I
)


def _kept_aside(kept: str | None) -> Callable[[Fact], bool]:
    """Which facts are what "keep …" names in a message that forgets the rest (its kind
    found once, not once a fact)."""
    if not kept:
        return lambda fact: False
    kind = _kind_of(kept)
    category = slot_info(kind).category if kind is not None else None

    def named(fact: Fact) -> bool:
        same_kind = category is not None and slot_info(fact.slot).category == category
        return same_kind or contains_words(_describe(fact), kept)

    return named


def _kind_of(named: str) -> str | None:
    return kind_named(named) or getattr(category_of(named), "slot", None)


def _category_named(selector: str | None) -> str | None:
    if selector is None or selector in (FORGET_ALL, NEWEST):
        return None
    return slot_info(selector.removeprefix(CATEGORY_PREFIX)).category


_LANGUAGE_NAME = (
    r"(?:English|French|German|Spanish|Italian|Portuguese|Dutch|Japanese|Chinese|Mandarin|"
    r"Cantonese|Korean|Arabic|Russian|Polish|Hindi|Urdu|Turkish|Greek|Swedish|Danish|"
    r"Norwegian|Finnish|Welsh|Irish|Hebrew|Thai|Vietnamese)\b"
)
# What is said of a kind beside another fact: a place named with a capital after "in",
# "near", "from" or "outside" (not a language: "fluent in French"), or "Leeds-based"; the
# user's name in an introduction opening the statement.
_SAID_WITH = {
    "location": re.compile(
        rf"(?:,\s*|\s+)?\b(?:in|near|from|(?:just\s+)?outside(?:\s+of)?)\s+(?:the\s+)?"
        rf"(?!{_LANGUAGE_NAME})[A-Z][\w'’-]*(?:(?:,\s*|\s+)(?!{_LANGUAGE_NAME})[A-Z][\w'’-]*)*"
        r"|,?\s*\b[A-Z][\w'’]*-based\b"
    ),
    "name": re.compile(
        r"^(?i:(?:hi|hey|hello)[,!]?\s+)?(?i:i'm|i am|this is|it's|my name is|my name's|"
        r"the name's|call me)\s+[A-Z][\w'’-]+(?=\s*(?:[,;.!]|\s(?i:and)\b|$))"
    ),
}


def _of_kind(fact: Fact, kinds: frozenset[str]) -> bool:
    """Whether a fact is of the kinds a request names: by its slot, or, for a statement kept
    in the user's words, by any kind its words hold."""
    if slot_info(fact.slot).category in kinds:
        return True
    if "work" in kinds and not fact.slot and _BARE_ROLE.match(fact.value):
        return True
    return any(slot_info(c.slot).category in kinds for c in categories_in(fact.value))


# "Ich bin Arzt", "Je suis médecin à Lyon", "Soy fontanero": these languages give a trade as
# a bare noun after "I am", with no article; a note said so is what "forget my job" reaches
# (a nationality said the same way goes too: forgetting errs on the side of forgetting).
_BARE_ROLE = re.compile(
    r"(?:ich bin|je suis|soy|sono|sou|ik ben)\s+(?!(?:un|une|le|la|les|ein|eine|einer|el|una|"
    r"uno|de|d'|du|des|à|au|en|in|im|aus|von|bei|a|al|del|da|di|em|no|na|nicht|pas|très|sehr|"
    r"muy|molto|muito|heel|so|si|tan|ganz|bien|gut|mal)\b)[^\W\d_]{3,}",
    re.IGNORECASE,
)


def _describe(fact: Fact) -> str:
    return f"{slot_info(fact.slot).label} {fact.slot or ''} {fact.value}"


_NARROWING = re.compile(
    r"(?:especially|particularly|mostly|mainly|above all|including|like|such as|e\.g\.|"
    r"besonders|vor allem|surtout|notamment|sobre todo|especialmente)\b",
    re.IGNORECASE,
)
