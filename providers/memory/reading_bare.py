"""A value said bare beside words of a mistake: "Apollo. Sorry, Greek gods, I mix them up",
"Cebuano, my mistake.", "My bad, it's Paprika.", "Volkswagen? no, Skoda.", "*Durham".

The message gives no frame of its own for the value; what makes it a correction is the
apology, the stop ("hold on, …"), the star, or the value said back as a question, and what
makes the value a value is that it names (a capital that is no word of the language) or is
of a kind a person has ("paleo"). The update step then finds the word it replaces in the
newest fact, or the one the message names after "not".
"""

from __future__ import annotations

import re

from .categories import category_of
from .change_patterns import CORRECTION
from .clause_patterns import FINITE, WORD
from .normalize import shares_stem
from .ops import NEWEST, Op
from .reading import ReaderBase
from .time_patterns import WHEN_SAID
from .truecasing import common_word


class BareValues(ReaderBase):
    def value_first(self, said: list[str]) -> bool:
        """ "Apollo. Sorry, Greek gods, I mix them up", "Cebuano, my mistake.": a value said
        bare, and beside it words of a mistake, correct the newest fact, whatever else the
        message says of the mistake (that is talk about it, not about the user)."""
        if not said or self.code != "en":
            return False  # (what is a name is told by the words of English)
        echoed = _ECHOED.fullmatch(said[0].strip())
        then = _NO_THEN.match(said[1].strip()) if echoed is not None and len(said) > 1 else None
        if echoed is not None and then is not None:
            # "Volkswagen? no, Skoda.", "did I say Civic? I meant Accord.": the value said
            # back as a question is the one corrected
            self.ops = [Op("update", None, then["new"], self.message, replaces=echoed["old"])]
            return True
        if "?" in said[0]:
            return False
        head, _, after = said[0].partition(",")
        cue = " ".join([after, *said[1:]])
        its = _ITS_VALUE.fullmatch(after)
        opening = True  # the value opens its sentence, where a capital says nothing
        stop = head.strip(" .!")
        interrupted = _HOLD_ON.fullmatch(stop) is not None
        if (CORRECTION.fullmatch(stop) or interrupted) and its is not None:
            # "My bad, it's Paprika.", "hold on, it's St Andrews.": the words of the
            # mistake, or of stopping to fix it, first, then the value
            head, cue, opening = its["value"], head, False
        star = _STARRED_WORD.search(said[0])
        if star is not None:
            head = star["before"] or star["after"]  # "lol paleo* 🙃 …": the word starred
        value = LEADING_FILLER.sub("", head.strip(" .!…")).strip("* ")
        words = WORD.findall(value)
        if not (1 <= len(words) <= 3) or CORRECTION.search(value):
            return False
        # ("Owen. his name is Owen.": a name said bare, then said again as the name)
        renamed = re.search(rf"\bname(?:'s| is)\s+{re.escape(value)}\b", cue, re.I) is not None
        if not (
            CORRECTION.search(cue) or star is not None or (interrupted and not opening) or renamed
        ):
            return False
        if FINITE.search(value) or self.first_person(value) or INTERJECTION.fullmatch(value):
            return False
        if WHEN_SAID.search(value) or _FEAST.fullmatch(value):
            return False  # "wait, it's Monday": a day is no value of the user's
        # A name (no word of the language) or a word of a kind a person has ("paleo"):
        # what a sentence's opening capital or a filler ("Great", "Right") never is.
        # (a word that opens its sentence alone and is no reply word, "Clippers.", names)
        alone = opening and head.strip(" .!…*") == value and not _REPLY_WORD.fullmatch(value)
        named = all(w[:1].isupper() or w.isdigit() for w in words) and not (
            opening and not alone and all(common_word(w) for w in words)
        )
        if not (named or category_of(value) is not None):
            return False
        # ("Knicks. I'm a Knicks fan.": the value said again stays, not the apology)
        self.ops = [
            op
            for op in self.ops
            if op.kind == "add" and shares_stem(op.value, value) and not CORRECTION.search(op.value)
        ]
        named_old = _NOT_NAMED.search(cue)
        if named_old is not None:
            # "Rust, I meant. Not Ruby.": the value it replaces is named
            self.ops.append(Op("update", None, value, self.message, replaces=named_old["old"]))
        else:
            self.ops.append(Op("update", NEWEST, value, self.message))
        return True


