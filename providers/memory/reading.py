"""What the statement reader reads with: a message's text with quotations blanked, its
sentences and clauses, a clause trimmed of fillers, and the reader's state and its plainest
questions (`ReaderBase`). The reader itself (`statements._Reader`) is put together from the
parts in `reading_requests`, `reading_short`, `reading_fixes`, `reading_clause` and
`reading_lasting`."""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass

from .categories import category_of
from .change_patterns import ENDING, EXCHANGE
from .clause_patterns import (
    CLAUSE_BREAK,
    FAVOURITE,
    FINITE,
    GENERAL_TRUTH,
    HEDGE,
    QUOTE,
    SENTENCE,
    WORD,
    content_words,
)
from .lexicon import (
    Compiled,
    compiled,
    language_of,
)
from .ops import Op
from .remark_patterns import (
    IMAGINED,
    LEFT_FOR,
)
from .slots import favourite_slot
from .subject_patterns import ADDRESSED, DROPPED_MY, IN_PLACE, MY_PEOPLE, NAME_INTRO, NATIONALITY
from .talk_patterns import CHOICE, TITLE
from .time_patterns import INTENT, SINCE_A_CHANGE
from .truecasing import common_word

# The kinds of standing state an intention has not changed yet.
_STATES = frozenset({"home", "work", "diet"})
_NAMED_SUBJECT = re.compile(r"[A-Z][a-z]+(?:[ -][A-Z][a-z]+)?")


_NAMED_FIRST = re.compile(
    r"\s*(?:(?:hi|hey|hello)[,!]?\s+)?(?:i'm|i am|im|my name is|my name's|name's|call me)\s+"
    r"(?P<name>(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?)(?=\s*,\s*\S)",
    re.IGNORECASE,
)
# The word before "here", which in "Priya here" is a name and in "Moved here" a verb.
_HERE = re.compile(r"(?P<word>[\w'-]+)\s+here\b")
# A self-introduction that gives the name after its opener ("I'm …", "call me …").
_NAMED_AFTER = re.compile(
    r"(?:(?:hi|hey|hello)[,!]?\s+)?(?:i'm|i am|im|it's|this is|call me)\s+(?-i:[A-Z])", re.I
)
_KIN_BEFORE_I = re.compile(r"(?:my|our)\s+(?!name)[\w'-]+(?:\s+[\w'-]+){0,2}", re.IGNORECASE)


def mask_quotes(text: str) -> str:
    """The text with each quotation blanked out (same length, so offsets still hold). A
    title ("I loved 'Becoming Nicole'") is the user's own word for a thing, not a quotation."""
    return QUOTE.sub(
        lambda m: m.group() if TITLE.fullmatch(m.group()[1:-1]) else " " * len(m.group()), text
    )


def sentences(text: str) -> Iterator[tuple[int, int]]:
    for m in SENTENCE.finditer(text):
        if m.group().strip():
            yield m.start(), m.end()


