"""A number said again as how things are now: "Ava turned seven", "make that four cats",
"up to 25k a week now", "my doctor upped it to 40mg", "just had my 45th birthday".

No cue names what changed, so the earlier fact is found by what it is about:
- it names the same one (a name, "Ava"; or a word for a person or pet, "my son");
- or it counts the same thing: the word or unit after the number ("cats", "mg", "k a week");
- or the message says "that" or "it" of the thing ("make that three") and the fact is the
  newest one holding a number;
- or the message tells the user's own age ("turned 35", "my 45th birthday", "35 now!") and
  the fact is the user's age, a little younger.
The number in that fact is replaced, so the rest stays in the user's words ("I'm on 40mg of
citalopram"); a fact that names another person than the message does is never touched.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .antecedents import ONES_OF_MINE
from .normalize import stem, words
from .ops import Op
from .same_thing import is_number
from .truecasing import common_word

# The op's `replaces`: the value is a number that replaces one in an earlier fact.
RECOUNT = "*recount*"

# A number as written, with what it counts: "40mg", "25k a week", "45th", "four cats".
_NUMBER = re.compile(
    r"(?<![\w.])(?<![^\W\d_]-)(?P<number>\d+(?:[.,]\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|"
    r"eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|"
    r"thirty|forty|fifty|sixty)(?P<ordinal>st|nd|rd|th)?(?P<unit>[a-z]{1,3}\b)?"
    r"(?:\s+(?P<noun>(?!(?:and|or|but|now|on|in|at|the|a|an|to|so|since|of|with|for|"
    r"yesterday|today|last|this|next)\b)[a-z][\w'-]*))?",
    re.IGNORECASE,
)
# Says the number is how things are now (not a count in passing).
_NOW_SAID = re.compile(
    r"\b(?:turn(?:s|ed|ing)?|now|make (?:that|it)|up to|down to|upped|increased|raised|"
    r"lowered|reduced|bumped|went up|gone up|birthday|jetzt|inzwischen|maintenant|"
    r"désormais|ahora|ya)\b",
    re.IGNORECASE,
)
# What the thing counted is called when it is not named again: "make that three", "upped it".
_ELIDED = re.compile(
    r"\bmake (?:that|it)\b|\b(?:upped|raised|lowered|reduced|bumped|cut) it\b", re.I
)
# A number asked about or imagined is no news.
_NOT_SO = re.compile(
    r"\?\s*$|^\W*(?:if|should|would|could|might|maybe|what if)\b|"
    r"\b(?:if|whether|unless) (?:i|we|you|he|she|they|my|our)\b",
    re.I,
)
# A question asked after a lead that tells, at the lead's comma.
_ASKED_AFTER = re.compile(
    r"(?<=\w),\s*(?:so\s+|and\s+|but\s+)?(?:what|how|which|any|can|could|would|should|do|does|"
    r"is|are|where|when|why|who|ideas|tips|thoughts)\b[^,]*\?\s*$",
    re.IGNORECASE,
)
# The user's own age told: a birthday of theirs, or "turned" with no one else named.
_AGE_SAID = re.compile(
    r"\bmy (?:\d+(?:st|nd|rd|th) )?birthday\b|\b\d+(?:st|nd|rd|th) birthday\b|"
    r"\bturn(?:ed|ing)\b|^\W*(?:\w+\W+){0,2}\d+ now\W*$",
    re.I,
)
# Whose someone else is: "my son's friend", "her best friend", "his teacher".
_WHOSE = re.compile(
    r"\b(?:(?!it['’]s)\w+['’]s|her|his|their)\s+(?=(?:\w+\s+)?(?:friend|mate|teacher|coach|boss|classmate|"
    r"girlfriend|boyfriend|partner|wife|husband|son|daughter|kid|baby|dog|cat|puppy)s?\b)",
    re.I,
)
_CLAUSE = re.compile(r",\s*|;\s*|\s+(?:so|but|and then)\s+", re.I)
_TIME_UNIT = re.compile(r"(?:day|week|month|year)s?", re.I)
_SPAN = re.compile(r"(?:sec(?:ond)?|min(?:ute)?|h(?:ou)?r|day|week|month|year)s?|[hms]", re.I)
_CAPITALISED = re.compile(r"(?<![\w'])(?-i:[A-Z])[\w'-]+")


@dataclass(frozen=True, slots=True)
class Quantity:
    number: str  # as written, without an ordinal's ending ("45", "seven", "40")
    unit: str  # letters joined to it ("mg", "k"), lower case
    noun: str  # the word after it ("cats", "a" left out), lower case
    start: int
    end: int  # of the number and its unit, in the text it was found in


def quantities(text: str) -> list[Quantity]:
    return [
        Quantity(
            m["number"],
            (m["unit"] or "").casefold(),
            (m["noun"] or "").casefold(),
            m.start(),
            m.end("unit") if m["unit"] else m.end("ordinal") if m["ordinal"] else m.end("number"),
        )
        for m in _NUMBER.finditer(text)
    ]


def recounts(sentence: str) -> list[Op]:
    """The number a sentence gives as how things are now, as an op for the update step."""
    # ("Ben turned 10 on Saturday, what would you recommend?": the lead tells, the
    # question after it asks)
    sentence = _ASKED_AFTER.sub("", sentence)
    if not _NOW_SAID.search(sentence) or _NOT_SO.search(sentence):
        return []
    found = quantities(sentence)
    if len(found) > 1:
        # "my sister took one of the cats, so it's just two cats here now": the number is
        # the one in the clause that says "now", when that clause holds only it
        found = [
            q
            for part in _CLAUSE.split(sentence)
            if _NOW_SAID.search(part)
            for q in quantities(part)
        ]
    if len(found) != 1:
        return []  # two numbers: which one changed is not told
    (new,) = found
    return [Op("update", None, new.number + new.unit, sentence, replaces=RECOUNT)]


def _names(text: str) -> set[str]:
    return {
        w.casefold()
        for w in _CAPITALISED.findall(text)
        if w != "I" and not w.startswith("I'") and not common_word(w)
    }


def _ones_of_mine(text: str) -> set[str]:
    return {stem(m.group().casefold().rstrip("s")) for m in ONES_OF_MINE.finditer(text)}


def _same_thing(old: Quantity, new: Quantity) -> bool:
    if new.unit or old.unit:
        return new.unit == old.unit
    return (
        bool(new.noun) and bool(old.noun) and stem(words(new.noun)[0]) == stem(words(old.noun)[0])
    )


def recounted(value: str, evidence: str, new_value: str, *, newest: bool, age: bool) -> str | None:
    """The fact's value with its number replaced by the one the evidence gives, or None when
    the evidence is not about this fact. `newest`: the fact is the newest earlier one holding
    a number; `age`: it is the user's age."""
    given = quantities(new_value)
    if not given:
        return None
    new = given[0]
    new_full = next((q for q in quantities(evidence) if q.number == new.number), new)
    held = quantities(value)
    if not held:
        return None
    if _WHOSE.search(evidence):
        return None  # "my son's friend turned 5", "her dog is 4 now": someone else's
    names, theirs = _names(evidence), _ones_of_mine(evidence)
    about_same = bool(names & _names(value)) or bool(theirs & _ones_of_mine(value))
    elided = newest and _ELIDED.search(evidence) is not None
    if (names or theirs) and not about_same and not elided:
        return None  # "my sister just turned 40": another one than the fact is about
    counted = [q for q in held if _same_thing(q, new_full)]
    # "six years now" counts years of something: of the fact's only when it names the same
    # thing ("been in Boston six years" of "I've lived in Boston for 5 years")
    if (
        counted
        and _SPAN.fullmatch(new_full.unit or new_full.noun)
        and not about_same
        and not _shared_words(value, evidence, counted[0])
    ):
        counted = []
    single = held[0] if len(held) == 1 else None
    # "make that three" of the newest count; or the one named ("Theo turned 5"), when the
    # number is of it and not of something it has
    of_the_one = single is not None and (elided or (about_same and _counts_nothing_else(new_full)))
    # the user's age, told by a birthday or "turned", a little older
    aged = (
        single is not None
        and age
        and not (names or theirs)
        and _AGE_SAID.search(evidence) is not None
        and _older(single.number, new.number)
    )
    if counted:
        old = counted[0]
    elif single is not None and (of_the_one or aged):
        old = single
    else:
        return None
    if old.number.casefold() == new.number.casefold():
        return None
    start, end = old.start, old.end
    rest = value[end:]
    if not new_full.unit and not new_full.noun and _TIME_UNIT.fullmatch(old.noun):
        # "Luna is 4 months old", then "Luna just turned one": one year, not one month.
        end = end + len(rest) - len(re.sub(rf"^\s+{old.noun}(?:\s+old)?", "", rest, flags=re.I))
    return value[:start] + new.number + (old.unit if not new.unit else new.unit) + value[end:]


