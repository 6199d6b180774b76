"""The statement reader's part for what says an earlier statement was wrong or has ended: a
correction that gives the new value, and the retirement of what a clause ends."""

from __future__ import annotations

import re

from .antecedents import is_one_of_mine
from .categories import category_of
from .change_patterns import (
    CORRECTION,
    LETTERS_TOLD,
    NOT_AFTER,
    NOT_FIRST,
    NOT_X,
    RESPELT,
    RETRACTED_AS_WRONG,
    SPELT,
    THAT_UNSAID,
)
from .clause_patterns import FINITE, OF_THE_TALK, SENTENCE, STOP, TASK_VERB, WORD, content_words
from .normalize import shares_stem
from .normalize import words as word_list
from .ops import (
    BECOME,
    LOOKALIKE,
    NEWEST,
    SPELLING,
    Op,
)
from .reading import sentences, trim
from .reading_bare import INTERJECTION, LEADING_FILLER, BareValues
from .remark_patterns import PRONOUN
from .slots import slot_info
from .subject_patterns import DROPPED_I
from .talk_patterns import (
    SUBJECT_NAME,
    VALUE_FIRST,
)
from .time_patterns import WHEN_SAID
from .truecasing import common_word


class Corrections(BareValues):
    """What was said wrong, or has ended."""

    def retire(
        self, text: str, *, bare_ok: bool = True, said_in: str = "", whole: bool = False
    ) -> None:
        # "I left Google in May": Google ended, not whatever else was said of May.
        undated = WHEN_SAID.sub(" ", text)
        words = [w for w in content_words(undated) if not w.isdigit() and not PRONOUN.fullmatch(w)]
        if not words:
            if bare_ok:
                # "I got laid off last week" names no thing, but its clause is of a kind (work):
                # the newest fact of that kind ended, not whatever was said last.
                if any(is_one_of_mine(w) for w in word_list(said_in)):
                    return  # "my cat died": the cat is named, and retired by its word
                kind = category_of(said_in) if said_in else None
                if kind is None and _THEIR_SUBJECT.match(said_in):
                    return  # "Our drummer quit last week": he ended, nothing of the user's
                slot = kind.slot if kind is not None and not kind.guessed else NEWEST
                value = NEWEST if slot != NEWEST else ""
                self.ops.append(Op("retract", slot, value, self.message))
            return
        if (
            len(words) > 1
            and words[0].casefold().endswith("ing")
            and not _ING_NOUN.fullmatch(words[0])  # "not a morning person": a noun
            and not re.search(rf"\b(?:{_DETERMINERS})\s+{re.escape(words[0])}", undated, re.I)
        ):
            # "stopped playing tennis", "quit eating meat": the activity's object ended, not
            # every fact with "play" or "eat" in it
            words = words[1:]
        if whole and len(words) > 1:
            # "not a big reader", "no longer a night owl": one thing, not "big" and "reader"
            self.ops.append(Op("retract", None, " ".join(words), text))
            return
        for word in words:
            self.ops.append(Op("retract", None, word, text))

    def contrast(self) -> bool:
        """ "XC90, not XC60", "Jack, sorry, not Jake", "Not penicillin, it's amoxicillin": a
        short message that gives a value beside the one it contrasts, and says nothing else
        of its own, corrects that value wherever it was stored. In a longer message, a short
        sentence that does so about the user ("oh and it's Porto I live in, not Lisbon, my
        bad") corrects it too; not a question, a request or what someone else said."""
        if any(op.kind == "forget" for op in self.ops) and not THAT_UNSAID.search(self.text):
            return False  # "Forget my job, not my city": what stays, not a value corrected
        if len(WORD.findall(self.text)) <= 16:
            return self.contrast_in(self.text, whole=True)
        cue = CORRECTION.search(self.text) is not None
        for start, end in sentences(self.text):
            said = self.text[start:end].strip()
            if len(WORD.findall(said)) > 16 and (contrasted := NOT_X.search(said)):
                said = said[: contrasted.end()]  # "…, not Lisbon, my bad, no idea why I…"
            if (
                len(WORD.findall(said)) <= 16
                and not said.endswith("?")
                and not self.opens("request_openers", said)
                and not TASK_VERB.match(said)
                # (about the user, or said to the memory: "Quick fix for your notes: …")
                # (about the user, or said to the memory: "Quick fix for your notes: …"; or
                # a number for a number: "ugh 85, not 95")
                and (
                    cue
                    or self.first_person(said)
                    or _ITS.match(said)
                    or OF_THE_TALK.search(said)
                    or _NUMBER_FOR_A_NUMBER.search(said)
                )
                and self.contrast_in(said, whole=False)
            ):
                return True
        return False

    def contrast_in(self, said: str, *, whole: bool) -> bool:
        """`contrast` of one short text: the message (`whole`), or a sentence of it."""
        text = said.strip()
        if CORRECTION.search(text) or _MEANT.match(text):
            # "meant radiohead not muse": typed fast, a correction leaves out the comma
            # before its "not"; one after a word that is no verb or function word ("do not",
            # "is not") is the contrast.
            text = _BARE_NOT.sub(_comma_not, text)
        contrasted = NOT_X.search(text)
        arrow = _ARROW.search(text)
        if arrow is not None:
            old, new = arrow["old"], arrow["new"]  # "kyoto -> osaka, moved last week"
        elif contrasted is not None:
            old = contrasted["old"]
            new = _said_before(trim(text[: contrasted.start()], self.lang))
        elif (after := NOT_AFTER.fullmatch(text)) is not None:
            old, new = after["old"], _said_before(after["new"])  # "Sorry, Australia! Not Austria."
        else:
            # "Update from the allergist: not peanuts, it's tree nuts": what a label
            # introduces is the correction.
            label = re.match(r"[^.!?:]{1,40}:\s+", text)
            first = NOT_FIRST.match(text, label.end() if label else 0)
            if first is None:
                return False
            old, new = first["old"], _said_before(first["new"])
            if re.match(r"(?:no|not|never|nothing|none|nope)\b", new, re.I):
                return False  # "Not peanuts, no idea why I typed that": a comment, no value
        old = _ARTICLE.sub("", old.strip())
        if INTERJECTION.fullmatch(new):
            # "argh, not keto, I meant paleo": the cry is no value; what was meant is
            meant = _MEANT_VALUE.search(text)
            new = meant["value"] if meant is not None else ""
        if FINITE.search(new):
            return False  # "the capital of Australia is Canberra, not Sydney": a clause
        new = LEADING_FILLER.sub("", new)  # ("ugh 85, not 95": the cry is no value)
        if not new or not (content_words(old) or old.isdigit()) or new.casefold() == old.casefold():
            return False
        if re.match(r"[^\W\d_]+ing\b", old) and contrasted is not None:
            return False  # "…, no dumbing down": a thing not to do, not a value corrected
        # (in a longer message, only what this sentence said is the correction's)
        own = [op for op in self.ops if whole or _within(op.value, text)]
        if any(
            op.kind == "add"
            and (op.slot is not None or self.first_person(op.value))
            and shares_stem(op.value, new)
            for op in own
        ):
            return False  # "I use Fahrenheit, not Celsius" is a statement of its own
        self.ops = [
            op for op in self.ops if op not in own or op.kind not in ("add", "retract", "update")
        ]
        self.ops.append(Op("update", None, new, self.message, replaces=old))
        return True

    def retyped(self) -> bool:
        """ "*Manchester lol", "With a C actually — Catherine": a short message that names
        something and says nothing of anyone (no verb, no person, no question or request)
        gives a value again, to fix how it was written."""
        text = self.text
        words = WORD.findall(text)
        named = (
            STARRED.search(text) is not None
            or _NOW_VALUE.fullmatch(text.strip())
            or any(w[0].isupper() and len(w) > 2 for w in _named_words(words))
        )
        return (
            named
            and not _VOCATIVE.search(text)
            and not self.ops
            and len(words) <= 8
            and "?" not in text
            and not FINITE.search(text)
            and not any(DROPPED_I.fullmatch(w) for w in words)  # "thinking", "moved": verbs
            and not self.first_person(text)
            and not self.has("third_person", text)
            and not self.opens("request_openers", text)
            and not any(w.isdigit() for w in words)
            # "Rien ne vaut cette soirée": a sentence with a negation of its own says, in a
            # language whose verbs `FINITE` does not know
            and (self.code == "en" or not self.has("negation", text))
        )

    def correction(self, *, alone: bool = False) -> None:
        """ "Oops, typo: 26", "Correction: it's Ayla": a short message that says something
        was wrong and gives a value corrects the newest fact where it is most alike. `alone`:
        nothing else heard anything in it, so a value said alone may be a retyping."""
        # (what the message asks after it is another matter: "it's Muhammad with a u, that's
        # how it's spelled on my passport. can you help me fill in this visa form?")
        said = [self.text[a:b] for a, b in sentences(self.text)]
        if self.value_first(said):
            return
        told = (
            " ".join(
                s
                for s in said
                if not s.rstrip().endswith("?") and not self.opens("request_openers", s.lstrip())
            )
            or self.text
        )
        if len(WORD.findall(told)) > 16:
            # "update: the allergy panel came back and it's actually mango I react to, the
            # old rash was a coincidence apparently": in a longer message, the clauses that
            # say what was wrong are the correction
            told = (
                " ".join(part for part in _CLAUSE_END.split(told) if CORRECTION.search(part))
                or told
            )
        # "Sorry, from Kerry originally. Cork is where I studied.": a sentence that tells
        # something of its own beside the one that corrects is no part of the correction
        cued = [s for s in said if CORRECTION.search(s)]
        apart = [
            op
            for op in self.ops
            if op.kind == "add" and cued and not any(_within(op.value, c) for c in cued)
        ]
        if apart:
            told = " ".join(cued)
            self.ops = [op for op in self.ops if op not in apart]
        self._corrected(told, alone=alone)
        self.ops.extend(apart)

    def _corrected(self, told: str, *, alone: bool) -> None:
        retyped = alone and self.retyped()
        if not (CORRECTION.search(told) or retyped) or len(WORD.findall(told)) > 16:
            return
        if any(op.kind == "add" and op.slot is not None for op in self.ops):
            # It says something of its own ("Sorry, I'm actually vegan"). A single-valued
            # slot supersedes by itself; in a list, "Correction: it's pecans I'm allergic
            # to" takes the place of the newest item of its own kind.
            if not RETRACTED_AS_WRONG.search(told):
                return
            corrected: list[Op] = []
            for op in self.ops:
                if op.kind == "add" and op.slot and slot_info(op.slot).kind == "list":
                    corrected.append(Op("retract", op.slot, NEWEST, op.evidence))
                corrected.append(op)
            self.ops = corrected
            return
        wrong = RESPELT.search(told) or RETRACTED_AS_WRONG.search(told)
        if any(op.kind == "add" for op in self.ops) and not wrong:
            return
        named = [m.group("old").strip() for m in NOT_X.finditer(told)]
        text = NOT_X.sub("", told)
        if not named and retyped:
            # "*Lyon not Lille": a retyping names what it fixes with or without a comma
            named = [m["old"] for m in _CORRECTED_AWAY.finditer(told) if _not_a_negation(m)]
            text = _CORRECTED_AWAY.sub(lambda m: m["before"], told) if named else text
        # "*Deloitte": the chat habit of starring a fixed word puts the value first, as
        # does "Four, actually".
        # "Glasgow now.", "Jetzt Berlin.": a value alone with a word of the present is what
        # the newest thing has become, whatever it was.
        now = _NOW_VALUE.fullmatch(text.strip()) if retyped else None
        # A message that only retypes a value has no sentence for a capital to open.
        starred = (
            STARRED.search(text) is not None
            or VALUE_FIRST.match(text) is not None
            or (retyped and bool(_named_words(WORD.findall(text)[:1])))
        )
        words = WORD.findall(text)
        values = [
            w for i, w in enumerate(words)
            if (w[0].isupper() and (i > 0 or starred) and (len(w) > 2 or w[1:2].islower())
                and w.casefold() not in STOP and not _I_FORM.fullmatch(w))
            or w.isdigit()
        ]  # fmt: skip
        # "it's actually Blade Runner": a name of several capitalised words is one value.
        values = _runs(text, values)
        values = [v for v in values if not CORRECTION.fullmatch(v)]
        # "I misspoke, Theo is 9": a name said as the subject is who the value is about.
        said_of = {m["who"] for m in SUBJECT_NAME.finditer(text)}
        values = [v for v in values if v not in said_of] or values
        if now is not None:
            values = [now["after"] or now["before"]]
        lettered = _LETTERED.search(text)
        if lettered is not None and lettered["word"].casefold() not in STOP:
            values = [lettered["word"]]  # "Ela, one L": the letters told are of the word before
        if not values:
            return
        self.ops = [op for op in self.ops if op.slot != NEWEST and op.kind != "add"]
        if named:
            # "ze heet Snoes, niet Pluis": the old value is named, whatever it looks like.
            self.ops = [op for op in self.ops if op.kind != "retract"]
            self.ops.append(Op("update", None, values[0], self.message, replaces=named[0]))
        else:
            # How alike the new value must be to the word it replaces: a spelling said to be
            # fixed, a value retyped, or (said as how things are now) not at all.
            respelt = ""
            if SPELT.search(told):
                respelt = SPELLING
            elif now is not None:
                respelt = BECOME
            elif retyped:
                respelt = LOOKALIKE
            self.ops.append(Op("update", NEWEST, values[0], self.message, replaces=respelt))


