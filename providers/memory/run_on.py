"""Where a message typed without full stops starts a new sentence.

"Turns out I had that wrong The allergist says it's aspirin": people who chat without stops
still mark a new sentence with its capital. A capitalised common word just after a lower-case
word is such a start, unless the word is also a name ("my friend Tom"), or the word before it
cannot end a sentence ("I work at Apple", "a huge Arsenal fan").

The pronoun "I" starts no sentence here: after a lower-case word it as often opens a clause
of the same sentence ("the city I love", "if I were rich I'd…"), and reading that clause
alone would take a hypothetical or a relative clause for a statement.

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


def _starts_sentence(word: str) -> bool:
    return not _PRONOUN_I.fullmatch(word) and common_word(word)


def split_run_on(message: str) -> str | None:
    """The message with a full stop before each capital that starts a sentence, or None if
    the writer uses stops inside it or it has no such capital."""
    body = message.strip().rstrip("?!. ")
    if "\n" in body or _STOPPED.search(body):
        return None
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
        if _starts_sentence(after.group()):
            pieces.append(message[last : m.start()] + ". ")
            last = m.end()
    return "".join(pieces) + message[last:] if pieces else None
