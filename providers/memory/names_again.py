"""A name said again as the one to use: "Actually I prefer Robert" after "Call me Rob".

The reader hears a name when it is told as one ("call me", "my name is"). Said again, a
name comes in any frame ("Robert, please.", "Tunde is good.", "I'd go with Lena"): what
makes it the user's name is that a name of the user's is stored, that the message is a
short choice, and that it holds one new name and nothing else of the user's. The stored
words then take the new name in place of the old, as a spelling corrected does.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .antecedents import ONES_OF_MINE
from .clause_patterns import content_words
from .facts import Fact
from .normalize import tokens
from .ops import Op
from .talk_patterns import MIND_CHANGED
from .thing_types import named_things
from .truecasing import common_word

# A choice of what to be called, in a short message.
_CHOSEN = re.compile(
    r"\b(?:please|pls|prefer|preferably|rather|instead|go by|go with|use|call me|actually|"
    r"(?:is|'s|are) (?:fine|good|better|ok|okay|great|best|perfect)|works|stick (?:to|with)|"
    r"(?:stop|quit) calling me|(?:don'?t|do not|never) call me)\b",
    re.IGNORECASE,
)
_MOST_WORDS = 14
_NAMING_FRAME = re.compile(
    r"call|called|name|names|named|nickname|prefer|please|just|fine|here|i'm|im|go|by|you|"
    r"can|everyone|people|friends|most|usually",
    re.IGNORECASE,
)
# A word that says a name is meant.
_NAMING = re.compile(
    r"\b(?:name|names|call|called|calls|calling|go by|nickname|address me)\b", re.I
)
# A name the user no longer wants: "Please don't call me Mimi anymore", "stop calling me Bob".
_REFUSED = re.compile(
    r"\b(?i:don'?t|do not|never|stop|quit)\s+(?i:call(?:ing)?|address(?:ing)?)\s+me\s+"
    r"(?P<name>[A-Z][\w'-]+)"
)


def refused_name(message: str) -> str | None:
    """The name a message asks not to be called by, if it does."""
    m = _REFUSED.search(message)
    return m["name"] if m is not None else None


def might_rename(message: str) -> bool:
    """A cheap test, before the stored facts are read: a short choice holding a capital
    past its first word."""
    said = message.split()
    return (
        len(said) <= _MOST_WORDS
        and _CHOSEN.search(message) is not None
        and any(w[:1].isupper() and not common_word(w) for w in said)
    )


def renamed(message: str, known: Sequence[Fact]) -> list[Op]:
    """The update of the user's stored name to the new one the message chooses, if any."""
    names = [f for f in known if f.slot == "name" and f.active]
    if not names or not might_rename(message) or "?" in message:
        return []
    if ONES_OF_MINE.search(message):
        return []  # "my son prefers Ben": his, not the user's
    fact = max(names, key=lambda f: (f.last_seen, f.id))
    # (a name typed in lower case is the fact's word that no frame of naming holds)
    held = _names_in(fact.value) or [
        w for w in content_words(fact.value) if not _NAMING_FRAME.fullmatch(w)
    ]
    if not held:
        return []
    new = {w for w in _names_in(message) if w not in held} - set(named_things(message))
    new.discard(refused_name(message) or "")
    if len(new) != 1 or named_things(message):
        return []
    (name,) = new
    old = _likest(name, held)
    said_anew = _NAMING.search(message) or MIND_CHANGED.search(message)
    if old is None and not (said_anew or set(held) & set(_names_in(message))):
        # "Please use British spelling": a capital that neither looks like the name held
        # nor is said to be a name is some other word
        return []
    return [Op("update", "name", name, message, old or held[-1])]


def _names_in(text: str) -> list[str]:
    """The words of a text that can only be names: capitalised and no common word."""
    return [w for w in tokens(text) if w[:1].isupper() and w != "I" and not common_word(w)]


def _likest(new: str, held: Sequence[str]) -> str | None:
    """Of the stored names, the one the new one is a form of: one that holds it, or that
    it holds, or that begins as it does ("Rob", "Robert"; "Liz", "Elizabeth"; "Kate",
    "Katherine")."""
    for old in held:
        a, b = old.casefold(), new.casefold()
        if a in b or b in a or (len(a) >= 3 and a[:3] == b[:3]):
            return old
    return None