def _counts_nothing_else(new: Quantity) -> bool:
    """ "Theo turned 5", "Mochi is 3 years old now": a number of the one named, not of
    something it has ("…wants 3 puppies now")."""
    return not new.unit and (not new.noun or _TIME_UNIT.fullmatch(new.noun) is not None)


def counts_another_thing(value: str, evidence: str, number: str) -> bool:
    """Whether the evidence gives `number` as a span of time while the fact's numbers count
    things: "running 10 minutes late, sorry" corrects no "2 dogs"."""
    said = [q for q in quantities(evidence) if q.number.casefold() == number.casefold()]
    if not said or not _SPAN.fullmatch(said[0].unit or said[0].noun):
        return False
    held = quantities(value)
    return bool(held) and all(
        (h.unit or h.noun) and not _SPAN.fullmatch(h.unit or h.noun) for h in held
    )


def _shared_words(value: str, evidence: str, held: Quantity) -> bool:
    """Whether the fact and the evidence share a content word besides the number's own."""
    own = {held.number.casefold(), held.unit, held.noun}
    mine = {w for w in words(value) if len(w) > 3} - own
    return bool(mine & {w for w in words(evidence) if len(w) > 3})


def _older(old: str, new: str) -> bool:
    if not (old.isdigit() and new.isdigit()):
        return False
    return 0 < int(new) - int(old) <= 3


def holds_number(value: str) -> bool:
    return any(is_number(w) or w[:1].isdigit() for w in re.findall(r"[\w'-]+", value))
