"""Capitals for a message typed without them: "im kwame, i live in accra" is read as "I'm
Kwame, I live in Accra".

The reader knows a name by its capital, as English writes it. A writer who types no capital
at all (but "I", which a phone capitalises) gives no such sign; for their message, a word
that is no English word is taken for a name, and capitalised. Whether a word is an English
one is looked up among the words SCOWL writes in lower case (`english_words.gz`, built by
`scripts/build_english_words.py`), so that a name that is also a word ("grace", "mark")
stays a word: a name missed is better than a word kept as a name. Typed in lower case, the
probes lost 80 of the 1,941 cases they passed as written at 7fe0a43, and lose 21 so
(`bench/memory_typed.py`). The list is read once, and only for a message that needs it.
"""

from __future__ import annotations

import gzip
import re
from functools import cache
from importlib.resources import files

from .retyping import APOSTROPHE_LESS

# The one capital that says nothing of names: the pronoun "I", which a phone capitalises.
# Even a sentence's first letter is not allowed for: a writer who capitalises sentences and
# names no one ("Gonna continue my edu") would have their rarer words made names.
_EXPECTED_CAPITAL = re.compile(r"(?<![\w'’])I(?=$|[^\w'’]|['’](?:m|ve|d|ll)\b)")
# A word as a name would be: letters with inner apostrophes or hyphens, not part of an
# address, a handle or a file name.
_WORD = re.compile(r"(?<![\w@./#'’-])[^\W\d_]+(?:[-'’][^\W\d_]+)*(?![\w@'’-]|\.\w)")
_PRONOUN_I = re.compile(r"(?<![\w'’-])i(?=$|[^\w'’-]|['’](?:m|ve|d|ll)\b)")
_SUFFIXES = ("'s", "’s", "s", "es", "ed", "ing", "ly", "er", "est")
# The endings of English's common nouns and adjectives, which names do not have: a word so
# made is a word, listed or not ("pescatarian", "neurodivergent").
_WORD_ENDING = re.compile(
    r"(?:arian|grapher|ician|ator|ist|ism|ive|ous|ful|less|able|ible|ing|ed|tion|sion|ment|"
    r"ness|ity|ish|ic|ical|ology|ologist|phobe|phile)s?$"
)
# The shorthand of chat, which no dictionary lists and no one is named.
_SHORTHAND = frozenset(
    (
        *("btw", "lol", "lmao", "rofl", "pls", "plz", "thx", "ty", "tbh", "imo", "imho", "rn"),
        *("ngl", "idk", "fyi", "asap", "omg", "ok", "okay", "yeah", "yep", "nah", "hmm"),
        *("haha", "hehe", "ugh", "wanna", "gonna", "gotta", "kinda", "sorta", "dunno", "cuz"),
        *("coz", "bc", "bf", "gf", "wfh", "irl"),
    )
)


@cache
def english_words() -> frozenset[str]:
    data = files(__package__).joinpath("english_words.gz").read_bytes()
    return frozenset(gzip.decompress(data).decode().split())


def _is_english(word: str) -> bool:
    known = english_words()
    lowered = word.casefold().replace("’", "'")
    if lowered.endswith("n't"):
        return True  # "doesn't", "can't": the head ("doesn", "ca") is no word, nor a name
    head = lowered.partition("'")[0]
    if head != lowered and (head in known or head == "i"):
        return True  # "i'm", "don't", "kate's" aside: the word before the apostrophe
    if lowered in known or lowered in _SHORTHAND or lowered in APOSTROPHE_LESS:
        return True
    if _WORD_ENDING.search(lowered) or any(part in known for part in lowered.split("-")):
        return True
    return any(
        lowered.endswith(s) and len(lowered) - len(s) > 3 and lowered[: -len(s)] in known
        for s in _SUFFIXES
    )


@cache
def _name_words() -> frozenset[str]:
    """Common words that are names as well ("grace", "tom", "may")."""
    data = files(__package__).joinpath("english_name_words.gz").read_bytes()
    return frozenset(gzip.decompress(data).decode().split())


def common_word(word: str) -> bool:
    """Whether a word, or the word before its apostrophe ("It's"), is English written in
    lower case and no name as well: capitalised, it opens a sentence and names nothing."""
    lowered = word.lower().replace("’", "'")
    if lowered.endswith("n't"):
        return True  # "Don't", "Can't": no name
    head = lowered.partition("'")[0]
    known = english_words()
    return (lowered in known or head in known) and head not in _name_words()


def capitalises_names(message: str) -> bool:
    """Whether the writer uses any capital beyond the pronoun "I"."""
    expected = {m.start() for m in _EXPECTED_CAPITAL.finditer(message)}
    return any(c.isupper() and i not in expected for i, c in enumerate(message))


def truecased(message: str) -> str:
    """The message with "i" and the words that are no English word capitalised, when its
    writer capitalises no names; any other message as it is. Only letters' case changes, so
    every offset into the message still holds."""
    if capitalises_names(message):
        return message
    words = [w for w in _WORD.findall(message) if len(w) > 1]
    if 2 * sum(map(_is_english, words)) < len(words):
        return message  # mostly no English: another language, whose words are no names
    message = _PRONOUN_I.sub("I", message)

    def named(m: re.Match[str]) -> str:
        word = m.group()
        if len(word) < 2 or word[0].isupper() or _is_english(word):
            return word
        return word[0].upper() + word[1:]

    return _WORD.sub(named, message)
