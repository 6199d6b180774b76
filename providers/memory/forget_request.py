"""A request to forget ("forget that I'm vegan", "scratch where I live from your memory",
"keep my name, lose the rest"): what it names, as operations for the update step."""

from __future__ import annotations

import re

from .categories import category_of
from .clause_patterns import content_words
from .forget_patterns import (
    EVERYTHING,
    FORGET_AROUND,
    FORGET_TARGET_TRIM,
    I_KEEP,
    KEEP,
    KEEPING,
    NAMED_INSIDE,
    NOT_KEPT,
    ONLY_KEEP,
    OWN_KEEPING,
    THE_REST,
    TOPIC,
    WHAT_I_SAID,
)
from .lexicon import Compiled
from .ops import FORGET_ALL, NEWEST, Op
from .remark_patterns import ASKING, EVERYDAY_RIDDANCE, GENERIC_KIN
from .style_aspects import style_aspect_of
from .subject_patterns import MY_PEOPLE


def forget_ops(said: str, lang: Compiled) -> list[Op] | None:
    """The operations a request to forget asks for, or None when `said` is no such request."""
    ops: list[Op] = []
    only = ONLY_KEEP.fullmatch(said.strip())
    if only is not None and re.match(r"(?:my|where|what)\b", only["what"], re.I):
        # "Only keep my name, nothing else": everything goes but what is to stay.
        return [Op("forget", FORGET_ALL, "", said, only["what"])]
    around = FORGET_AROUND.search(said)
    pattern = lang.search["forget"]
    m = pattern.search(said) if pattern is not None else None
    if m is None and around is None:
        unkept = unkept_topic(said) if lang.code == "en" else None
        if unkept is None:
            return None
        before, target = "", unkept
    elif m is not None:
        before = said[: m.start()].strip(" ,")
        if re.match(r"forget", m.group(), re.I) and re.search(
            r"\b(?:don'?t|do not|never|won't|mustn't)\s+$", said[: m.start()], re.I
        ):
            return None  # "Don't forget me": a plea to remember, nothing to forget
        if OWN_KEEPING.match(m.group()) and re.search(r"\b(?:i|we)\s*$", before, re.I):
            return None  # "I don't remember my PIN", "I never keep receipts": the user's own
        # A verb of forgetting in the user's life ("I always forget my keys", "I steer
        # clear of energy drinks") asks nothing of the memory.
        asks_memory = re.search(
            r"\byou\b|rememb|memor|stor|sav|keep|know|on record|on file", m.group(), re.I
        )
        if not asks_memory and re.search(
            r"\b(?:i|we|ich|je|yo)\b\s*(?:\w+\s+)?\w*\s*$", before, re.IGNORECASE
        ):
            return None
        everyday = EVERYDAY_RIDDANCE.fullmatch(m.group()) is not None
        if everyday and not ASKING.fullmatch(said[: m.start()].strip()):
            # "my doctor wants me to lose weight": a verb of getting rid of something
            # asks the memory only when it is what the user asks for.
            return None
        target = said[m.end() :].strip(" .!?")
        spared = EXCEPT.match(target)
        if spared is not None:
            # "Forget everything except my name": everything goes but what is spared.
            ops.append(Op("forget", FORGET_ALL, "", said, spared["what"]))
            return ops
        if THE_REST.match(target):
            # "Keep my name, lose the rest": everything goes but what is to stay.
            kept = KEEP.search(said)
            ops.append(Op("forget", FORGET_ALL, "", said, kept and kept["what"]))
            return ops
        named_inside = NAMED_INSIDE.search(m.group())
        if named_inside is not None and not target_words(target):
            # "I don't want my religion on record": what is named sits inside the request.
            target = named_inside.group()
        elif DEMONSTRATIVE.fullmatch(target):
            target = ""  # "I'd prefer you didn't store that": the newest fact
        elif not target_words(target):
            # "The Hungarian detail doesn't need to stick around": the topic comes first.
            target = before or target
    else:
        assert around is not None
        before = said[: around.start()]
        target = around["target"] or around["from"] or around["let"]
    # "…; keep the name and the job": what is to stay is no part of what goes.
    keep = _KEEP_PART.search(target)
    keeping = keep["what"].strip() if keep is not None else None
    target = _KEEP_PART.sub(" ", target)
    if EVERYTHING.search(target.strip()) or EVERYTHING.search(target.split(",")[0].strip()):
        ops.append(Op("forget", FORGET_ALL, "", said))
        return ops
    words = target_words(target)
    if not words:
        # "Scrub that." / "Forget that last bit.": the newest fact.
        ops.append(Op("forget", NEWEST, "", said))
        return ops
    person = MY_PEOPLE.search(target)
    if person is not None and GENERIC_KIN.search(person.group()):
        # "Keep my kid's details out of this": whatever was said of the family goes,
        # named or not ("Ezra, my seven-year-old…").
        ops.append(Op("forget", "family", "", said))
    if person is not None:
        # "Forget my daughter's name": what is said of her goes, not the user's own name
        # nor every fact holding the word "name".
        for word in (w.removesuffix("'s").removesuffix("’s") for w in target_words(person.group())):
            ops.append(Op("forget", None, word, said))
        return ops
    # "the medical info and my career plans": each part may name a kind of its own.
    for part in _KIND_PARTS.split(target):
        category = category_of(part) or style_aspect_of(part)
        if category is not None and len(target_words(part)) <= 3:
            ops.append(Op("forget", category.slot, "", said, keeping))
    for word in words:
        ops.append(Op("forget", None, word, said))
    return ops


