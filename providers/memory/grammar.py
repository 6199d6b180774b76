"""The pieces every language's rules are made of.

A language module describes its grammar as data: where clauses start, which words open a
question, a hypothetical or a task, which fillers to skip, and a list of `Rule`s: a compiled
pattern tried at a clause start (or anywhere, for object-position patterns such as "put me
on a low-salt diet") and a function turning the match into ops. The engine (`rules.py`)
decides where rules may run; a language module only says what its sentences look like.

Patterns are matched against the whole message with `pos`/`endpos`, so match offsets are
offsets in the user's text and every op's evidence is an exact span of it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .ops import Op, OpKind

MASK = "\x00"  # stands in for quoted text: nothing inside quotes is about the user
SUBJECT = "@S@"  # a rule's subject; dropped in the elided variant ("... und wohne in X")

Build = Callable[[re.Match[str], str], list[Op]]
Cleaner = Callable[[str], str]

FLAGS = re.IGNORECASE | re.UNICODE
UPPER = "A-ZÀ-ÖØ-ÞĀ-Ž"
# A proper name: one to three capitalised words (case-sensitive inside an ignore-case pattern).
NAME = rf"(?-i:[{UPPER}][\w'’-]*)(?:[ -](?-i:[{UPPER}][\w'’-]*)){{0,2}}"
VALUE = r"(?P<v>[^,;:.!?\x00]+)"  # up to the end of the clause
VALUES = r"(?P<v>[^;:.!?\x00]+)"  # a list, commas allowed


@dataclass(frozen=True, slots=True)
class Rule:
    pattern: re.Pattern[str]
    build: Build
    elided: re.Pattern[str] | None = None  # the same rule with its subject left out
    anywhere: bool = False


def rule(
    pattern: str,
    build: Build,
    *,
    subject: str = "",
    elidable: bool = False,
    anywhere: bool = False,
) -> Rule:
    """A rule from a pattern whose `@S@` stands for the subject (e.g. "I " or "ich ")."""
    full = re.compile(pattern.replace(SUBJECT, subject), FLAGS)
    bare = re.compile(pattern.replace(SUBJECT, ""), FLAGS) if elidable else None
    return Rule(full, build, bare, anywhere)


@dataclass(frozen=True)
class Grammar:
    code: str
    markers: frozenset[str]  # frequent function words, for telling languages apart
    question: re.Pattern[str]  # matched at a clause start: an interrogative clause
    hypothetical: re.Pattern[str]  # searched in a sentence: from there on nothing is asserted
    task: re.Pattern[str]  # matched at the sentence's start: a request about content
    pasted: re.Pattern[str]  # searched before a colon: what follows is pasted content
    breaks: re.Pattern[str]  # clause boundaries; group "causal" for because/since
    coordinator: re.Pattern[str]  # "and": the next clause may leave its subject out
    first_person: re.Pattern[str]  # a clause start that is the user speaking of themselves
    filler: re.Pattern[str]  # discourse words skipped at a clause start
    forget: tuple[Rule, ...]
    style: tuple[Rule, ...]
    facts: tuple[Rule, ...]
    indirect: tuple[Rule, ...] = field(default=())  # "Being diabetic, ..." even in requests
    # In a task sentence: what follows is the content ("Summarise the following email.")
    forward: re.Pattern[str] = re.compile(
        r"\b(?:following|below|as\s+follows|folgenden?|folgendes|unten|suivante?s?|"
        r"ci-dessous|siguientes?|abajo)\b|\b(?:this|these|dies(?:e|en|es)?|ceci|esto)\s*[.:]?\s*$",
        re.IGNORECASE,
    )


def compile_words(words: Sequence[str]) -> str:
    """An alternation of phrases, longest first so "ice cream" wins over "ice"."""
    unique = sorted({w.strip() for w in words if w.strip()}, key=lambda w: (-len(w), w))
    return "(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in unique) + ")"


def tidy(value: str) -> str:
    return " ".join(value.replace("’", "'").split()).strip(" '\"-–—")


def make_cleaner(cuts: str, trailing: str, leading: str = "") -> Cleaner:
    """A value cleaner: cut at `cuts` (a new clause inside the capture), strip `trailing`
    fillers ("now", "anymore") and `leading` determiners, repeatedly."""
    cut_re = re.compile(cuts, FLAGS)
    trail_re = re.compile(rf"(?:[\s,]+(?:{trailing}))+\s*$", FLAGS)
    lead_re = re.compile(rf"^(?:(?:{leading})\s+)+", FLAGS) if leading else None

    def clean(value: str) -> str:
        value = value.replace(MASK, " " + MASK + " ")
        cut = cut_re.search(value)
        if cut:
            value = value[: cut.start()]
        value = trail_re.sub("", tidy(value))
        if lead_re is not None:
            value = lead_re.sub("", value)
        return tidy(value)

    return clean


def split_items(value: str, separators: str) -> list[str]:
    parts = re.split(separators, value, flags=FLAGS)
    return [tidy(p) for p in parts if tidy(p)]


def acceptable(value: str, *, max_words: int = 8, banned: re.Pattern[str] | None = None) -> bool:
    """Is this a value worth storing? Not empty, no quoted text, not a pronoun, not a
    sentence."""
    if not value or MASK in value or len(value.split()) > max_words:
        return False
    return not (banned is not None and banned.match(value))


def op(
    kind: OpKind, slot: str | None, value: str, evidence: str, replaces: str | None = None
) -> Op:
    return Op(kind, slot, value, evidence, replaces)
