"""Natural-language forget: from "where I work" or "mon adresse" to the facts it means.

A language gives a `TopicTable`: patterns naming a slot or a category, patterns with a word
that narrows a slot ("my dog" -> the pets that are dogs), the phrases meaning everything,
and the favourite pattern. What no entry names falls back to its content words, all of which
a fact must contain to be forgotten, so a vague topic forgets little rather than too much.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from .grammar import tidy
from .normalize import singular, words
from .ops import CATEGORY_PREFIX, FORGET_ALL, Op
from .slots import favourite_slot

# Favourite things named in any language, to one canonical English slot name.
FAVOURITE_THINGS: Mapping[str, str] = {
    "color": "colour",
    "colour": "colour",
    "farbe": "colour",
    "couleur": "colour",
    "color favorito": "colour",
    "football team": "team",
    "soccer team": "team",
    "sports team": "team",
    "club": "team",
    "football club": "team",
    "team": "team",
    "mannschaft": "team",
    "verein": "team",
    "équipe": "team",
    "equipo": "team",
    "food": "food",
    "dish": "food",
    "meal": "food",
    "essen": "food",
    "gericht": "food",
    "plat": "food",
    "comida": "food",
    "plato": "food",
    "band": "band",
    "group": "band",
    "groupe": "band",
    "grupo": "band",
    "singer": "singer",
    "sänger": "singer",
    "sängerin": "singer",
    "chanteur": "singer",
    "chanteuse": "singer",
    "cantante": "singer",
    "book": "book",
    "buch": "book",
    "livre": "book",
    "libro": "book",
    "film": "film",
    "movie": "film",
    "película": "film",
    "pelicula": "film",
    "song": "song",
    "lied": "song",
    "chanson": "song",
    "canción": "song",
    "artist": "artist",
    "künstler": "artist",
    "sport": "sport",
    "animal": "animal",
    "tier": "animal",
    "city": "city",
    "stadt": "city",
    "ville": "city",
    "ciudad": "city",
    "drink": "drink",
    "getränk": "drink",
    "boisson": "drink",
    "bebida": "drink",
    "author": "author",
    "writer": "author",
    "autor": "author",
    "auteur": "author",
    "game": "game",
    "spiel": "game",
    "jeu": "game",
    "juego": "game",
    "show": "show",
    "tv show": "show",
    "series": "show",
    "serie": "show",
    "série": "show",
    "musician": "musician",
    "fruit": "fruit",
    "obst": "fruit",
    "fruta": "fruit",
    "season": "season",
    "holiday destination": "holiday destination",
    "restaurant": "restaurant",
    "cuisine": "cuisine",
    "küche": "cuisine",
    "genre": "genre",
    "music": "music",
    "musik": "music",
    "musique": "music",
    "música": "music",
    "flower": "flower",
    "blume": "flower",
    "fleur": "flower",
}


def favourite_for(thing: str) -> str:
    text = " ".join(tidy(thing).casefold().split())
    canonical = FAVOURITE_THINGS.get(text)
    if canonical is None:
        canonical = FAVOURITE_THINGS.get(" ".join(singular(w) for w in text.split()), text)
    return favourite_slot(canonical)


@dataclass(frozen=True)
class TopicTable:
    everything: re.Pattern[str]  # fullmatch: the whole memory
    strip: re.Pattern[str]  # leading words to drop ("about", "what I told you about")
    trailing: re.Pattern[str]  # trailing words to drop ("please", "about me")
    entries: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...]  # searched: selectors
    # group "w" narrows the slot; the mapping gives the word as values store it ("mum": "mother")
    narrowed: tuple[tuple[re.Pattern[str], str, Mapping[str, str]], ...] = ()
    favourite: re.Pattern[str] | None = None  # group "thing"
    stop: frozenset[str] = field(default_factory=frozenset)


def forget_ops(topic: str, evidence: str, table: TopicTable) -> list[Op]:
    text = tidy(topic)
    while True:
        stripped = table.strip.sub("", text, count=1).strip()
        stripped = table.trailing.sub("", stripped).strip()
        if stripped == text:
            break
        text = stripped
    if not text:
        return []
    if table.everything.fullmatch(text):
        return [Op("forget", FORGET_ALL, "", evidence)]
    if table.favourite is not None and (m := table.favourite.search(text)):
        return [Op("forget", favourite_for(m.group("thing")), "", evidence)]
    for pattern, slot, canon in table.narrowed:
        if m := pattern.search(text):
            word = m.group("w")
            return [Op("forget", slot, canon.get(word.casefold(), word), evidence)]
    for pattern, selectors in table.entries:
        if pattern.search(text):
            return [Op("forget", s, "", evidence) for s in selectors]
    content = [w for w in words(text) if w not in table.stop and len(w) > 1]
    if not content:
        return []
    return [Op("forget", None, " ".join(content), evidence)]


def category(name: str) -> str:
    return CATEGORY_PREFIX + name
