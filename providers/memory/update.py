"""The one deterministic update step: operations in, changes out.

Both extractors feed it. Given the same fact set, ops, time and ids it always does the same
thing, so what memory does with a sentence can be tested and explained:

- a single-valued slot (name, city, job...) holds one fact; a new value replaces the old one,
  which moves into the fact's history;
- a list slot (likes, allergies, pets...) gains values without duplicates; a value added to a
  slot with an opposite (likes/dislikes, eats/avoids) retires the same value there;
- `retract` retires (status superseded, kept with its history);
- `forget` deletes the matching facts, history and all.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from datetime import datetime
from difflib import SequenceMatcher

from ctxchat.kit import new_id

from .antecedents import is_one_of_mine
from .categories import category_of, guessed_kind
from .change_patterns import CHANGED_OUTRIGHT, NO_LONGER, SWITCH
from .changes import Change
from .clause_patterns import content_words
from .facts import Fact, PastValue, Provenance
from .factset import FactSet
from .forgetting import Forgetting
from .normalize import contains_words, shares_stem, singular, stem, tokens, value_key, words
from .ops import BECOME, LOOKALIKE, NEWEST, OF_ITS_TYPE, OTHERWISE_PREFIX, SPELLING, Op
from .polarity import polarity, topic_stems
from .quantities import RECOUNT, counts_another_thing, holds_number, recounted
from .same_thing import frame_words, is_number, things
from .slots import FAVOURITE_PREFIX, slot_info
from .thing_types import named_things, replaced_by, told_as_a_change
from .truecasing import common_word

NO_PROVENANCE = Provenance()
_WHO = frozenset({"name", "age", "identity", "contact"})


def apply_ops(
    facts: FactSet,
    ops: Iterable[Op],
    *,
    now: datetime,
    provenance: Provenance = NO_PROVENANCE,
    make_id: Callable[[], str] = new_id,
) -> list[Change]:
    """Apply `ops` in order to `facts`; returns the changes (unchanged repeats are omitted)."""
    step = _Step(facts, now, provenance, make_id)
    changes: list[Change] = []
    ops_list = list(ops)
    moved_from: dict[str, str | None] = {}  # a value retired by its words: its fact's slot
    # "Quit my gym membership, running outside instead": what changed is what the message
    # ends by name, not the newest fact
    ended_by_name = any(
        op.kind == "retract" and op.slot is None and op.value.strip() for op in ops_list
    )
    # what this message denies of a fact told before ("Turns out I'm not allergic to it")
    adds = any(op.kind == "add" for op in ops_list)
    denied = [
        op.value
        for op in ops_list
        if adds
        and op.kind == "retract"
        and op.slot is None
        and op.value
        and any(f.last_seen < now and _holds_all(f.value, op.value) for f in facts.active())
    ]
    kept_apart: list[Op] = []  # all denial: added only if it ended nothing
    for op in ops_list:
        if op.kind == "add" and denied:
            left = _without_denials(op.value, denied)
            if not left:
                kept_apart.append(op)
                continue
            op = replace(op, value=left)
        if op.kind == "forget" and (op.slot or "").startswith(OTHERWISE_PREFIX):
            continue
        if op.kind == "forget":
            if op.slot == NEWEST and any(c.kind == "forgotten" for c in changes):
                continue  # "No need to remember Paul. Bin it.": "it" is what went already
            changes.extend(step.forget(op))
        elif op.kind == "retract":
            retired = step.retract(op.slot, op.value, op.evidence)
            if op.slot is None and retired:
                moved_from[op.value] = retired[0].fact.slot
            changes.extend(retired)
        elif op.kind == "update" and op.slot == NEWEST:
            least = _RESEMBLANCE.get(op.replaces or "", 0.0)
            changes.extend(
                step.correct_newest(
                    op.value, least=least, single=op.replaces == BECOME, evidence=op.evidence
                )
            )
        elif op.kind == "update" and op.replaces == RECOUNT:
            changes.extend(step.recount(op))
        elif op.kind == "update" and op.replaces:
            changes.extend(step.correct(op))
        elif op.kind == "add" and (
            typed := step.replaced_by_type(op.value, told=op.replaces == OF_ITS_TYPE)
        ):
            changes.extend(step.retire(f) for f in typed if f.active)
            # the kind of what it replaces, or its own if that was a note; a thing moved
            # to is no home ("I moved to Neovim")
            own = op.slot if op.slot != "home" else None
            changes.extend(step.add(typed[-1].slot or own, op.value))
        elif op.replaces == NEWEST and not ended_by_name:
            changes.extend(step.add_instead(_moved_to(op, moved_from), op.value))
        else:
            changes.extend(step.add(_moved_to(op, moved_from), op.value))
    if not any(c.kind == "retired" for c in changes):
        # "I'm not allergic to penicillin", with no allergy stored: the denial is the fact
        for op in kept_apart:
            changes.extend(step.add(op.slot, op.value))
    named = [op.value for op in ops_list if op.kind == "forget" and op.slot is None and op.value]
    if named and not any(c.kind == "forgotten" for c in changes):
        # "Delete the Taylor Swift stuff" of "Huge Swiftie over here": when no fact holds
        # the words asked for, a fact holding a word of the same stem, or one starting
        # with a word asked for, is what was meant.
        changes.extend(step.forget_alike(named))
    for op in ops_list:
        if op.kind != "forget" or not (op.slot or "").startswith(OTHERWISE_PREFIX):
            continue
        if not any(c.kind == "forgotten" for c in changes):
            kind = (op.slot or "").removeprefix(OTHERWISE_PREFIX)
            changes.extend(step.forget(replace(op, slot=kind)))
    return changes


def _moved_to(op: Op, moved_from: dict[str, str | None]) -> str | None:
    """ "Moved from Barclays to HSBC": the new one is of the kind the old one was, whatever
    the verb says on its own (a move is a new home only when a home is what was left)."""
    for old, slot in moved_from.items():
        if re.search(
            rf"\bfrom\s+(?:(?:my|the|our|a|an)\s+)?{re.escape(old)}\s+to\b", op.evidence, re.I
        ):
            return slot
    return op.slot


class _Step(Forgetting):
    def __init__(
        self, facts: FactSet, now: datetime, provenance: Provenance, make_id: Callable[[], str]
    ) -> None:
        self.facts, self.now, self.provenance, self.make_id = facts, now, provenance, make_id

    def new_fact(self, slot: str | None, value: str) -> Fact:
        fact = Fact(self.make_id(), slot, value, self.now, self.now, self.provenance)
        self.facts.add(fact)
        return fact

    def add(self, slot: str | None, value: str) -> list[Change]:
        value = " ".join(value.split())
        if slot == _SOME_FAVOURITE:
            slot = self.favourite_named(value) or slot
        key = value_key(value)
        if not key:
            return []
        info = slot_info(slot)
        in_slot = self.facts.in_slot(slot)
        changes: list[Change] = []
        if info.kind == "single":
            current = [f for f in in_slot if f.active]
            if current:
                fact = current[-1]
                if value_key(fact.value) == key:
                    self.facts.replace(replace(fact, last_seen=self.now))
                    return []
                guessed = guessed_kind(value)
                if guessed and not (SWITCH.search(value) or _same_place(fact.value, value)):
                    # "I'm a smoker" is a job only by its ending: it retires no job unless
                    # it says it is how things are now ("I'm an illustrator now"), or is
                    # said of the same place ("I'm a QA tester at the bank", of "… at a bank")
                    return [Change("added", self.new_fact(None, value))]
                if not guessed and guessed_kind(fact.value):
                    # and a job named later does not retire it: it becomes a note
                    self.facts.replace(replace(fact, slot=None))
                    return [Change("added", self.new_fact(slot, value))]
                changes.append(self.supersede_value(fact, value))
                # Two active facts in a single slot can only come from outside; keep one.
                changes.extend(self.retire(f) for f in current[:-1])
                return changes
            return [Change("added", self.new_fact(slot, value))]
        if info.opposite is not None:
            changes.extend(
                self.retire(f)
                for f in self.facts.in_slot(info.opposite)
                if f.active and value_key(f.value) == key
            )
        same = [f for f in in_slot if value_key(f.value) == key]
        live = [f for f in same if f.active]
        if live:
            self.facts.replace(replace(live[0], last_seen=self.now))
            return changes
        if same:  # said again after it was retired: it holds once more
            back = replace(same[-1], status="active", last_seen=self.now, value=value)
            self.facts.replace(back)
            return [*changes, Change("changed", back, same[-1].value)]
        changes.extend(self.retire(f) for f in self.said_of_the_same(in_slot, value))
        if slot is not None and SWITCH.search(value) and not _ADDITIVE.search(value):
            # "I drink three coffees a day" was kept as a note, of no kind the reader knew;
            # "Cut coffee completely, green tea only from now on" is how that thing is now.
            said = things(value)
            changes.extend(
                self.retire(f)
                for f in self.facts.in_slot(None)
                if f.active and f.last_seen < self.now and said & things(f.value)
            )
        changes.extend(self.retire(f) for f in self.turned_around(value) if f.active)
        return [*changes, Change("added", self.new_fact(slot, value))]

    def favourite_named(self, value: str) -> str | None:
        """The slot of the earlier favourite a favourite of no named kind speaks of: "Sushi
        has overtaken pizza as my favourite" of "My favourite food is pizza"."""
        said = [w for w in content_words(value) if not _FAVOURITE_WORD.match(w)]
        named = [
            f
            for f in self.facts.active()
            if (f.slot or "").startswith(FAVOURITE_PREFIX)
            and f.slot != _SOME_FAVOURITE
            and f.last_seen < self.now
            and any(shares_stem(f.value, w) for w in said)
        ]
        return max(named, key=lambda f: (f.last_seen, f.id)).slot if named else None

    def replaced_by_type(self, value: str, *, told: bool = False) -> list[Fact]:
        """Earlier facts naming another thing of a type the new statement names, when it
        says it is a change ("These days it's mostly Kotlin" of "I mostly code in Java"):
        those it replaces, though they share no word. The replaced fact's slot is the new
        one's, whatever its verb suggests ("I moved to Neovim" is no new home)."""
        # (`told`: the reader found it told as the user's new one, whatever its words)
        if not (told or told_as_a_change(value)) or not named_things(value):
            return []
        return [
            f for f in self.facts.active() if f.last_seen < self.now and replaced_by(f.value, value)
        ]

    def turned_around(self, value: str) -> list[Fact]:
        """Earlier facts, in any slot, whose feeling about the same thing the new one
        reverses ("I hate running", then "I've come to love running")."""
        feeling = polarity(value)
        if feeling is None:
            return []
        topic = topic_stems(value)

        def same_thing(other: frozenset[str]) -> bool:
            # All of one's topic within the other's: "bland food" is no reversal of
            # "spicy food", though both are food.
            return bool(topic and other) and (topic <= other or other <= topic)

        return [
            f
            for f in self.facts.active()
            if f.last_seen < self.now
            and polarity(f.value) not in (None, feeling)
            and same_thing(topic_stems(f.value))
        ]

    def said_of_the_same(self, in_slot: Sequence[Fact], value: str) -> list[Fact]:
        """The earlier items of a list slot that a new one replaces: those about the same
        thing ("I use Windows at home", then "went full Linux on my home PC"). The same
        thing is a word both share that is no word of the slot's own kind (two allergies
        share "allergic" and both hold); an item said as one more ("also", "another") adds."""
        if _ADDITIVE.search(value):
            return []
        frame = frame_words(value)
        replaced = []
        for fact in in_slot:
            shared = frame & frame_words(fact.value) if fact.active else set()
            if not shared or fact.last_seen >= self.now:
                continue
            if all(is_one_of_mine(word) for word in shared):
                # "My sister lives in Rome", then "My sister is a nurse": both hold. A new
                # word of a person or pet replaces only what was said of the same kind.
                changed, held = _kind_beside(value, shared), _kind_beside(fact.value, shared)
                if changed is not None and held is not None and changed != held:
                    continue
            replaced.append(fact)
        return replaced

    def add_instead(self, slot: str | None, value: str) -> list[Change]:
        """A statement that says it changes something: it supersedes its slot's fact as any
        statement does; when its slot held nothing before this message, the newest fact
        from an earlier message is what changed, and is retired."""
        earlier = [
            f
            for f in self.facts.in_slot(slot)
            # (or retired by this very message: "I'm not vegan anymore" ended the diet)
            if (f.active and f.last_seen < self.now) or (f.last_seen == self.now and not f.active)
        ]
        if slot is not None and earlier:
            return self.add(slot, value)
        # A move changes no name: who the user is stays whatever else changes.
        newest = [f for f in self.newest_before() if slot_info(f.slot).category not in _WHO]
        kind_changed = _KIND_CHANGED.search(value)
        if _THING_MOVED.match(value):
            newest = []  # "Our team moved to the new building": the team's change, not a fact's
        elif NO_LONGER.search(value):
            newest = []  # "I no longer coach the team": what ended is named, and retired
        elif kind_changed is not None:
            # "I switched banks": of the bank, not of whatever was said last
            kind = singular((kind_changed["kind"] or kind_changed["own"]).casefold())
            of_kind = category_of(f"my {kind}")
            newest = [
                f
                for f in newest
                if shares_stem(f.value, kind) or (of_kind is not None and f.slot == of_kind.slot)
            ]
        elif slot is not None and not CHANGED_OUTRIGHT.search(value):
            # Told by a word of time alone ("I'm learning Spanish now"), a change of a known
            # kind replaces a fact of another kind only when it names the same thing: "I
            # love sushi" is no language, but "got a Pixel now" may replace the phone.
            newest = [f for f in newest if f.slot is None or _names_the_same(f.value, value)]
        return [*(self.retire(f) for f in newest), *self.add(slot, value)]

    def supersede_value(self, fact: Fact, value: str) -> Change:
        past = PastValue(fact.value, fact.first_seen, fact.last_seen, self.now, fact.provenance)
        changed = replace(
            fact,
            value=value,
            first_seen=self.now,
            last_seen=self.now,
            provenance=self.provenance,
            history=(*fact.history, past),
        )
        self.facts.replace(changed)
        return Change("changed", changed, fact.value)

    def retire(self, fact: Fact) -> Change:
        retired = replace(fact, status="superseded", last_seen=self.now)
        self.facts.replace(retired)
        return Change("retired", retired, fact.value)

    def retract(self, slot: str | None, value: str, evidence: str = "") -> list[Change]:
        if slot == NEWEST:
            return [self.retire(f) for f in self.newest_before()]
        if value == NEWEST:  # the newest fact of one slot, from an earlier message
            earlier = [f for f in self.facts.in_slot(slot) if f.active and f.last_seen < self.now]
            if not earlier and evidence:
                # "Moved my swim to Thursdays" of "I go swimming every Tuesday", a hobby:
                # the fact of another slot that names the thing whose time changed
                said = frame_words(evidence) | {
                    w for w in things(evidence) if len(w) > 3 and w not in _GENERIC_NOUNS
                }
                earlier = [
                    f
                    for f in self.facts.active()
                    if f.last_seen < self.now and any(shares_stem(f.value, w) for w in said)
                ]
            return [self.retire(max(earlier, key=lambda f: (f.last_seen, f.id)))] if earlier else []
        if slot is None:
            if not value_key(value) or singular(value.casefold()) in _GENERIC_NOUNS:
                return []  # "Not a morning person" ends no "people person"
            targets: Sequence[Fact] = [
                f for f in self.facts.active() if contains_words(f.value, value)
            ] or [f for f in self.facts.active() if shares_stem(f.value, value)]
            head = value.split()[-1]
            if not targets and 1 < len(value.split()) <= 3 and singular(head) not in _GENERIC_NOUNS:
                # "no longer a night owl" of "I stay up late, total owl": the noun that
                # heads the phrase, last in English
                targets = [f for f in self.facts.active() if shares_stem(f.value, head)]
            # What the user retires is theirs: "sold the car" speaks of "my car".
            kind = (category_of(value) or category_of(f"my {value}")) if not targets else None
            if kind is not None and not any(is_one_of_mine(w) for w in words(value)):
                # "Sold the car" after "I drive a Ford Focus": no word is shared, but the
                # kind of thing is: the newest earlier fact of that kind goes (but "my cat
                # died" says nothing of the dog: a person or pet is named by its own word).
                return self.retract(kind.slot, NEWEST)
        else:
            targets = [
                f
                for f in self.facts.in_slot(slot)
                if f.active and (not value.strip() or _same_or_within(f.value, value))
            ]
            if evidence and _MINE.match(value):
                # "My sister moved to Milan" ends what was said of where she lives, not
                # that she is a nurse: what changed is of the kind the new words are.
                changed = _kind_beside(evidence, value)
                targets = [
                    f
                    for f in targets
                    if changed is None or _kind_beside(f.value, value) in (None, changed)
                ]
        return [self.retire(f) for f in targets]

    def correct(self, op: Op) -> list[Change]:
        old = op.replaces or ""
        pool = self.facts.in_slot(op.slot) if op.slot is not None else self.facts.active()
        matches = [f for f in pool if f.active and value_key(f.value) == value_key(old)]
        if not matches:
            matches = [f for f in pool if f.active and contains_words(f.value, old)]
        if not matches:
            # "DeepMind, not Google proper": the fact holding the name of what was corrected.
            for word in content_words(old):
                matches = [f for f in pool if f.active and contains_words(f.value, word)]
                if matches:
                    old = word
                    break
        if not matches:
            return self.add(op.slot, op.value) if op.slot is not None else []
        fact = matches[-1]
        if slot_info(fact.slot).kind == "single" or fact.slot is None:
            return [self.supersede_value(fact, _swap(fact.value, old, op.value))]
        # A list item corrected: the old item is retired and the new one added.
        return [self.retire(fact), *self.add(fact.slot, _swap(fact.value, old, op.value))]

    def recount(self, op: Op) -> list[Change]:
        """A number said as how things are now replaces the number of the earlier fact it is
        about (`quantities`); a fact this message stated with the new number already takes
        that fact's place."""
        earlier = sorted(
            (f for f in self.facts.active() if f.last_seen < self.now and holds_number(f.value)),
            key=lambda f: (f.last_seen, f.id),
            reverse=True,
        )
        for index, fact in enumerate(earlier):
            value = recounted(
                fact.value, op.evidence, op.value, newest=index == 0, age=fact.slot == "age"
            )
            if value is None:
                continue
            restated = [
                f
                for f in self.facts.active()
                if f.last_seen == self.now
                and f.slot == fact.slot
                and contains_words(f.value, op.value)
            ]
            return [self.retire(fact)] if restated else [self.supersede_value(fact, value)]
        return []

    def correct_newest(
        self, value: str, *, least: float = 0.0, single: bool = False, evidence: str = ""
    ) -> list[Change]:
        """A bare correction ("typo, 26"): in the newest fact, the word most like the new
        value (same kind: a number for a number, a name for a name) becomes it."""
        facts = self.newest_before()
        if not facts:
            return []
        fact = facts[0]
        if single and slot_info(fact.slot).kind != "single":
            return []  # "My dog is Rex", then "Glasgow now.": not what the dog became
        numeric = is_number(value)
        if numeric and counts_another_thing(fact.value, evidence, value):
            return []
        words = tokens(fact.value)
        kind = None if numeric else category_of(value)

        def same_kind(word: str) -> bool:
            # ("keto life", then "paleo*"): a word of the kind the value is of
            return kind is not None and getattr(category_of(word), "slot", None) == kind.slot

        candidates = [
            w
            for i, w in enumerate(words)
            if is_number(w) == numeric
            and w.casefold() != value.casefold()
            and (
                numeric
                or same_kind(w)
                # a capital that opens the fact is no name unless it is no word of the
                # language ("Zeus, my husky, …"); a number that opens it is a number
                or (w[:1].isupper() and (i > 0 or not common_word(w)))
            )
        ]
        if not candidates:
            return []

        def alike(word: str) -> float:
            return SequenceMatcher(None, word.casefold(), value.casefold()).ratio()

        old = max(candidates, key=alike)
        if numeric and not value.isdigit():
            value = value.casefold()  # "Four, actually": the number as the fact spells one
        if not numeric and alike(old) < least:
            return []  # nothing it could be a spelling of: not this fact's correction
        possessive = re.search(r"['’]s$", old)
        if possessive and not re.search(r"['’]s$", value):
            value += possessive.group()  # "Derek's birthday", corrected: "Darren's birthday"
        return [self.supersede_value(fact, re.sub(rf"\b{re.escape(old)}\b", value, fact.value))]