def _within(value: str, text: str) -> bool:
    return bool(value) and value.casefold().strip(" .!") in text.casefold()


# "it's Porto", "it was Sheffield": a value said of what was said before.
_ITS = re.compile(r"\W*(?:\w+\W+){0,3}?(?:it'?s|it was|it is)\b", re.IGNORECASE)


def without_the_wrong_value(value: str) -> str:
    """ "wait actually im vegan not vegetarian, so no eggs": what a correction keeps is the
    right value; the wrong one it names stays out of what is stored, or recall would show
    it as though it held."""
    return _CORRECTED_AWAY.sub(_keep_unless_negation, value)


def _keep_unless_negation(m: re.Match[str]) -> str:
    return m["before"] if _not_a_negation(m) else m.group()


def _not_a_negation(m: re.Match[str]) -> bool:
    before = m["before"].casefold()
    # ("I'm not vegetarian", "do not", "don't": the "not" of the statement itself)
    return not (
        before in STOP or before in ("i'm", "im", "still", "really") or before.endswith("n't")
    )


# A value and, after it, the one it is not: "vegan not vegetarian", "34, not 43".
_CORRECTED_AWAY = re.compile(
    r"(?P<before>[^\W_][\w'-]*),?\s+not\s+(?:an?\s+|the\s+)?(?P<old>[^\W_][\w'-]*)"
    r"(?=[\s,.;:!?]|$)",
    re.IGNORECASE,
)
# A number said for a number: "ugh 85, not 95" corrects, whatever else the sentence says.
_NUMBER_FOR_A_NUMBER = re.compile(r"\b\d+(?:[.,]\d+)?\s*[a-z]{0,3},?\s+not\s+\d", re.IGNORECASE)
_DIGIT = re.compile(r"\d")
# The pronoun "I", capitalised in every sentence, is no value a correction gives.
_I_FORM = re.compile(r"I(?:['’](?:m|ve|d|ll))?")
_MEANT_VALUE = re.compile(r"\bi meant\s+(?P<value>[^\W\d_][\w'-]*(?: (?-i:[A-Z])[\w'-]*)?)", re.I)
# Where a clause of a message ends: a comma, a semicolon, a sentence's end.
_CLAUSE_END = re.compile(r"[,;]\s+|(?<=[.!?])\s+")
# A clause whose subject is someone or something named, not the user: "our drummer quit".
_THEIR_SUBJECT = re.compile(r"\W*(?:our|my|the|his|her|their)\s+[\w'-]+", re.IGNORECASE)
# Before an -ing word they make it a noun ("my morning runs"), not a verb ("playing tennis").
_DETERMINERS = "my|the|a|an|our|his|her|their|this|that|these|those|your"


