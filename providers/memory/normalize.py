"""Comparing values: "Cats", " the cat " and "cat" are one list item.

Deliberately modest: case, whitespace, articles, punctuation at the edges and regular
English/Romance plurals. Anything cleverer belongs to a model, not to a deterministic update
step whose results the user must be able to predict.
"""

from __future__ import annotations

import re
from functools import lru_cache

_WORD = re.compile(r"[^\W_]+(?:[-'’][^\W_]+)*", re.UNICODE)
_ARTICLES = frozenset(
    [
        "a",
        "an",
        "the",
        "my",
        "our",
        "some",
        "any",
        "le",
        "la",
        "les",
        "un",
        "une",
        "des",
        "el",
        "los",
        "las",
        "unos",
        "unas",
        "der",
        "die",
        "das",
        "ein",
        "eine",
        "mein",
        "meine",
        "mon",
        "ma",
        "mes",
        "mi",
        "mis",
    ]
)
# Words whose final "s" is not a plural.
_NOT_PLURAL_ENDINGS = ("ss", "us", "is", "ous", "sis", "ics")


def singular(word: str) -> str:
    if len(word) <= 3 or not word.endswith("s") or word.endswith(_NOT_PLURAL_ENDINGS):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes", "zes", "oes")):
        return word[:-2]
    return word[:-1]


def tokens(text: str) -> list[str]:
    """The words of a text as written, case and all ("Rex", "20mg", "ex-wife")."""
    return _WORD.findall(text)


@lru_cache(maxsize=65536)
def words(text: str) -> tuple[str, ...]:
    """Lower-case words of a text, plurals made singular and possessives plain ("my
    partner's name" holds "partner"); cached (values repeat a lot)."""
    return tuple(
        singular(w.removesuffix("'s")) for w in _WORD.findall(text.casefold().replace("’", "'"))
    )


def value_key(value: str) -> str:
    """The identity of a value within a slot: two values with one key are duplicates."""
    kept = [w for w in words(value) if w not in _ARTICLES]
    return " ".join(kept or words(value))


def contains_words(haystack: str, needle: str) -> bool:
    """Every word of `needle` (articles aside) is a word of `haystack`."""
    wanted = set(value_key(needle).split())
    return bool(wanted) and wanted <= set(words(haystack))


_SUFFIXES = ("ists", "ist", "ers", "er", "ing", "ies", "y", "ed", "ians", "ian", "es", "s", "e")


def stem(word: str) -> str:
    """A word without its commonest English derivational ending: "pharmacist" and "pharmacy"
    are "pharmac", "smoke", "smoker" and "smoking" are "smok"."""
    for suffix in _SUFFIXES:
        # (a silent "e" goes from a shorter word too: "bake" and "baking" are "bak")
        if word.endswith(suffix) and len(word) - len(suffix) >= (3 if suffix == "e" else 4):
            base = word[: -len(suffix)]
            if suffix in _DOUBLING and base[-1] == base[-2] and base[-1] not in "aeiouls":
                return base[:-1]  # "running", "swimmer": "run", "swim"
            return base
    return word


# Endings before which English doubles a final consonant ("run" -> "running", "runner").
_DOUBLING = frozenset({"ing", "ers", "er", "ed"})


def shares_stem(haystack: str, needle: str) -> bool:
    """Every word of `needle` shares its stem with a word of `haystack`: "left pharmacy"
    speaks of "a pharmacist", "quit smoking" of "a smoker"."""
    wanted = {stem(w) for w in value_key(needle).split()}
    have = {stem(w) for w in words(haystack)}
    return bool(wanted) and wanted <= have