# A value said again after what it corrects was given: "it's Paprika", "I meant Accord".
_ITS_VALUE = re.compile(
    r"\s*(?:it'?s|it is|it was|i meant|meant)\s+(?P<value>[^\s,.;!?]+(?:\s+[^\s,.;!?]+){0,2})"
    r"\s*[.!]*\s*",
    re.IGNORECASE,
)
# The words a reply is made of, said alone before an apology: "Great, sorry…", "Right.".
_REPLY_WORD = re.compile(
    r"(?:great|right|sure|fine|yes|yeah|yep|no|nope|ok|okay|cool|perfect|exactly|true|good|"
    r"nice|awesome|thanks|whatever|anyway|alright|gotcha|understood|noted|indeed|agreed|"
    r"correct|wow|damn|dang|honestly|seriously|well|also|so|hmm|huh|ha|hah|heh|lol|lmao)",
    re.IGNORECASE,
)
# A feast or a holy day: "wait, it's Christmas" names a day, no value of the user's.
_FEAST = re.compile(
    r"(?:christmas|xmas|easter|halloween|thanksgiving|new year'?s?(?: eve| day)?|"
    r"hanukkah|diwali|eid|ramadan|passover|valentine'?s(?: day)?)",
    re.IGNORECASE,
)
# A value said back as a question, and what comes after it: "Volkswagen? no, Skoda.",
# "did I say Civic? I meant Accord."
_ECHOED = re.compile(
    r"(?:(?:wait,?\s+)?did i (?:say|write|type|put)\s+)?(?P<old>[\w'-]+(?:\s+[\w'-]+)?)\?+",
    re.IGNORECASE,
)
_NO_THEN = re.compile(
    r"(?:(?:oops|whoops|sorry|ugh)[,!.]?\s+)*(?:(?:no|nope|nah)[,!.]?\s+(?:i meant\s+|it'?s\s+)?|"
    r"i meant\s+|meant\s+)"
    r"(?P<new>(?-i:[A-Z0-9])[\w'-]*(?:\s+(?-i:[A-Z0-9])[\w'-]*)?)(?=[\s.,!]|$)",
    re.IGNORECASE,
)
_NOT_NAMED = re.compile(r"(?:^|[.!,]\s*)not\s+(?P<old>[\w'-]+)\b", re.IGNORECASE)
# Stopping to fix what was said: "hold on, it's St Andrews".
_HOLD_ON = re.compile(r"(?:oh\s+)?(?:wait|hold on|hang on|no wait|wait no)", re.IGNORECASE)
# A word starred to say it is the fixed one: "*Durham", "paleo*".
_STARRED_WORD = re.compile(
    r"(?:^|\s)\*(?P<after>[\w'-]+(?:\s+[\w'-]+)?)|(?P<before>[\w'-]+)\*(?!\w)"
)
# A cry or a filler before a value said bare: "lol paleo*", "omg Darren".
LEADING_FILLER = re.compile(
    r"^(?:(?:lol|haha|ha|oh|ah|ugh|um|erm|ok|okay|no|nah|omg|gosh|jeez|oops|whoops)\s+)+", re.I
)
# A cry or a filler, said before a contrast: "argh, not keto".
INTERJECTION = re.compile(
    r"(?:a+r+g+h*|u+g+h+|o+h+|a+h+|lol|ha(?:ha)+|hm+|oops|whoops|sorry|no+|nope|wait|hey|"
    r"ok(?:ay)?|well|um+|e+r+m*|d[oa]h|jeez|god)",
    re.IGNORECASE,
)
