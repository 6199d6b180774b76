"""A request to forget ("forget that I'm vegan", "scratch where I live from your memory",
"keep my name, lose the rest"): what it names, as operations for the update step."""

from __future__ import annotations

import re

from .categories import category_of
from .clause_patterns import TASK_VERB, WORD, content_words
from .forget_patterns import (
    ALL_ABOUT,
    CONTRACTED,
    DEMONSTRATIVE,
    EVERYTHING,
    EXCEPT,
    FORGET_AROUND,
    FORGET_TARGET_TRIM,
    I_KEEP,
    IN_A_TEXT,
    KEEP,
    KEEP_PART,
    KEEPING,
    KIND_PARTS,
    NAMED_INSIDE,
    NOT_KEPT,
    OF_A_TEXT,
    ONLY_KEEP,
    OTHERS_THING,
    OWN_KEEPING,
    PLEA_AFTER,
    PLEA_BEFORE,
    STATEMENT,
    THE_REST,
    TOPIC,
    WHAT_I_SAID,
)
from .kinds import kind_named
from .lexicon import Compiled
from .ops import FORGET_ALL, NEWEST, OTHERWISE_PREFIX, Op
from .remark_patterns import ASKING, EVERYDAY_RIDDANCE, GENERIC_KIN
from .slots import slot_info
from .style_aspects import style_aspect_of
from .subject_patterns import MY_PEOPLE

# A word of remembering, of the memory or of what was said before, in the languages read: a
# request that holds none and names a feature of replies ("lose the emojis") asks for other
# replies, not a forgetting ("ignore my formatting request" is one).
OF_MEMORY = re.compile(
    r"forget|rememb|memor|stor|sav|record|on file|request|preference|instruction|said|told|"
    r"asked|mentioned|vergiss|vergessen|merk|oubli|olvid|recuerd|dimentic|esquec|vergeet",
    re.IGNORECASE,
)