# How alike a respelt word must be to the word it replaces: a spelling said to be fixed may
# change half the word; a value merely said again must be the same word, mistyped.
_RESEMBLANCE = {SPELLING: 0.5, LOOKALIKE: 0.75}


_SOME_FAVOURITE = f"{FAVOURITE_PREFIX}thing"
# Where a job is done: "at a bank", "for Shopify", "in a hospital".
_WORKPLACE = re.compile(
    r"\b(?:at|for|with|in)\s+(?:(?:a|an|the|my|our)\s+)?(?P<place>[\w'&-]+)", re.I
)


def _same_place(stored: str, said: str) -> bool:
    """Whether two statements name the same place of work."""
    places = {stem(m["place"]) for m in _WORKPLACE.finditer(stored)}
    return bool(places & {stem(m["place"]) for m in _WORKPLACE.finditer(said)})


_FAVOURITE_WORD = re.compile(r"fav(?:ou?rite|e)s?$", re.IGNORECASE)
# Nouns that name no one thing: two statements sharing one speak of different things.
_GENERIC_NOUNS = frozenset(
    ("people", "person", "thing", "stuff", "lot", "place", "kind", "life", "world", "part")
)
_MINE = re.compile(r"(?:my|our)\s", re.IGNORECASE)


def _kind_beside(text: str, who: str | set[str]) -> str | None:
    """The kind of what a text says of someone, the words that name them left out."""
    names = [who] if isinstance(who, str) else sorted(who)
    said = text
    for name in names:
        if re.search(rf"{_COUNTED.pattern}\s+(?:\w+\s+)?{re.escape(name)}", said, re.I):
            return "count"  # "I have two kids", then "three kids, forgot the baby"
    for name in names:
        said = re.sub(
            rf"\b(?:(?:my|our)\s+)?{re.escape(name)}s?(?:['’]s)?\b", " ", said, flags=re.I
        )
    if _AGE_GIVEN.match(said):
        return "age"  # "my son is 7", "Luna is 4 months old"
    kind = category_of(said)
    return kind.slot if kind is not None else None


