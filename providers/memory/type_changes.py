"""A new thing of a type the user keeps one of, named in passing: "Picked up a Tesla
yesterday!! The dealer took the Civic as a trade-in", "my new iphone won't sync my contacts".

The reader hears a change when it is said as one ("I switched to a Mac"); told in passing,
inside a question or beside the old thing's going, the sentence is talk to it. What says it
is a change is the world, not the wording: the facts already learnt name a thing of the same
type (a car, a phone: `thing_types`), and this message names another one of that type as
the user's. The new thing is then kept in the user's words, and the update step retires the
stored thing of its type as it does for a change said outright.

What the new thing must have to count as the user's, any one of:
- a word of change or of getting it (`told_as_a_change`: "switched", "got", "new"...);
- "my new …";
- the old thing named in the same message (it is sold, traded in, given away).
And none of: someone else's ("my wife got an iPhone"), a question about choosing ("should I
get a Pixel?", unless it is "my new Pixel"), a plan or a wish, a second one of its type.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .antecedents import ONES_OF_MINE
from .clause_patterns import TASK_VERB
from .facts import Fact
from .ops import OF_ITS_TYPE, Op
from .reading import sentences
from .remark_patterns import IMAGINED
from .subject_patterns import OTHER_PEOPLE, SOMEONE_ELSE
from .thing_types import named_things, told_as_a_change

# The parts of a sentence a thing is named in: what is said of the new thing is its part.
_PART_END = re.compile(r",\s*|;\s*|\s+(?:and|but|so|while)\s+", re.IGNORECASE)
_ASKING = re.compile(r"(?:please|pls|can you|could you|would you|will you)\b", re.I)
_MY_NEW = re.compile(r"\bmy\s+(?:shiny\s+|brand[ -]new\s+)?new\b", re.IGNORECASE)
# Choosing, wishing or planning, not having: "thinking of getting a Pixel", "iPhone or Pixel?"
_NOT_YET = re.compile(
    r"\b(?:should|would|could|might|maybe|thinking|considering|wondering|planning|plan to|"
    r"want to|wanna|going to|gonna|if|whether|worth|vs\.?|versus|or|instead of|rather than|"
    r"wish|hope|hoping|someday|one day|eventually|next year|next month)\b",
    re.IGNORECASE,
)
_ONE_MORE = re.compile(r"\b(?:also|too|as well|another|second|both|plus|spare)\b", re.IGNORECASE)
# A noun phrase for the thing itself, when its sentence asks: "my new iphone 15".
_PHRASE = r"(?:(?:my|a|an|the|our)\s+(?:(?:shiny|brand[ -]new|new|used)\s+)*)?{name}" + (
    r"(?:\s+(?:\d[\w+-]*|(?-i:[A-Z][\w+-]*)|pro|max|mini|air|plus|ultra|lite)\b)*"
)


def new_of_a_type(message: str, known: Sequence[Fact], found: Sequence[Op]) -> list[Op]:
    """The adds for things of a held type that `message` names as the user's new one and
    that the reader's own ops (`found`) do not name already."""
    if not named_things(message):
        return []  # (most messages name no such thing: the stored facts are not read)
    held: dict[str, frozenset[str]] = {}
    for fact in known:
        for kind, names in named_things(fact.value).items():
            held[kind] = held.get(kind, frozenset()) | names
    if not held:
        return []
    # (an add or an update the reader heard of that type is the change already; an end of
    # the old thing is what the new one is said beside)
    heard = {
        kind
        for op in found
        if op.kind != "retract"
        for kind in named_things(op.value)
        if kind in held
    }
    ops: list[Op] = []
    for start, end in sentences(message):
        sentence = message[start:end].strip()
        for kind, names in named_things(sentence).items():
            new = frozenset(n for n in names if not _among(n, held.get(kind, frozenset())))
            if kind not in held or kind in heard or not new:
                continue
            said = _told_as_mine(sentence, message, held[kind], new)
            if said is not None:
                ops.append(Op("add", None, said, sentence, replaces=OF_ITS_TYPE))
                heard.add(kind)
    return ops


def _told_as_mine(
    sentence: str, message: str, old: frozenset[str], new: frozenset[str]
) -> str | None:
    """What the sentence says of the new thing, when it says it is the user's new one."""
    parts = _PART_END.split(sentence)
    at = next((i for i, p in enumerate(parts) if set(_names(p)) & new), None)
    if at is None:
        return None
    part = parts[at].strip()
    # ("Finished moving us to Hetzner, how do I set up backups?": the lead tells, the rest asks)
    asked = sentence.rstrip(" )\"'”»").endswith("?") and at == len(parts) - 1
    if IMAGINED.search(part) or _NOT_YET.search(part) or _ONE_MORE.search(part):
        return None
    if TASK_VERB.match(part) or _ASKING.match(part):
        return None  # "Write the example in Python, not Java": a task's words
    if ONES_OF_MINE.search(part) or OTHER_PEOPLE.search(part) or SOMEONE_ELSE.search(part):
        return None  # "my wife got an iPhone", "my neighbour just bought a Ford": theirs
    old_goes = any(_among(name, old) for name in _names(message))
    mine_new = _MY_NEW.search(part) is not None
    if not (mine_new or old_goes or told_as_a_change(part)):
        return None
    if asked:
        if not mine_new:
            return None  # "is a Pixel any good?": asked of, not had
        name = sorted(new)[0]
        phrase = re.search(_PHRASE.format(name=re.escape(name)), part, re.IGNORECASE)
        return phrase.group() if phrase is not None else None
    return part.rstrip(" ,;")


def _names(text: str) -> list[str]:
    return [name for names in named_things(text).values() for name in names]


def _among(name: str, names: frozenset[str]) -> bool:
    """Whether a name is one of `names`, said in full or in part ("xps" of "dell xps")."""
    return any(name in other or other in name for other in names)
