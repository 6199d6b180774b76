"""Who "she", "he", "her" and "his" are, from what the user said before.

"My sister lives in Paris", then "she moved to Berlin": read alone, the second message is
about someone unknown and teaches nothing; read with its antecedent it is "my sister moved
to Berlin", which retires Paris. The antecedent is the person or animal of the user's named
in the newest earlier fact ("my sister", "our cat", "my son Theo") whose word does not say
the other sex. The pronoun is replaced only where it opens a clause ("She moved…", "…but
his name is actually Nugget"), where it is the subject or its possessive; an object ("I
told her") is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .facts import Fact
from .truecasing import common_word

# A pronoun that opens a sentence or a clause after a conjunction or a comma.
_OPENING = re.compile(
    r"(?:^|(?<=[.!?;:,]\s)|(?<=\bbut\s)|(?<=\band\s)|(?<=\bso\s)|(?<=\bnow\s)|"
    r"(?<=\bbecause\s)|(?<=\bthough\s))"
    r"(?P<pronoun>she|he|her|his)(?P<rest>['’]s\b|\s+(?!(?:and|or|too|also)\b)\w)",
    re.IGNORECASE,
)
_FEMALE = (
    "sister|mum|mom|mother|daughter|wife|girlfriend|aunt|niece|grandma|grandmother|gran|nan|"
    "fiancée|stepmum|stepmom|stepdaughter|stepsister|granddaughter|mare"
)
_MALE = (
    "brother|dad|father|son|husband|boyfriend|uncle|nephew|grandpa|grandfather|grandad|"
    "fiancé|stepdad|stepson|stepbrother|grandson"
)
_EITHER = (
    "partner|spouse|kid|child|baby|toddler|teen|teenager|friend|flatmate|roommate|boss|"
    "cat|dog|puppy|kitten|pup|rabbit|bunny|hamster|parrot|budgie|horse|pony|tortoise|"
    "turtle|snake|lizard|guinea pig|ferret|rat|fish"
)
# "my sister", "our old cat", "my little brother Sam": the one named, as the user said it.
_MINE = re.compile(
    rf"\b(?:my|our)\s+(?:[a-z]+\s+)?(?P<kin>{_FEMALE}|{_MALE}|{_EITHER})\b",
    re.IGNORECASE,
)
# Someone the message itself names before its pronoun.
_SOMEONE = re.compile(
    rf"\b(?:{_FEMALE}|{_MALE}|{_EITHER}|neighbou?r|colleague|co-?worker|woman|man|girl|guy|"
    r"lady|bloke|someone|somebody|person|people|teacher|doctor|nurse|mate|coach|client|"
    r"customer|manager)s?\b",
    re.IGNORECASE,
)
# What is said of one in delight or dismay, for the moment: "he's so cute", "she was such a
# star today".
_EXCLAIMED = re.compile(
    r"(?:['’]s|\s+is|\s+was|\s+looks|\s+looked)\s+(?:so|such|really|too|very|soo+)\b",
    re.IGNORECASE,
)
# The words a pronoun cannot stand for: "she" is no brother.
_OTHER_SEX = {"she": _MALE, "her": _MALE, "he": _FEMALE, "his": _FEMALE}


_KIN = re.compile(rf"(?:{_FEMALE}|{_MALE}|{_EITHER})", re.IGNORECASE)
# The same words in a text, plural too: "my sons", "two cats".
ONES_OF_MINE = re.compile(rf"\b(?:{_FEMALE}|{_MALE}|{_EITHER})s?\b", re.IGNORECASE)


def is_one_of_mine(word: str) -> bool:
    """Whether a word names a person or an animal one can have ("sister", "cat")."""
    return _KIN.fullmatch(word) is not None


def opens_with_pronoun(message: str) -> bool:
    """Whether a message has a pronoun an antecedent could stand for (a cheap test first:
    only then are the earlier facts fetched)."""
    return _OPENING.search(message) is not None


def with_antecedents(message: str, known: Sequence[Fact]) -> str:
    """The message with each opening "she"/"he"/"her"/"his" replaced by the person or
    animal it stands for, where the earlier facts name one; else the message as it is."""
    if not known or not opens_with_pronoun(message):
        return message
    newest_first = sorted(known, key=lambda f: (f.last_seen, f.id), reverse=True)

    def named(m: re.Match[str]) -> str:
        pronoun = m["pronoun"].casefold()
        if _EXCLAIMED.match(message, m.end("pronoun")):
            return m.group()  # "He's so cute!": a moment's delight, maybe at another's pet
        if _SOMEONE.search(message[: m.start()]) or _named_before(message[: m.start()]):
            return m.group()  # "My neighbour Kate is lovely, she…": the message says who
        who = _antecedent(newest_first, pronoun)
        if who is None:
            return m.group()
        rest = m["rest"]
        if pronoun in ("her", "his"):
            if rest.startswith(("'", "’")):
                return m.group()  # "he's" is "he is", not a possessive
            if _SOMEONE.match(message, m.end("pronoun") + 1):
                return m.group()  # "her dog", "his friend": someone else again, not whose
            who = f"{who}'s"
        if m["pronoun"][0].isupper():
            who = who[0].upper() + who[1:]
        return who + rest

    return _OPENING.sub(named, message)


def _named_before(text: str) -> bool:
    return any(
        not common_word(w) for w in re.findall(r"(?<=\w )(?-i:[A-Z])[\w'’-]+", text) if w != "I"
    )


def _antecedent(newest_first: Sequence[Fact], pronoun: str) -> str | None:
    for fact in newest_first:
        found = _MINE.search(fact.value)
        if found is None:
            continue
        kin = found["kin"].casefold()
        if re.fullmatch(_OTHER_SEX[pronoun], kin):
            continue
        return f"my {kin}"
    return None