_COUNTED = re.compile(
    r"\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b", re.I
)
_AGE_GIVEN = re.compile(
    r"\W*(?:\w+\s+)?(?:(?:is|'s|turned|turns|just turned)\s+(?:\w+\s+)?\d+\b(?!\s*(?:am|pm|:))|"
    r"\d+\s+(?:years?|months?)\s+old)",
    re.IGNORECASE,
)


# A change said of a thing or a group named first, not of the user or their people.
_THING_MOVED = re.compile(
    r"\W*(?:our|the|my)\s+(?:team|company|office|firm|department|school|club|band|group|"
    r"meeting|class|lab|shop|business|gym|church)\b",
    re.IGNORECASE,
)
# A change of a kind of thing, named by its plural or as the user's own: "switched banks",
# "changed jobs", "switched my phone to dark mode".
_KIND_CHANGED = re.compile(
    r"\b(?:switched|changed|swapped|moved)\s+(?:(?P<kind>(?!to\b|over\b|from\b)[a-z]{3,}s)\b|"
    r"(?:my|our|the)\s+(?P<own>[a-z]{3,})\s+(?:to|over|from|into)\b)",
    re.IGNORECASE,
)


def _names_the_same(stored: str, said: str) -> bool:
    """Whether two statements share a word (by its stem) that is no function word."""
    a = {stem(w) for w in words(stored) if len(w) > 2} - _FUNCTION_STEMS
    b = {stem(w) for w in words(said) if len(w) > 2} - _FUNCTION_STEMS
    return bool(a & b)


