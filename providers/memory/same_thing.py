"""What a statement is about, for the update step: the words that name its thing, so that a
newer statement of the same thing can be told from one more item of a list."""

from __future__ import annotations

import re

from .clause_patterns import content_words
from .normalize import singular, tokens

_NUMBER_WORDS = frozenset(
    (
        *("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
        *("eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen"),
        *("eighteen", "nineteen", "twenty", "thirty", "forty", "fifty", "sixty"),
    )
)


def is_number(word: str) -> bool:
    return word.isdigit() or word.casefold() in _NUMBER_WORDS


# What a statement is about is named after a possessive, a definite article, a preposition
# of place or "of" ("at home", "my home PC", "20mg of sertraline"), or a number that counts
# it ("two daughters", "three coffees"); its verb ("love", "play", "named") is the kind of
# statement, which two items of one list share, and a noun of time ("a day", "on Sundays")
# says when, not what.
_ABOUT = re.compile(
    r"\b(?:my|our|his|her|their|the|at|on|in|of|\d+|"
    r"(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty))"
    # (looked ahead to, so that "on 20mg of sertraline" reads "of sertraline" as well)
    r"\s+(?=((?:[\w'-]+\s+)?[\w'-]+))",
    re.IGNORECASE,
)
_TIME_NOUN = re.compile(
    r"(?:day|week|month|year|morning|afternoon|evening|night|hour|minute|weekend|time|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day)s?",
    re.IGNORECASE,
)


def frame_words(text: str) -> set[str]:
    """The words of a statement that say what thing it is about."""
    return {
        singular(_POSSESSIVE.sub("", word.casefold()))
        for m in _ABOUT.finditer(text)
        for word in content_words(m.group(1))
        if not word[:1].isdigit() and not _TIME_NOUN.fullmatch(word)
    }


# "my cat's name" is about the cat.
_POSSESSIVE = re.compile(r"['’]s?$")
_SUBJECTS = frozenset({"i", "i'm", "im", "i've", "ive", "i'd", "we", "we're", "we've", "you"})


def things(text: str) -> set[str]:
    """The common nouns of a statement, as far as word order tells them: not a name, nor
    the word after its subject or opening it, where a verb stands ("Cut coffee completely":
    coffee), nor an adverb, a number or a noun of time."""
    said = tokens(text)
    found: set[str] = set()
    for index, word in enumerate(said):
        before = said[index - 1].casefold() if index else ""
        if (
            index == 0
            or before in _SUBJECTS
            or (index and word[:1].isupper())
            or word.casefold().endswith("ly")
            or is_number(word)
            or word[:1].isdigit()
            or _TIME_NOUN.fullmatch(word)
        ):
            continue
        found.update(singular(w.casefold()) for w in content_words(word))
    return found
