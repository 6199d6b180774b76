"""A message as the reader's grammar expects it to be written: English contractions typed
without their apostrophe ("im", "dont", "ive") get it back.

People type fast, and a phone's keyboard hides the apostrophe; the same sentence typed so
should be read as it is read with it. With every apostrophe dropped, the probes lost 96 of
the 1,941 cases they passed as written at 7fe0a43, and lose 14 retyped
(`bench/memory_typed.py`). Only the forms that are no other English word are restored
anywhere; "ill", "id", "lets", "were", "its" and "names" only where the grammar around them
leaves one reading; those whose two readings word order does not tell apart ("wed",
"well", "shell", "hell") never. What the user said is otherwise kept as written: stored
values are the retyped clause, which differs only by the apostrophes.
"""

from __future__ import annotations

import re

# Each apostrophe-less form that is no other word, with its written form's ending.
_PLAIN = {
    "im": "I'm",
    "ive": "I've",
    "youre": "you're",
    "youve": "you've",
    "youll": "you'll",
    "youd": "you'd",
    "theyre": "they're",
    "theyve": "they've",
    "theyll": "they'll",
    "theyd": "they'd",
    "weve": "we've",
    "shes": "she's",
    "hes": "he's",
    "thats": "that's",
    "whats": "what's",
    "whos": "who's",
    "wheres": "where's",
    "theres": "there's",
    "heres": "here's",
    "hows": "how's",
    "dont": "don't",
    "doesnt": "doesn't",
    "didnt": "didn't",
    "cant": "can't",
    "wont": "won't",
    "isnt": "isn't",
    "arent": "aren't",
    "wasnt": "wasn't",
    "werent": "weren't",
    "havent": "haven't",
    "hasnt": "hasn't",
    "hadnt": "hadn't",
    "couldnt": "couldn't",
    "wouldnt": "wouldn't",
    "shouldnt": "shouldn't",
    "mustnt": "mustn't",
    "neednt": "needn't",
    "aint": "ain't",
}
# Every form this module may write out, which is therefore no name.
APOSTROPHE_LESS = frozenset({*_PLAIN, "id", "ill", "lets", "were", "its", "names"})
_PLAIN_FORM = re.compile(
    r"(?<![\w'’@./-])(?:" + "|".join(_PLAIN) + r")(?![\w'’@-])"
    # "dont like horror films" opening a sentence drops its "I" (a taste), where "Don't…"
    # is read as a request: a verb of taste after it keeps the form the reader hears so.
    r"(?<!^dont)(?<![.!?]\sdont)|^dont(?!\s+(?:really\s+|much\s+)?(?:like|love|enjoy|mind|care))",
    re.I,
)

# "id", "ill": the pronoun and a modal only where a clause begins and a verb follows, which
# the noun "id" and the adjective "ill" ("I'm ill", "feeling ill") never do.
_MODAL_I = re.compile(
    r"(?P<lead>^|[,;:.!?(]\s*|\b(?:and|but|then|think|guess|hope|bet|maybe|probably)\s+)"
    r"(?P<form>id|ill)(?=\s+(?:(?:really|definitely|probably|still|just|never|always|much|"
    r"rather|happily|gladly|also|likely)\s+)?[a-z]+\b(?!\s*[.!?]?$))",
    re.IGNORECASE,
)
# Where a sentence opens with them, "lets", "were" and "its" are "let's", "we're" and
# "it's" when a word follows and the sentence is no question ("Were you there?"); "names"
# is "name's" before a name ("Names Declan.", "The names Oriol").
_OPENING = re.compile(
    r"(?P<lead>(?:^|[.!?,;]\s+|\b(?:hi|hey|hello|oh|ok|okay|yeah|so)[,!]?\s+)(?:(?:the|my)\s+)?)"
    r"(?P<form>lets|were|its|names)(?=\s+(?P<next>[\w'’-]+))(?![^.!?]*\?)",
    re.IGNORECASE,
)
_OPENED = {"lets": "let's", "were": "we're", "its": "it's", "names": "name's"}
# French drops the apostrophe of an elided "je" or "me" as English does its own: the elided
# forms of the verbs people say most of themselves.
_FRENCH_ELIDED = re.compile(
    r"(?<![\w'’])(?P<pronoun>[jm])(?P<verb>ai|aime|adore|habite|étais|etais|avais|appelle|"
    r"appelles|occupe|intéresse|interesse|entraîne)(?![\w'’])",
    re.IGNORECASE,
)


def _restored(form: str, written: str) -> str:
    """The written form, capitalised as the typed one was at its start."""
    if form[0].isupper() and written[0].islower():
        return written[0].upper() + written[1:]
    return written


def _opened(match: re.Match[str]) -> str:
    form, lead = match["form"], match["lead"]
    if form.casefold() == "names" and not match["next"][:1].isupper():
        return match.group()  # "my names are hard to spell": a plural
    return lead + _restored(form, _OPENED[form.casefold()])


def retyped(message: str, language: str) -> str:
    """The message with its apostrophe-less contractions written out: English ones, and the
    French elided pronouns; a message in another language is left alone (German "im" is "in
    the")."""
    if language == "fr":
        return _FRENCH_ELIDED.sub(lambda m: f"{m['pronoun']}'{m['verb']}", message)
    if language != "en":
        return message
    message = _PLAIN_FORM.sub(lambda m: _restored(m.group(), _PLAIN[m.group().casefold()]), message)
    message = _MODAL_I.sub(
        lambda m: m["lead"] + ("I'd" if m["form"].casefold() == "id" else "I'll"), message
    )
    return _OPENING.sub(_opened, message)