_FUNCTION_STEMS = frozenset(
    stem(w)
    for w in (
        *("the", "and", "but", "for", "with", "now", "these", "days", "nowadays", "that"),
        *("this", "have", "has", "had", "was", "were", "are", "i'm", "i've", "it's"),
        *("mostly", "really", "just", "more", "much", "very", "all", "too", "also", "only"),
    )
)


def _same_or_within(stored: str, said: str) -> bool:
    return value_key(stored) == value_key(said) or contains_words(stored, said)


def _swap(stored: str, old: str, new: str) -> str:
    """The stored value with the corrected part replaced ("dog Rex" + Rex->Rax = "dog Rax")."""
    index = stored.casefold().find(old.casefold())
    if index < 0 or value_key(stored) == value_key(old):
        return new
    after = stored[index + len(old) :]
    # "oat" -> "almond milk" in "I drink oat milk": the noun the new value names already
    # follows the old one, and is said once.
    head = new.rsplit(None, 1)[-1]
    if " " in new and re.match(rf"\s+{re.escape(head)}\b", after, re.IGNORECASE):
        after = after.lstrip()[len(head) :]
    before = stored[:index]
    # "Sharma" -> "Priya Patel" in "I'm Priya Sharma": the word the new value opens with
    # already comes before the old one, and is said once.
    first = new.split(None, 1)[0]
    if " " in new and re.search(rf"\b{re.escape(first)}\s+$", before, re.IGNORECASE):
        before = before.rstrip()[: -len(first)]
    return before + new + after