def forget_ops(said: str, lang: Compiled) -> list[Op] | None:
    """The operations a request to forget asks for, or None when `said` is no such request."""
    if lang.code == "en":
        said = _respelled(said)
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
        if _imagined_asking(said[: m.start()], lang):
            return None  # "If I asked you to forget where I'm from, would you?"
        if said.rstrip(" )\"'”»").endswith("?") and not _asks_listener(before, lang):
            # "Did you forget where I live?", "How do I make you forget my job?": a question
            # asks for a request only when it asks the listener to do it ("can you …").
            return None
        if PLEA_BEFORE.search(said[: m.start()]) or PLEA_AFTER.match(said, m.end()):
            # "Don't forget me", "Vergiss nicht, mich zu erinnern", "N'oublie pas le pain":
            # the verb negated is a plea to remember, nothing to forget.
            return None
        if OWN_KEEPING.match(m.group()) and re.search(r"\b(?:i|we)\s*$", before, re.I):
            return None  # "I don't remember my PIN", "I never keep receipts": the user's own
        # A verb of forgetting in the user's life ("I always forget my keys", "I steer
        # clear of energy drinks") asks nothing of the memory.
        asks_memory = re.search(
            r"\b(?:you|tu|vous|du|dich|dir)\b|rememb|memor|stor|sav|keep|know|on record|on file|"
            r"take back|retract|"
            r"withdraw",
            m.group(),
            re.I,
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
        target = _own_clause(said[m.end() :], lang).strip(" .!?")
        if OF_A_TEXT.search(target) or IN_A_TEXT.search(before):
            return []  # "delete the paragraph about my dog": an edit of a text, kept nowhere
        if style_aspect_of(target) is not None and not OF_MEMORY.search(said):
            return None  # "Could you drop the bullet points?": the form of replies
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
            # "my job — forget it", "I regret telling you about my asthma, delete it": "it"
            # is the topic named before; with none ("I'd prefer you didn't store that") the
            # newest fact.
            if TASK_VERB.match(before):
                return None  # "Write me a haiku about my cat, actually forget it": the task
            topics = list(TOPIC.finditer(before))
            target = topics[-1].group() if topics else ""
        elif not target_words(target):
            # "The Hungarian detail doesn't need to stick around": the topic comes first.
            target = before or target
    else:
        assert around is not None
        before = said[: around.start()]
        # Only the alternative that matched holds a group: what it names.
        target = next((named for named in around.groups() if named), "")
    # "…; keep the name and the job": what is to stay is no part of what goes.
    keep = KEEP_PART.search(target)
    keeping = keep["what"].strip() if keep is not None else None
    target = KEEP_PART.sub(" ", target)
    # "everything you know about my family": everything of that topic, not everything.
    target = ALL_ABOUT.sub("", target.strip(), count=1)
    if EVERYTHING.search(target.strip()) or EVERYTHING.search(target.split(",")[0].strip()):
        ops.append(Op("forget", FORGET_ALL, "", said))
        return ops
    words = target_words(target)
    person = MY_PEOPLE.search(target)
    if not words and person is None and kind_named(target) is None:
        # "Scrub that." / "Forget that last bit.": the newest fact.
        ops.append(Op("forget", NEWEST, "", said))
        return ops
    if person is not None and GENERIC_KIN.search(person.group()):
        # "Keep my kid's details out of this": whatever was said of the family goes,
        # named or not ("Ezra, my seven-year-old…").
        ops.append(Op("forget", "family", "", said))
    if person is not None:
        # "Forget my daughter's name": what is said of her goes, not the user's own name
        # nor every fact holding the word "name".
        # A kin word may be short ("my ex"), and is no function word.
        for word in WORD.findall(person.group()):
            if word.casefold() not in ("my", "our"):
                ops.append(Op("forget", None, word.removesuffix("'s").removesuffix("’s"), said))
        return ops
    others = OTHERS_THING.match(target.strip())
    if others is not None:
        # "Forget her address": nothing of the user's goes; "drop Rolo's details": what was
        # said of the one named.
        return [Op("forget", None, others["name"], said)] if others["name"] else ops
    # ("what I do for a living", "where I live" name a kind, as a question would.)
    asked = re.match(r"\s*(?:about\s+)?(?:what|where|how|who|when|which)\b", target, re.I)
    stated = None if asked else STATEMENT.match(_named(target))
    said_of_me = target_words(_named(target)[stated.end() :]) if stated is not None else []
    if said_of_me:
        # "Forget that I like jazz": a statement of the user's names that statement, by what
        # it says of them; not by its verb ("like" is in "I like tea" too), and by its kind
        # only when no fact holds those words.
        # Its kind first, so that what is said of that kind beside another fact goes and the
        # rest stays ("I'm a nurse in Leeds", then "forget that I live in Leeds").
        kind = kind_named(target) or getattr(category_of(target), "slot", None)
        stated_words = " ".join(said_of_me)
        ops = [Op("forget", None, stated_words, said)]
        if kind is None:
            return ops
        return [
            Op("forget", kind, stated_words, said),
            *ops,
            Op("forget", OTHERWISE_PREFIX + kind, "", said),
        ]
    # "the medical info and my career plans": each part may name a kind of its own.
    for part in KIND_PARTS.split(target):
        # The kind's own name first ("my computer setup" is the tech, whatever else it holds).
        kind = kind_named(part)
        category = category_of(part) or style_aspect_of(part)
        slot = kind or (category.slot if category is not None else None)
        if slot is not None and len(target_words(part)) <= 3:
            # One of a list kind's things ("forget the dog", not "forget my pets") is what
            # holds its words, and the whole kind only when nothing does; a single-valued
            # kind holds one thing, which is what a word of it names.
            one_of = kind is None and target_words(part) and slot_info(slot).kind == "list"
            selector = OTHERWISE_PREFIX + slot if one_of else slot
            ops.append(Op("forget", selector, "", said, keeping))
    for word in words:
        ops.append(Op("forget", None, word, said))
    return ops


# The verbs a request to forget opens with, and the words a slip of one key away from them
# that are words of their own ("forgot", "remote").
_OPENING_VERBS = ("forget", "delete", "remove", "erase")
_REAL_WORDS = frozenset({"forgot", "forge", "forged", "remote", "removed", "erased", "deleted"})
_OPENING = re.compile(
    r"^((?:(?:please|pls|plz|ok|okay|actually|also|and|just|so|can you|could you)[\s,]+)*)"
    r"([a-z]{4,8})\b",
    re.IGNORECASE,
)


def _respelled(said: str) -> str:
    """ "forgt where i live plz", "pls delte my age": a verb of forgetting mistyped by one
    letter (left out, doubled, wrong or swapped) where a request opens with its verb."""
    m = _OPENING.match(said)
    if m is None or m[2].casefold() in _REAL_WORDS:
        return said
    typed = m[2].casefold()
    meant = next((v for v in _OPENING_VERBS if typed != v and _one_slip(typed, v)), None)
    return said if meant is None else said[: m.start(2)] + meant + said[m.end(2) :]


def _one_slip(typed: str, word: str) -> bool:
    if abs(len(typed) - len(word)) > 1:
        return False
    if len(typed) == len(word):
        diff = [i for i, (a, b) in enumerate(zip(typed, word, strict=True)) if a != b]
        swapped = (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and typed[diff[0]] == word[diff[1]]
            and typed[diff[1]] == word[diff[0]]
        )
        return len(diff) == 1 or swapped
    short, long = sorted((typed, word), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def _imagined_asking(before: str, lang: Compiled) -> bool:
    """Whether the verb of forgetting is in a condition the user imagines asking it in ("what
    if I told you to", "si je te demandais de"), with no comma closing the condition first; a
    condition about the listener ("if you could forget my job") is a polite request."""
    marker, me = lang.search["hypothetical"], lang.opens["first_person"]
    if marker is None or me is None:
        return False
    return any(
        me.match(before, hit.end()) and not re.search(r"[,;]", before[hit.end() :])
        for hit in marker.finditer(before)
    )


def _own_clause(target: str, lang: Compiled) -> str:
    """What the request names, up to a clause with a subject of its own: in "Forget Python,
    I'm all about Rust now" what goes is Python, and the rest is a statement."""
    me = lang.opens["first_person"]
    for m in re.finditer(r"[,;:]|\s[-–—]", target):
        if me is not None and me.match(target, m.end()):
            return target[: m.start()]
    return target


def _asks_listener(before: str, lang: Compiled) -> bool:
    before = before.lstrip("¿¡ ")
    opener = lang.opens["request_openers"]
    return ASKING.fullmatch(before) is not None or (
        opener is not None and opener.match(before) is not None
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
    # A pronoun's contraction ("I'm", "we've") names nothing.
    return [w for w in content_words(_named(target)) if not CONTRACTED.fullmatch(w)]


def _named(target: str) -> str:
    # "what I told you about the pilot training": what it was about.
    target = WHAT_I_SAID.sub("", target)
    # What was said is named before the saying ("my job that I mentioned") or, when nothing
    # comes before, after it ("that I said I'm vegan", "I told you about my divorce").
    pieces = re.split(
        r"\b(?:from|out of|off)\s+(?:your|my|the)?\s*(?:memory|list|notes|file|records?|"
        r"whatever)\b|\b(?:i|that i)\s+(?:mentioned|said|told(?: you)?)(?:\s+(?:about|that))?\b|"
        r"\bfrom before\b",
        target,
        flags=re.IGNORECASE,
    )
    target = next((p for p in pieces if content_words(p)), pieces[0])
    previous = None
    while previous != target:
        previous = target
        target = FORGET_TARGET_TRIM.sub("", target.strip(" ,.")).strip()
    return target