def clauses(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    at = start
    named = _NAMED_FIRST.match(text, start, end)
    if (
        named is not None
        and category_of(named["name"]) is None
        and not re.fullmatch(NATIONALITY, named["name"])
        and category_of(text[named.end() : end]) is not None  # (else kept whole, as a note)
    ):
        # "I'm Lena, 34, nurse from Hamburg": the name is a statement of its own, and what
        # follows it describes the one named.
        yield start, named.end()
        at = named.end() + 1
    for m in _breaks(text, start, end):
        if len(WORD.findall(text, at, m.start())) <= 1:
            continue  # "Jonas, my son, …": a name before an apposition opens no clause
        before = text[at : m.start()].strip()
        if (
            m.group().strip().casefold() == "and"
            and _KIN_BEFORE_I.fullmatch(before)
            and not FINITE.search(before)
        ):
            continue  # "My wife Ana and I run a bakery": the two of them are one subject
        if m.start() > at:
            yield at, m.start()
        at = m.end()
    if at < end:
        yield at, end


def _breaks(text: str, start: int, end: int) -> list[re.Match[str]]:
    """Where clauses break: `CLAUSE_BREAK`, and, with no comma to mark it, where the main
    clause's subject comes after a fronted change ("Since I got diagnosed with celiac back
    in college I've mostly gotten used to it") or after a time ("… for six years now and
    tonight I finally threw a bowl")."""
    found = list(CLAUSE_BREAK.finditer(text, start, end))
    opening = start + len(text[start:end]) - len(text[start:end].lstrip())
    fronted = SINCE_A_CHANGE.match(text, opening, end)
    if fronted is not None and not any(m.start() > fronted.end() for m in found):
        main = _MAIN_SUBJECT.search(text, fronted.end(), end)
        if main is not None:
            found.append(main)
    found.extend(_AND_THEN_I.finditer(text, start, end))
    return sorted(found, key=lambda m: m.start())


# The subject of a main clause after a fronted one: "… back in college I've mostly…".
_MAIN_SUBJECT = re.compile(r"\s+(?=(?:i|i've|i'm|we|we've|we're)\s)", re.IGNORECASE)
_AND_THEN_I = re.compile(
    r"\s+and\s+(?=(?:tonight|today|yesterday|this morning|last night|then)\s+(?:i|we)\b)",
    re.IGNORECASE,
)


def trim(text: str, lang: Compiled) -> str:
    fillers = lang.opens["fillers"]
    text = HEDGE.sub("", text.strip(" \t,;:-–—"))
    while lang.closing is not None and (end := lang.closing.search(text)) is not None:
        text = text[: end.start()]
    while fillers is not None:
        m = fillers.match(text)
        if m is None or m.end() == 0:
            break
        rest = text[m.end() :].lstrip(" ,:!-–—")
        if not rest or rest == text:
            break
        text = rest
    return text.strip(" \t,;-–—")


@dataclass(frozen=True, slots=True)
class Endings:
    """A clause cut where it says something ended: its parts, the parts that only end
    something (kept out of what is stored), and what they end."""

    parts: list[str]
    ending: list[str]
    gone: list[str]
    exchanged: bool

    @property
    def rest(self) -> str:
        return ", ".join(p for p in self.parts if p not in self.ending)


def endings(clause: str) -> Endings:
    """ "Traded the Golf in for a Tesla": the Golf goes and "Traded in for a Tesla" stays;
    "left the terminal job for one at the university": the new one stays; "Greg left": only
    Greg goes."""
    parts = [p for p in re.split(r"[,;]\s*|\s+and\s+|:\s+", clause) if p.strip()]
    ending: list[str] = []
    gone: list[str] = []
    exchanged = False
    for index, part in enumerate(parts):
        if not ENDING.search(part):
            continue
        exchange = EXCHANGE.search(part)
        if exchange is not None:
            given = "given" if exchange["given"] is not None else "given_from"
            gone.append(exchange["old"] or exchange["old_from"])
            # What it was given for stays, without the old one's name in it.
            kept = part[: exchange.start(given)] + part[exchange.end(given) :]
            parts[index] = " ".join(kept.split())
            exchanged = True
            continue
        gone.append(ended_thing(part))
        if LEFT_FOR.search(part):
            exchanged = True
        else:
            ending.append(part)
    return Endings(parts, ending, gone, exchanged)


_WE = re.compile(r"we|i", re.IGNORECASE)  # the user, not someone named
_PASSIVE = re.compile(r"(?:got|was|were|been|is|are|'s)\s", re.IGNORECASE)


def ended_thing(part: str) -> str:
    """What a clause says has ended: the object of its verb ("done with British Airways"),
    else its subject ("the Civic's gone"); what it was left for is no part of it."""
    m = ENDING.search(part)
    if m is None:
        return part
    after, before = part[m.end() :], part[: m.start()]
    # "Priya left the company": someone named is who went, not what they left.
    named = _NAMED_SUBJECT.fullmatch(before.strip()) and not _WE.fullmatch(before.strip())
    # "my bike got stolen last week so now I'm taking the bus": said in the passive, what
    # ended is the subject, whatever follows
    passive = _PASSIVE.match(m.group()) is not None and content_words(before)
    target = after if content_words(after) and not named and not passive else before
    return LEFT_FOR.split(target, maxsplit=1)[0]


@dataclass(slots=True)
class Group:
    """Neighbouring clauses about one thing: kept as one statement."""

    slot: str | None
    values: list[str]
    index: int
    start: int
    end: int
    edited: bool


class ReaderBase(ABC):
    """One message being read: its text (quotations blanked), language, the operations found
    so far, and the questions every part of the reader asks of a clause."""

    def __init__(self, message: str) -> None:
        self.message = message
        self.code = language_of(message)
        self.lang = compiled(self.code)
        self.text = mask_quotes(message)
        self.ops: list[Op] = []
        # A turn of over 25 words is conversation more than telling: someone who tells a
        # fact to be kept says it in a sentence or two.
        self.chatty = len(WORD.findall(message)) > 25
        self.introduces_task = False  # a request that opens a text to work on ("Fix this: …")

    def has(self, kind: str, text: str) -> bool:
        pattern = self.lang.search[kind]
        return pattern is not None and pattern.search(text) is not None

    def opens(self, kind: str, text: str) -> bool:
        pattern = self.lang.opens[kind]
        return pattern is not None and pattern.match(text) is not None

    @staticmethod
    def slot_of(value: str) -> str | None:
        kind = category_of(value)
        if CHOICE.fullmatch(value):
            return "likes"  # "Tea over coffee": what is chosen is liked, whatever it is
        if ADDRESSED.search(value):
            return "name"  # "Frau Berger passt": a title is no kind the user is
        here = _HERE.match(value)
        # ("Moved here in March": a word of the language before "here" is no one's name)
        if NAME_INTRO.search(value) and not (here and common_word(here["word"])):
            if _NAMED_AFTER.match(value):
                return "name"  # "I'm Kat, short for Katarzyna": the word after is a name
            # "Paramedic here" names a trade, "Priya here" a person.
            named = category_of(WORD.findall(value)[0]) if WORD.search(value) else None
            if named is not None and named.slot != "name":
                return named.slot
            if kind is None or kind.slot == "name":
                return "name"
        if kind is not None and kind.slot in _STATES and (intent := INTENT.search(value)):
            told_first = category_of(value[: intent.start()])
            # "Planning to move to Austin": not where the user lives yet (but "I live in
            # Lisbon and want to find hikes nearby" lives there)
            if told_first is None or told_first.slot != kind.slot:
                return "goals"
        if IN_PLACE.search(value):
            return "home"
        # "Ezra, my seven-year-old, is…": a name in apposition comes first.
        apposed = re.match(r"[A-Z][\w'-]+,\s+", value)
        subject = MY_PEOPLE.match(value, apposed.end() if apposed else 0)
        if subject is not None:
            # "My sister lives in Galway" is about the sister: it must not move the user.
            found = category_of(subject.group())
            return found.slot if found else "family"
        favourite = FAVOURITE.search(value)
        if favourite is not None:
            thing = favourite["thing"] or favourite["after"] or favourite["named"] or "thing"
            return favourite_slot(
                re.sub(r"\s+(?:now|these days|too|again)$", "", thing, flags=re.I)
            )
        dropped = DROPPED_MY.match(value)  # "Car's a Tesla now": the user's car
        found = (dropped and category_of(f"my {dropped['thing']}")) or category_of(value)
        return found.slot if found else None

    # -- one clause ------------------------------------------------------------------------
    def first_person(self, clause: str) -> bool:
        return self.has("first_person", clause) or self.has("first_person_verbs", clause)

    def of_the_world(self, said: str) -> bool:
        """A truth of the world or a motto, with no first person ("Honesty is the best
        policy"): nobody's fact or taste."""
        return GENERAL_TRUTH.match(said) is not None and not self.first_person(said)

    def imagined(self, said: str) -> bool:
        """Pretend, role-play or fiction: nothing in it is the user's."""
        return self.opens("hypothetical", said) or IMAGINED.search(said) is not None

    @abstractmethod
    def clause(self, clause: str, *, sentence_about_user: bool) -> tuple[str | None, str] | None:
        """The (slot, words) a clause adds, or None (`reading_clause.Clauses`)."""

    @abstractmethod
    def lasting(self, clause: str) -> bool:
        """Whether a statement holds beyond the occasion it was said on."""

    @abstractmethod
    def asks(self, clause: str) -> bool:
        """Whether a clause asks rather than tells."""

    @abstractmethod
    def fragment(self, clause: str) -> bool:
        """Whether a clause is a verbless self-description (`reading_clause.Clauses`)."""

    @abstractmethod
    def retire(
        self, text: str, *, bare_ok: bool = True, said_in: str = "", whole: bool = False
    ) -> None:
        """Retires what a text, said in the clause `said_in`, says has ended; `whole`: the
        text names one thing, not a thing a word (`reading_fixes.Corrections`)."""
