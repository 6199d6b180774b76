"""The rules extractor: offline, deterministic, microseconds a message.

Only what the user asserts about themselves in a main clause is taken. The engine walks the
message sentence by sentence and clause by clause and lets a language's rules run only where
an assertion can be:

- quoted text is masked first (a quotation is never the user speaking of themselves), and
  after a colon that introduces pasted content ("the email says: ...") nothing is read;
- from a hypothetical marker ("if", "suppose", "imagine") to the end of its sentence nothing
  is asserted;
- in a question or a request about content ("translate ...", "write a poem ..."), only
  indirect facts are taken: a causal clause ("since I'm vegan") or a leading apposition
  ("Being diabetic, ...", "As a nurse, ...");
- a clause start after "and" may leave out its subject when the sentence's subject is the
  user ("I sold the Corolla and bought a Subaru", "Ich heiße Lukas und wohne in Stuttgart").

Rules anchor at clause starts, and their subjects are first person (I, my, we, our, or an
elided first-person verb), so "my friend loves jazz" and "a pilot who lives in Oslo" match
nothing. Secrets are screened out of the result (`secrets.screen`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from .gate import might_tell
from .grammar import MASK, Grammar, Rule
from .ops import Extraction, Op
from .secrets import screen


@cache
def grammars() -> tuple[Grammar, ...]:
    """The languages' grammars, compiled on first use (about 0.1 s, once per process) so that
    a command which never extracts does not pay for it. Call it ahead of time to warm up."""
    from . import lang_de, lang_en, lang_es, lang_fr

    return (lang_en.GRAMMAR, lang_de.GRAMMAR, lang_fr.GRAMMAR, lang_es.GRAMMAR)


# A quotation: opened after a non-letter, closed before one (so "I'm" and "children's"
# are not quotes).
_QUOTE = re.compile(
    r"""(?<![\w])'[^'\n]+'(?![\w])|"[^"\n]*"|“[^”\n]*”|‘[^’\n]*’(?![\w])|«[^»\n]*»|„[^“”\n]*[“”]"""
)
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+|\n+")
_SEGMENT_BREAK = re.compile(r"\s+[-–—]+\s+|;|:(?=\s)")
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


def mask_quotes(text: str) -> str:
    """The text with every quotation (quotes included) replaced by MASK, same length."""
    text = text.replace("’", "'") if "‘" not in text else text
    return _QUOTE.sub(lambda m: MASK * len(m.group()), text)


def ranked(text: str) -> list[tuple[int, Grammar]]:
    """Grammars with how many of their function words the text uses, best first (English
    first on a tie)."""
    tokens = [w.casefold() for w in _WORD.findall(text)]
    scores = [(sum(1 for t in tokens if t in g.markers), g) for g in grammars()]
    return sorted(scores, key=lambda pair: -pair[0])


