"""English builders: from a rule's match to ops (names, places, jobs, people, pets...)."""

from __future__ import annotations

import re

from .en_base import (
    BUSINESS_RE,
    NOT_A_NAME,
    ONE_OFF_TIME,
    RECURRING,
    VEHICLE_RE,
    b,
    clean,
)
from .grammar import (
    FLAGS,
    UPPER,
    Build,
    op,
    tidy,
)
from .intl import ONE_OF
from .ops import Op
from .predicates_en import job_parts
from .topics import favourite_for
from .vocab_en import (
    PETS,
    RELATIVE_PLURALS,
    RELATIVES,
)


def build_name(m: re.Match[str], evidence: str) -> list[Op]:
    name = tidy(m.group("n"))
    if name.casefold() in NOT_A_NAME:
        return []
    return [op("add", "name", name, evidence)]


def build_correction(m: re.Match[str], evidence: str) -> list[Op]:
    new, old = clean(m.group("new")), clean(m.group("old"))
    if not (b.ok(new, 5) and b.ok(old, 5)) or new.casefold() == old.casefold():
        return []
    return [op("update", None, new, evidence, replaces=old)]


def build_age(m: re.Match[str], evidence: str) -> list[Op]:
    age = int(m.group("a"))
    return [op("add", "age", str(age), evidence)] if 3 <= age <= 120 else []


_PLACE_NOUN = re.compile(
    r"\b(?:town|city|village|country|countryside|house|flat|apartment|suburbs?|area|coast|"
    r"island|state|province|region|capital|abroad|overseas|north|south|east|west)\b",
    FLAGS,
)


def build_place(slot: str, *, somewhere: bool = False) -> Build:
    """A place; with `somewhere`, only a value that names one ("moved to Leeds", "moved to a
    small town"), since "moved to the next chapter" is not a home."""

    def build(m: re.Match[str], evidence: str) -> list[Op]:
        value = re.split(r"\s+(?:with|for)\s+", clean(m.group("v")), maxsplit=1)[0]
        prep = " ".join(m.group("p").split()).lower() if "p" in m.re.groupindex else "in"
        if not b.ok(value, 7):
            return []
        if somewhere and not (re.search(rf"[{UPPER}]", value) or _PLACE_NOUN.search(value)):
            return []
        return [op("add", slot, value if prep == "in" else f"{prep} {value}", evidence)]

    return build


def build_job_phrase(m: re.Match[str], evidence: str) -> list[Op]:
    phrase = clean(m.group("v"))
    found = job_parts(phrase) or ([("job", phrase)] if b.ok(phrase, 6) else [])
    return [op("add", slot, value, evidence) for slot, value in found]


def build_workplace(m: re.Match[str], evidence: str) -> list[Op]:
    parts = re.split(r"\s+as\s+(?:an?\s+)?", clean(m.group("v")), maxsplit=1, flags=FLAGS)
    if not b.ok(parts[0], 6):
        return []
    made = [op("add", "workplace", f"{m.group('p').lower()} {parts[0]}", evidence)]
    if len(parts) > 1 and b.ok(parts[1], 5):
        made.append(op("add", "job", parts[1], evidence))
    return made


def build_joined(m: re.Match[str], evidence: str) -> list[Op]:
    parts = re.split(r"\s+as\s+(?:an?\s+)?", clean(m.group("v")), maxsplit=1, flags=FLAGS)
    if not b.ok(parts[0], 5):
        return []
    made = [op("add", "workplace", f"at {parts[0]}", evidence)]
    if len(parts) > 1:
        made.extend(op("add", slot, value, evidence) for slot, value in job_parts(parts[1]))
        if len(made) == 1 and b.ok(parts[1], 5):
            made.append(op("add", "job", parts[1], evidence))
    return made


def build_teach(m: re.Match[str], evidence: str) -> list[Op]:
    text = clean(m.group("v"))
    parts = re.split(r"\s+(?=(?:at|in|for)\s+(?:an?\s+|the\s+)?[\w'-]+)", text, maxsplit=1)
    if not b.ok(parts[0], 5):
        return []
    made = [op("add", "job", f"teaches {parts[0]}", evidence)]
    if len(parts) > 1:
        made.append(op("add", "workplace", parts[1], evidence))
    return made


def build_business(m: re.Match[str], evidence: str) -> list[Op]:
    value = clean(m.group("v"))
    if not BUSINESS_RE.search(value) or not b.ok(value, 9):
        return []
    return [op("add", "job", f"{m.group('verb').lower()} {value}", evidence)]


def build_quit_job(m: re.Match[str], evidence: str) -> list[Op]:
    return [op("retract", "job", "", evidence), op("retract", "workplace", "", evidence)]