_KEEP_PART = re.compile(
    r"(?:[;,]\s*)?\b(?:but\s+)?(?:keep|remember|hold on to|leave(?![^;]*\bout\b)|behalte|"
    r"garde|guarda|mantén)\b"
    r"(?P<what>[^;]*);?",
    re.I,
)
_KIND_PARTS = re.compile(r"\s*(?:[,;&]|\band\b|\bor\b)\s*", re.IGNORECASE)
EXCEPT = re.compile(
    r"(?:everything|all(?: of (?:that|it|this|them))?|it all)\s+"
    r"(?:except|but|apart from|other than|besides)\s+(?P<what>.+)",
    re.IGNORECASE,
)
DEMONSTRATIVE = re.compile(
    r"(?:that|this|it|those|these|that one|this one)(?:\s+(?:please|thanks|thank you|either))?",
    re.IGNORECASE,
)


def unkept_topic(said: str) -> str | None:
    """What a sentence asks not to be kept when it says so with no verb of forgetting: an act
    of keeping ("saving", "on file", "the notes") and a "no" to it ("no more", "private",
    "rather not", "out of"), about a thing of the user's, and the user not the keeper. This is
    how "Keep my job private" or "No more saving my name" ask it; the topic is returned."""
    if "?" in said or not _near(KEEPING, NOT_KEPT, said):
        return None
    if I_KEEP.search(said):
        return None  # "I don't save my work often enough": the user's own keeping
    topic = TOPIC.search(said)
    return topic.group() if topic is not None else None


def _near(one: re.Pattern[str], other: re.Pattern[str], said: str) -> bool:
    """Whether the two are said within a few words of each other: "no more saving", "keep
    my job private", not "keep going … never give up" across a sentence."""
    words_before = [said[: m.start()].count(" ") for m in one.finditer(said)]
    return any(
        abs(said[: m.start()].count(" ") - at) <= 6
        for m in other.finditer(said)
        for at in words_before
    )


def target_words(target: str) -> list[str]:
    # "what I told you about the pilot training": what it was about.
    target = WHAT_I_SAID.sub("", target)
    target = re.split(
        r"\b(?:from|out of|off)\s+(?:your|my|the)?\s*(?:memory|list|notes|file|records?|"
        r"whatever)\b|\b(?:i|that i)\s+(?:mentioned|said|told)\b|\bfrom before\b",
        target,
        flags=re.IGNORECASE,
    )[0]
    previous = None
    while previous != target:
        previous = target
        target = FORGET_TARGET_TRIM.sub("", target.strip(" ,.")).strip()
    return content_words(target)