def _spans(pattern: re.Pattern[str], text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    at = start
    for m in pattern.finditer(text, start, end):
        yield at, m.start()
        at = m.end()
    yield at, end


@dataclass(frozen=True, slots=True)
class _Clause:
    pos: int  # after fillers
    causal: bool  # opened by because/since
    after_and: bool  # opened by "and"


class _Reader:
    def __init__(self, message: str, grammar: Grammar) -> None:
        self.message = message
        self.text = mask_quotes(message)
        self.g = grammar
        self.ops: list[Op] = []

    def evidence(self, m: re.Match[str]) -> str:
        return self.message[m.start() : m.end()].strip()

    def run(self) -> list[Op]:
        text = self.text
        for s_start, s_end in _spans(_SENTENCE_END, text, 0, len(text)):
            if self.sentence(s_start, s_end):
                break  # the rest of the message is pasted content
        return self.ops

    def skip_fillers(self, pos: int, end: int) -> int:
        while pos < end:
            while pos < end and self.text[pos] in " \t,":
                pos += 1
            m = self.g.filler.match(self.text, pos, end)
            if m is None or m.end() == pos:
                return pos
            pos = m.end()
        return pos

    def clauses(self, start: int, end: int) -> list[_Clause]:
        """Clause starts in order, one per position (", and" opens one clause, not two)."""
        found: dict[int, _Clause] = {}
        first = self.skip_fillers(start, end)
        found[first] = _Clause(first, False, False)
        for m in self.g.breaks.finditer(self.text, start, end):
            causal = m.lastgroup == "causal"
            after_and = self.g.coordinator.fullmatch(m.group().strip(" ,")) is not None
            pos = self.skip_fillers(m.end(), end)
            old = found.get(pos)
            if old is not None:
                causal, after_and = causal or old.causal, after_and or old.after_and
            found[pos] = _Clause(pos, causal, after_and)
        return sorted(found.values(), key=lambda c: c.pos)

    def try_rules(self, rules: tuple[Rule, ...], pos: int, end: int, elided: bool) -> bool:
        for r in rules:
            if r.anywhere:
                continue
            pattern = r.elided if elided else r.pattern
            if pattern is None:
                continue
            m = pattern.match(self.text, pos, end)
            if m is not None and MASK not in m.group():
                made = r.build(m, self.evidence(m))
                if made:
                    self.ops.extend(made)
                    return True
        return False

    def try_anywhere(self, rules: tuple[Rule, ...], start: int, end: int) -> None:
        for r in rules:
            if r.anywhere:
                for m in r.pattern.finditer(self.text, start, end):
                    if MASK not in m.group():
                        self.ops.extend(r.build(m, self.evidence(m)))

    def sentence(self, start: int, end: int) -> bool:
        """Read one sentence; True when what follows is pasted content."""
        g, text = self.g, self.text
        hyp = g.hypothetical.search(text, start, end)
        limit = hyp.start() if hyp else end
        first = self.skip_fillers(start, end)
        # A forget request is a command: nothing else in its sentence is a fact.
        for clause in self.clauses(start, limit):
            if self.try_rules(g.forget, clause.pos, end, elided=False):
                return False
        is_task = g.task.match(text, first, end) is not None
        if is_task and g.forward.search(text, start, limit if limit < end else end):
            return True  # "Translate this. ..." / "Summarise the following email. ..."
        pasted = False
        seg_spans = list(_spans(_SEGMENT_BREAK, text, start, end))
        for seg_start, seg_end in seg_spans:
            if seg_start >= limit:
                break
            seg_limit = min(seg_end, limit)
            if text[seg_end : seg_end + 1] == ":" and g.pasted.search(text, seg_start, seg_end):
                pasted = True
                seg_limit = min(seg_limit, seg_end)
            self.segment(seg_start, seg_limit, seg_end, is_task)
            if pasted:
                return True
        return False

    def segment(self, start: int, limit: int, end: int, is_task: bool) -> None:
        g, text = self.g, self.text
        question_seg = text[start:end].rstrip(" \x00\"'”»)").endswith("?")
        clauses = self.clauses(start, limit)
        asked = next(
            (i for i, c in enumerate(clauses) if g.question.match(text, c.pos, limit)), None
        )
        if question_seg and asked is None:
            asked = 0
        subject_is_user = g.first_person.match(text, clauses[0].pos, limit) is not None
        for i, clause in enumerate(clauses):
            if clause.pos >= limit:
                continue
            declarative = not is_task and (asked is None or i < asked)
            if self.try_rules(g.indirect, clause.pos, limit, elided=False):
                continue
            if self.try_rules(g.style, clause.pos, limit, elided=False):
                continue
            if not (declarative or clause.causal):
                continue
            if self.try_rules(g.facts, clause.pos, limit, elided=False):
                continue
            if clause.after_and and subject_is_user:
                self.try_rules(g.facts, clause.pos, limit, elided=True)
        if not is_task and asked is None:
            self.try_anywhere(g.facts, start, limit)
        self.try_anywhere(g.indirect, start, limit)


def extract_rules(message: str) -> Extraction:
    """The ops the rules find in one user message, secrets screened out."""
    if not message.strip() or not might_tell(message):
        return Extraction()  # nothing here could be a fact: the rules are not even compiled
    candidates = ranked(mask_quotes(message))
    best = candidates[0][0]
    ops: list[Op] = []
    # A short message may use no telling function word ("J'adore la randonnée"): every
    # grammar that ties for best gets a turn, in order, until one finds something.
    for score, grammar in candidates:
        if score < best:
            break
        ops = _Reader(message, grammar).run()
        if ops:
            break
    return screen(ops)