def build_schedule(m: re.Match[str], evidence: str) -> list[Op]:
    value = clean(re.sub(r"^'m\b", "am", m.group("v")))
    habitual = bool(m.group("habit")) or RECURRING.search(value) is not None
    if not habitual or ONE_OFF_TIME.search(value) or len(value.split()) > 12:
        return []
    return [op("add", "schedule", value, evidence)]


def build_vehicle(m: re.Match[str], evidence: str) -> list[Op]:
    value = clean(m.group("v"))
    if not VEHICLE_RE.match(value) or not b.ok(value, 5):
        return []
    return [op("add", "vehicle", value, evidence)]


def build_favourite(m: re.Match[str], evidence: str) -> list[Op]:
    thing, value = clean(m.group("thing")), clean(m.group("v"))
    if not b.ok(value, 6) or not thing or len(thing.split()) > 3:
        return []
    return [op("add", favourite_for(thing), value, evidence)]


def build_family(m: re.Match[str], evidence: str) -> list[Op]:
    word = " ".join(m.group("rel").lower().split())
    rel = RELATIVES.get(word) or RELATIVE_PLURALS.get(word, word)
    names = m.group("names") if "names" in m.re.groupindex else m.group("n")
    desc = clean(m.group("desc")) if "desc" in m.re.groupindex and m.group("desc") else ""
    if not names:
        num = m.group("num") if "num" in m.re.groupindex else ""
        return [op("add", "family", f"{num} {rel}".strip(), evidence)] if num else []
    rel = ONE_OF.get(rel, rel)
    made = []
    for name in re.split(r"\s*(?:,|\band\b|&)\s*", names):
        if name and name.casefold() not in NOT_A_NAME:
            age = m.group("age") if "age" in m.re.groupindex else None
            detail = desc or (f"{age} years old" if age else "")
            value = f"{rel} {name}" + (f" ({detail})" if detail else "")
            made.append(op("add", "family", value, evidence))
    return made


def build_pets(m: re.Match[str], evidence: str) -> list[Op]:
    word = " ".join(m.group("pet").lower().split())
    species = PETS.get(word, word)
    desc = " ".join(x for x in [clean(m.group("desc") or ""), word] if x)
    extra = f" ({desc})" if desc != species else ""
    names = m.group("names") if "names" in m.re.groupindex else m.group("n")
    if not names:
        return [op("add", "pets", species + extra, evidence)]
    return [
        op("add", "pets", f"{species} {name}{extra}", evidence)
        for name in re.split(r"\s*(?:,|\band\b|&)\s*", names)
        if name
    ]


def build_languages(m: re.Match[str], evidence: str) -> list[Op]:
    made = []
    for item in b.values(m.group("v"), "languages", 5):
        level = re.match(
            r"(a\s+little|a\s+bit\s+of|some|basic|fluent|conversational)\s+", item, FLAGS
        )
        name = item[level.end() :] if level else item
        made.append(
            op("add", "languages", f"{name} ({level.group(1)})" if level else name, evidence)
        )
    return made


def build_native(m: re.Match[str], evidence: str) -> list[Op]:
    return [op("add", "languages", f"{m.group('v').title()} (native)", evidence)]


def build_attribute(m: re.Match[str], evidence: str) -> list[Op]:
    attr = " ".join(m.group("attr").lower().split())
    value = tidy(m.group("v"))
    if not value or len(value.split()) > 8:
        return []
    slot = ATTRIBUTE_SLOTS.get(attr.split()[0], ATTRIBUTE_SLOTS.get(attr))
    if slot == "workplace":
        value = f"at {value}"
    if slot is None:
        return [op("add", None, f"{attr}: {value}", evidence)]
    return [op("add", slot, value, evidence)]


ATTRIBUTE_SLOTS = {
    "phone": "phone",
    "mobile": "phone",
    "cell": "phone",
    "telephone": "phone",
    "email": "email",
    "e-mail": "email",
    "birthday": "birthday",
    "date of birth": "birthday",
    "birth date": "birthday",
    "pronouns": "pronouns",
    "job": "job",
    "profession": "job",
    "occupation": "job",
    "employer": "workplace",
    "company": "workplace",
    "car": "vehicle",
    "school": "study",
    "university": "study",
    "uni": "study",
    "major": "study",
    "degree": "study",
}


def build_gave_up(m: re.Match[str], evidence: str) -> list[Op]:
    """ "I gave up coffee": whatever fact names coffee is retired, and the change is noted."""
    value = clean(m.group("v"))
    if not b.ok(value, 4):
        return []
    return [op("retract", None, value, evidence), op("add", None, f"gave up {value}", evidence)]
