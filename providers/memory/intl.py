"""Builders shared by the German, French and Spanish rules (English has richer ones)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from .build import Builders
from .grammar import FLAGS, Build, Cleaner, compile_words, op, tidy
from .ops import Op
from .topics import favourite_for

# A plural relation said with names is one relation per name: "two kids, Sam and Jo".
ONE_OF = {
    "children": "child",
    "sons": "son",
    "daughters": "daughter",
    "brothers": "brother",
    "sisters": "sister",
    "siblings": "sibling",
    "grandchildren": "grandchild",
    "twins": "twin",
}
NAME_SPLIT = re.compile(r"\s*(?:,|\bund\b|\bet\b|\by\b|\be\b|&)\s*", FLAGS)


def words_of(mapping: Mapping[str, str] | Sequence[str]) -> str:
    return compile_words(list(mapping))


def _names(m: re.Match[str]) -> list[str]:
    names = ""
    for group in ("names", "n"):
        if group in m.re.groupindex and m.group(group):
            names = m.group(group)
    return [n for n in NAME_SPLIT.split(names) if n]


def family(relatives: Mapping[str, str]) -> Build:
    def build(m: re.Match[str], evidence: str) -> list[Op]:
        word = m.group("rel").casefold()
        rel = relatives.get(word, word)
        names = _names(m)
        if not names:
            num = m.group("num") if "num" in m.re.groupindex else None
            return [op("add", "family", f"{num} {m.group('rel')}", evidence)] if num else []
        rel = ONE_OF.get(rel, rel)
        return [op("add", "family", f"{rel} {n}", evidence) for n in names]

    return build


def pets(species: Mapping[str, str]) -> Build:
    def build(m: re.Match[str], evidence: str) -> list[Op]:
        word = m.group("pet").casefold()
        kind = species.get(word, word)
        names = _names(m)
        if not names:
            return [op("add", "pets", kind, evidence)]
        return [op("add", "pets", f"{kind} {n}", evidence) for n in names]

    return build


def languages(table: Mapping[str, str], slot: str, b: Builders) -> Build:
    def build(m: re.Match[str], evidence: str) -> list[Op]:
        made = []
        for item in b.values(m.group("v"), "languages", 3):
            name = table.get(item.casefold())
            if name:
                made.append(op("add", slot, name, evidence))
        return made

    return build


def favourite(clean: Cleaner, b: Builders) -> Build:
    def build(m: re.Match[str], evidence: str) -> list[Op]:
        value = clean(m.group("v"))
        if not b.ok(value, 6):
            return []
        return [op("add", favourite_for(m.group("thing")), value, evidence)]

    return build


def predicate(tables: Sequence[tuple[str, Sequence[str]]], clean: Cleaner) -> Build:
    """ "ich bin X" / "je suis X" / "soy X": the first table whose word heads X names the
    slot; the value is X as said."""
    compiled = [(slot, re.compile(rf"{compile_words(words)}\b", FLAGS)) for slot, words in tables]

    def build(m: re.Match[str], evidence: str) -> list[Op]:
        value = clean(m.group("v"))
        negative = "neg" in m.re.groupindex and bool(m.group("neg"))
        bare = re.sub(r"^(?:un|une|ein|eine|una|uno)\s+", "", value, flags=FLAGS)
        for slot, pattern in compiled:
            head = pattern.match(bare)
            if head and len(bare.split()) <= 6:
                kept = bare if slot in ("job", "health") else head.group()
                return [op("retract" if negative else "add", slot, tidy(kept), evidence)]
        return []

    return build
