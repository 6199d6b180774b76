"""The statement reader's part for what says an earlier statement was wrong or has ended: a
correction that gives the new value, and the retirement of what a clause ends."""

from __future__ import annotations

import re

from .change_patterns import CORRECTION, NOT_X, RESPELT, RETRACTED_AS_WRONG, SPELT
from .clause_patterns import STOP, WORD, content_words
from .ops import (
    NEWEST,
    SPELLING,
    Op,
)
from .reading import ReaderBase
from .remark_patterns import PRONOUN
from .slots import slot_info
from .talk_patterns import (
    SUBJECT_NAME,
    VALUE_FIRST,
)


class Corrections(ReaderBase):
    """What was said wrong, or has ended."""

    def retire(self, text: str, *, bare_ok: bool = True) -> None:
        words = [w for w in content_words(text) if not w.isdigit() and not PRONOUN.fullmatch(w)]
        if not words:
            if bare_ok:
                self.ops.append(Op("retract", NEWEST, "", self.message))
            return
        for word in words:
            self.ops.append(Op("retract", None, word, text))

    def correction(self) -> None:
        """ "Oops, typo: 26", "Correction: it's Ayla": a short message that says something
        was wrong and gives a value corrects the newest fact where it is most alike."""
        if not CORRECTION.search(self.text) or len(WORD.findall(self.text)) > 16:
            return
        if any(op.kind == "add" and op.slot is not None for op in self.ops):
            # It says something of its own ("Sorry, I'm actually vegan"). A single-valued
            # slot supersedes by itself; in a list, "Correction: it's pecans I'm allergic
            # to" takes the place of the newest item of its own kind.
            if not RETRACTED_AS_WRONG.search(self.text):
                return
            corrected: list[Op] = []
            for op in self.ops:
                if op.kind == "add" and op.slot and slot_info(op.slot).kind == "list":
                    corrected.append(Op("retract", op.slot, NEWEST, op.evidence))
                corrected.append(op)
            self.ops = corrected
            return
        wrong = RESPELT.search(self.text) or RETRACTED_AS_WRONG.search(self.text)
        if any(op.kind == "add" for op in self.ops) and not wrong:
            return
        named = [m.group("old").strip() for m in NOT_X.finditer(self.text)]
        text = NOT_X.sub("", self.text)
        # "*Deloitte": the chat habit of starring a fixed word puts the value first, as
        # does "Four, actually".
        starred = text.lstrip().startswith("*") or VALUE_FIRST.match(text) is not None
        words = WORD.findall(text)
        values = [
            w for i, w in enumerate(words)
            if (w[0].isupper() and (i > 0 or starred) and (len(w) > 2 or w.istitle())
                and w.casefold() not in STOP)
            or w.isdigit()
        ]  # fmt: skip
        # "it's actually Blade Runner": a name of several capitalised words is one value.
        values = _runs(text, values)
        values = [v for v in values if not CORRECTION.fullmatch(v)]
        # "I misspoke, Theo is 9": a name said as the subject is who the value is about.
        said_of = {m["who"] for m in SUBJECT_NAME.finditer(text)}
        values = [v for v in values if v not in said_of] or values
        if not values:
            return
        self.ops = [op for op in self.ops if op.slot != NEWEST and op.kind != "add"]
        if named:
            # "ze heet Snoes, niet Pluis": the old value is named, whatever it looks like.
            self.ops = [op for op in self.ops if op.kind != "retract"]
            self.ops.append(Op("update", None, values[0], self.message, replaces=named[0]))
        else:
            respelt = SPELLING if SPELT.search(self.text) else ""
            self.ops.append(Op("update", NEWEST, values[0], self.message, replaces=respelt))


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
