"""Where a message typed without full stops starts a new sentence.

"Turns out I had that wrong The allergist says it's aspirin": people who chat without stops
still mark a new sentence with its capital. A capitalised common word just after a lower-case
word is such a start, unless the word is also a name ("my friend Tom"), or the word before it
cannot end a sentence ("I work at Apple", "a huge Arsenal fan").

The pronoun "I" starts no sentence here: after a lower-case word it as often opens a clause
of the same sentence ("the city I love", "if I were rich I'd…"), and reading that clause
alone would take a hypothetical or a relative clause for a statement; only after a word
that ends a clause ("anymore", "now", "lol") does it start one.

The statement reader reads a run-on message split at these starts only when the message as
typed told it nothing, so a sentence it can read whole is never cut.
"""

from __future__ import annotations

import re

from .truecasing import common_word

# Closed classes: articles, possessives, quantifiers, prepositions, conjunctions and
# auxiliaries, after which a sentence goes on ("some Go at work", "it's all Elixir now"),
# and the verbs that a name follows ("a beagle called Biscuit").
_CLOSED_CLASSES = (
    "a an the my your our his her their its these those to at in on of for with from by "
    "as and or but nor so if than about into onto over under like is am are was were be "
    "been being has have had do does did me i some any all many much more most every each "
    "no few several both either neither what which whose another other such called named"
)
_GOES_ON_AFTER = frozenset(_CLOSED_CLASSES.split())
_CAPITALISED = re.compile(r"(?<=[\w)\]\u2600-\U0001faff])[ \t]+(?=[A-Z][a-z]*(?:['’][a-z]+)?\b)")
_WORD_BEFORE = re.compile(r"([\w'’]+)\W*$")
_WORD_AFTER = re.compile(r"[\w'’]+")
_PRONOUN_I = re.compile(r"I(?:['’]?(?:m|ve|d|ll))?")  # "Id": "I'd" typed without its apostrophe
_STOPPED = re.compile(r"[.!?;](?:\s|$)")


# Words that end a clause, after which even "I" opens a new one: "not at Google anymore
# I'm at Meta now", "I'm vegan now I think it suits me".
_ENDS_A_CLAUSE = frozenset(("anymore", "now", "instead", "though", "lol", "haha", "tbh", "btw"))


# An ending and its object (one or two words), then a verb whose "I" was dropped.
_ENDED_THEN = re.compile(
    r"(?P<ended>\b(?:sold|gave up|given up|quit|dropped|ditched|left|stopped|cancell?ed)\s+"
    r"(?:(?:the|my|our|a|an)\s+)?[\w'-]+(?:\s+(?!(?:got|bought|started|switched|moved|doing|"
    r"playing|using|learning|taking|joined)\b)[\w'-]+)?)"
    r"\s+(?=(?:got|bought|started|switched|moved|doing|playing|using|learning|taking|joined)\b)",
    re.IGNORECASE,
)


def _starts_sentence(word: str) -> bool:
    return not _PRONOUN_I.fullmatch(word) and common_word(word)


def split_run_on(message: str) -> str | None:
    """The message with a full stop before each capital that starts a sentence, or None if
    the writer uses stops inside it or it has no such capital."""
    body = message.strip().rstrip("?!. ")
    if "\n" in body or _STOPPED.search(body):
        return None
    # "sold the honda got a tesla": what ended, then what took its place, with no comma
    marked = _ENDED_THEN.sub(r"\g<ended>, ", message)
    if marked != message:
        return marked
    pieces: list[str] = []
    last = 0
    for m in _CAPITALISED.finditer(message):
        before = _WORD_BEFORE.search(message, 0, m.start())
        after = _WORD_AFTER.match(message, m.end())
        if before is None or after is None:
            continue
        previous = before.group(1)
        if previous[0].isupper() or previous.casefold() in _GOES_ON_AFTER:
            continue
        # ("and now I write Go": "now" that opens a clause ends none)
        two_back = _WORD_BEFORE.search(message, 0, before.start())
        opened = two_back is not None and two_back.group(1).casefold() in _GOES_ON_AFTER
        ends_clause = previous.casefold() in _ENDS_A_CLAUSE and not opened
        if _starts_sentence(after.group()) or (ends_clause and _PRONOUN_I.fullmatch(after.group())):
            pieces.append(message[last : m.start()] + ". ")
            last = m.end()
    return "".join(pieces) + message[last:] if pieces else None


def split_before_i(split: str) -> bool:
    """Whether a split message holds a sentence opened by "I" after a word that ends a
    clause: a start the capitals did not mark, so the statement before it ran on."""
    return re.search(rf"\b(?:{'|'.join(_ENDS_A_CLAUSE)})\. I\b", split, re.IGNORECASE) is not None


def split_after_an_end(split: str, message: str) -> bool:
    """Whether the split put a comma after what ended ("sold the honda, got a tesla"): a
    clause boundary as sure as a stop."""
    return split.count(",") > message.count(",")