def _named_words(words: list[str]) -> list[str]:
    """The words that may name a value retyped: a common word that opens a message names
    nothing by its capital ("Three months smoke-free now!", "Cut out caffeine completely")."""
    return words[1:] if words and common_word(words[0]) else words


def _comma_not(m: re.Match[str]) -> str:
    before = m["before"]
    if before.casefold() in STOP or before.casefold().endswith(("n't", "nt")):
        return m.group()
    return f"{before}, not "


# A "not" with no comma before it, after a word.
_BARE_NOT = re.compile(r"(?<![,\w'-])(?P<before>[^\W\d_][\w'-]*)\s+not\s+", re.IGNORECASE)
# "meant X": the first-person "I" left out of a correction's "I meant".
_MEANT = re.compile(r"\W*meant\b", re.IGNORECASE)


def _runs(text: str, values: list[str]) -> list[str]:
    """The values, with those that stand side by side in the text joined ("Blade Runner")."""
    runs: list[str] = []
    for value in values:
        joined = f"{runs[-1]} {value}" if runs else ""
        if runs and not value.isdigit() and re.search(rf"\b{re.escape(joined)}\b", text):
            runs[-1] = joined
        else:
            runs.append(value)
    return runs


# A name set off by a comma at either end speaks to someone ("Thanks, Maria!", "Good boy,
# Rexy"): it is said to them, not retyped.
_VOCATIVE = re.compile(r",\s*(?-i:[A-Z])[\w'-]+[\s!.]*$|^\W*(?-i:[A-Z])[\w'-]+\s*,", re.IGNORECASE)
# From one value to the next, as an arrow: "Reno → Vegas as of last week".
_ARROW = re.compile(
    r"(?P<old>[^\W\d_][\w'-]*(?: [^\W\d_][\w'-]*){0,2})\s*(?:->|→|=>)\s*"
    r"(?P<new>[^\W\d_][\w'-]*(?: (?!(?:as|since|from|in|on|at|for|now|and|but)\b)"
    r"[^\W\d_][\w'-]*){0,2})",
    re.IGNORECASE,
)
_NOW_VALUE = re.compile(
    r"\W*(?:(?:now|jetzt|maintenant|ahora|agora|adesso|nu)\s+(?P<after>(?-i:[A-Z])[\w'-]+)|"
    r"(?P<before>(?-i:[A-Z])[\w'-]+),?\s+(?:now|these days|nowadays|jetzt|maintenant|ahora))"
    r"\W*",
    re.IGNORECASE,
)
_LETTERED = re.compile(r"(?P<word>[^\W\d_][\w'-]*)[\s,]+" + LETTERS_TOLD, re.IGNORECASE)
# The chat habit of starring a word retyped to fix it, before or after it ("*Deloitte").
STARRED = re.compile(r"^\s*\*|\*\s*$")
_ARTICLE = re.compile(r"^(?:the|a|an|my)\s+", re.IGNORECASE)
# What opens the words of a value without being part of it: "he's a", "it's", "I meant".
_VALUE_OPENER = re.compile(
    r"^(?:(?:oh\s+)?(?:wait|hold on|sorry|oops|whoops|correction|actually)[,!:]?\s+)*"
    r"(?:(?:i\s+)?meant(?:\s+to\s+say)?|(?:he|she|it|they|that|(?-i:[A-Z])[\w-]+|"
    # "the company is Globex": what a named thing is said to be
    r"(?:the|my|our|his|her|their)\s+[\w-]+(?:\s+[\w-]+)?)"
    r"(?:'s|\s+is|\s+are|'re)(?:\s+actually)?|i'm|i\s+am|it\s+was)?\s*(?:(?:the|a|an)\b)?\s*",
    re.IGNORECASE,
)
# What joins a clause to the one before: "so I'm Priya Patel now".
_CONNECTIVE = re.compile(r"^(?:(?:so|and|but|then|oh|well|now)\s+)+", re.IGNORECASE)
# A value said as how things are now: "Priya Patel now".
_NOW_AFTER = re.compile(r"\s+(?:now|these days|nowadays)$", re.IGNORECASE)
# Where a value said stops: a clause of its own begins ("amoxicillin I react to").
_VALUE_END = re.compile(r"\s+(?:i|i'm|we|you|that|which|who|because|since)\b.*$", re.IGNORECASE)


def _said_before(text: str) -> str:
    """The value a correction gives in the words before (or after) its contrast: the last
    part of its last sentence that is not a cue ("Jack, sorry" gives "Jack")."""
    # (the sentences as the reader cuts them: "St. Vincent's" is one name)
    cut = [m.group() for m in SENTENCE.finditer(text.strip()) if m.group().strip()]
    sentence = cut[-1] if cut else ""
    parts = [p.strip() for p in re.split(r"[,:;]\s*", sentence) if p.strip()]
    parts = [
        p for p in parts if not CORRECTION.fullmatch(p) and (content_words(p) or _DIGIT.search(p))
    ]
    if not parts:
        return ""
    said = _CONNECTIVE.sub("", parts[-1])
    value = _NOW_AFTER.sub("", _VALUE_END.sub("", _VALUE_OPENER.sub("", said))).strip(" .!")
    return value if 0 < len(value.split()) <= 5 else ""


# Words in -ing that are nouns, not an activity's verb.
_ING_NOUN = re.compile(
    r"(?:morn|even|wedd|build|ceil|th|k|r|spr|str|w|sibl|darl|pudd)ings?",
    re.IGNORECASE,
)
