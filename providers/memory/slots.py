"""The slot table: which facts hold one value (replaced) and which a list (accumulated).

A slot name is a short identifier (`location`, `allergies`); favourites are a family of
single-valued slots named `favourite:<thing>` (`favourite:colour`, `favourite:team`). A fact
without a slot (free text) behaves like a list slot.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

SlotKind: TypeAlias = Literal["single", "list"]

FAVOURITE_PREFIX = "favourite:"
STYLE = "style"  # the category recalled first: how the user wants to be answered


@dataclass(frozen=True, slots=True)
class Slot:
    name: str
    kind: SlotKind
    category: str
    label: str  # how the recall block names it: "lives in", "allergic to"
    opposite: str | None = None  # a list slot whose values this one retires (likes/dislikes)


_TABLE: tuple[Slot, ...] = (
    # how to reply: recalled first
    Slot("reply_language", "single", STYLE, "reply in language"),
    Slot("reply_length", "single", STYLE, "reply length"),
    Slot("reply_format", "single", STYLE, "reply format"),
    Slot("reply_tone", "single", STYLE, "reply tone"),
    Slot("emoji", "single", STYLE, "emojis"),
    Slot("units", "single", STYLE, "units"),
    Slot("temperature_unit", "single", STYLE, "temperatures in"),
    Slot("code_language", "single", STYLE, "code examples in"),
    Slot("reply_style", "list", STYLE, "reply preference"),
    # who they are
    # Each its own category: "forget my age" must not forget the name.
    Slot("name", "single", "name", "name"),
    Slot("age", "single", "age", "age"),
    Slot("birthday", "single", "age", "birthday"),
    Slot("pronouns", "single", "identity", "pronouns"),
    Slot("nationality", "single", "identity", "nationality"),
    Slot("origin", "single", "identity", "comes from"),
    Slot("languages", "list", "languages", "speaks"),
    Slot("relationship", "single", "family", "relationship status"),
    # where
    Slot("location", "single", "location", "lives in"),
    Slot("address", "single", "location", "address"),
    Slot("timezone", "single", "location", "time zone"),
    Slot("phone", "single", "contact", "phone number"),
    Slot("email", "single", "contact", "email"),
    # work
    Slot("job", "single", "work", "job"),
    Slot("workplace", "single", "work", "workplace"),
    Slot("study", "single", "work", "studies"),
    Slot("skills", "list", "work", "uses"),
    # food and health
    Slot("diet", "single", "diet", "diet"),
    Slot("eats", "list", "food", "eats", opposite="avoids"),
    Slot("avoids", "list", "food", "does not eat", opposite="eats"),
    Slot("allergies", "list", "allergy", "allergic or intolerant to"),
    Slot("health", "list", "health", "health"),
    # tastes
    Slot("likes", "list", "preferences", "likes", opposite="dislikes"),
    Slot("dislikes", "list", "preferences", "dislikes", opposite="likes"),
    # people and animals
    Slot("family", "list", "family", "family"),
    Slot("pets", "list", "pets", "pets"),
    # things and time
    Slot("vehicle", "single", "possessions", "drives"),
    Slot("schedule", "list", "schedule", "schedule"),
    # Categories of statements kept in the user's own words (`categories.py`): the value is
    # the statement, so the label only names what it is about.
    Slot("home", "single", "location", "home"),
    Slot("work", "single", "work", "work"),
    Slot("income", "single", "money", "income"),
    Slot("education", "single", "education", "education"),
    Slot("allergy", "list", "allergy", "allergy"),
    Slot("language", "list", "languages", "languages"),
    Slot("hobby", "list", "preferences", "hobby"),
    Slot("tech", "list", "tech", "tech"),
    Slot("possessions", "list", "possessions", "has"),
    Slot("goals", "list", "goals", "goal"),
    Slot("travel", "list", "travel", "travel"),
    Slot("values", "list", "values", "values"),
    Slot("traits", "list", "personality", "personality"),
)

SLOTS: dict[str, Slot] = {s.name: s for s in _TABLE}
STYLE_SLOTS: frozenset[str | None] = frozenset(s.name for s in _TABLE if s.category == STYLE)
FREE_TEXT = Slot("", "list", "other", "note")


def favourite_slot(thing: str) -> str:
    return FAVOURITE_PREFIX + " ".join(thing.casefold().split())


def slot_info(name: str | None) -> Slot:
    """The table entry for a slot name; favourites are generated, unknown names free text."""
    if name is None or not name:
        return FREE_TEXT
    known = SLOTS.get(name)
    if known is not None:
        return known
    if name.startswith(FAVOURITE_PREFIX):
        thing = name[len(FAVOURITE_PREFIX) :]
        return Slot(name, "single", "preferences", f"favourite {thing}")
    return Slot(name, "list", "other", name.replace("_", " "))


def is_known_slot(name: str) -> bool:
    return name in SLOTS or (name.startswith(FAVOURITE_PREFIX) and len(name) > 10)