_ADDITIVE = re.compile(
    r"\b(?:also|too|as well|another|other|second|third|more|both|plus|and|auch|aussi|"
    r"también|anche|também|ook)\b",
    re.IGNORECASE,
)


_CLAUSES = re.compile(r"\s*(?:[,;]|\bbut\b|\.\s)\s*", re.IGNORECASE)
_DENIAL = re.compile(r"\b(?:not|never|no longer)\b|n't\b", re.IGNORECASE)
# Words that hedge a denial and say nothing of their own.
_HEDGES = frozenset(
    ("turns", "turned", "out", "actually", "really", "after", "all", "anymore", "any", "more")
)
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|me|my|mine|we|we're|our|us)\b", re.IGNORECASE)


def _holds_all(stored: str, said: str) -> bool:
    said_words = content_words(said)
    return bool(said_words) and all(shares_stem(stored, w) for w in said_words)


def _without_denials(value: str, denied: Sequence[str]) -> str:
    """A statement without the clauses that only deny what this message retires: "I don't
    knit any more, pottery has taken over my weekends" keeps the pottery; "Turns out I'm
    not allergic to cats, it was the dust" keeps the dust; a denial alone keeps nothing,
    for the allergy it ended is the news. A denial that says more ("I
    don't run anymore since my injury") is kept whole."""
    clauses = [c for c in _CLAUSES.split(value) if c.strip()]

    def only_denies(clause: str) -> bool:
        if not _DENIAL.search(clause):
            return False
        said = {
            stem(w.casefold()) for w in content_words(clause) if not _FIRST_PERSON.fullmatch(w)
        } - {stem(h) for h in _HEDGES}
        ended = {stem(w.casefold()) for d in denied for w in content_words(d)}
        return bool(said & ended) and said <= ended

    if not any(only_denies(c) for c in clauses):
        return value
    return ", ".join(c for c in clauses if not only_denies(c))
