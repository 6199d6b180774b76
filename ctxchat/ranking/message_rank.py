"""Ranking stored messages for a query, the same on every backend: which words a query
looks for, BM25 over the candidates the database's full-text index found, a bonus for
holding all the words and for holding them as a phrase, and the snippet.

Search used to return only messages holding every word of the query, which on long real
conversations (LoCoMo, questions asked as people ask them) found nothing for almost every
question: a question's words are rarely all in the turn that answers it. Here any word may
match; the database finds the candidates by an OR of the words (cheap, through its index),
and this module ranks them, so that SQLite and PostgreSQL rank alike:

- Stop words never decide a match: they are left out of the query (unless it holds nothing
  else). What remains is matched by any form of its light stem ("painting" finds "painted"
  and "paints", never "painter"), as `ctxchat.ranking.terms.stem` makes it and
  `ctxchat.ranking.inflections` undoes it, when the stem has four letters or more; shorter
  words must match whole. The database is asked for those forms as exact tokens.
- BM25 over the candidates, with each word's document frequency as the database counts it
  (capped: past a few hundred messages a word is common and its idf small either way).
- A message holding every word ranks higher, and one holding two query words side by side
  (stop words aside) higher again: the phrase is what the user remembers.

Then what the user's own history says about the query's words and a message's place:

- **Common words.** A word in more than a tenth of the user's messages (and in at least
  `MIN_COMMON` of them) says nothing about which one is meant, yet it still draws
  candidates, and above all pulls the query's vector: in a two-person history the other
  speaker's name, or the user's own as the other side greets them ("Hey Caroline!"), is
  in a fifth of the turns, and a question naming the user ("When did Caroline go...")
  then lands among greetings. Such words are left out of the words searched and of the
  text embedded for the query's vector (none is, when nothing else would be left). Which
  words those are is counted in the user's own history, per query: no list of names.
- **Neighbours.** The answer to a question often sits in the turn right after the one that
  holds its words (what was asked, then the reply that says it), or right before it. Each
  ranked message gains `NEIGHBOUR_WEIGHT` of the better score of the two messages beside
  it in its session, among those ranked. Relevance (what recall thresholds by) is left as
  it is: a neighbour lifts a message's place, never makes it relevant.

Chosen on the 283 recall dev questions not set aside (LoCoMo 26, 30, 41; all-MiniLM-L6-v2
through `bench/embedding_server.py`), R@10 as written / in the user's words.

Hybrid, from .573 / .691 before (lexical weight 0.7 then):
- common words out of the vector's text only: .626 / .684 (a twentieth: .625 / .685); of
  the words searched too: .678 / .672
- neighbours alone, 0.3: .643 / .741
- both, w = 0.7, neighbours 0.3: .732 / .736 (a twentieth: .731 / .735); w = 0.5: .754 /
  .767; w = 0.6 and 0.4 (kept): .760 / .771; w = 0.6 and 0.5: .757 / .763; 0.7: .751 /
  .757; w = 0.7 and 0.5: .754 / .752; common at 0.15 (w = 0.6, 0.5): .733 / .772;
  without neighbours, w = 0.5: .695 / .703
- the neighbour taken as the paired turn only (a message's reply, or what a reply
  answered), w = 0.6, 0.5: .716 / .739; both neighbours' scores summed (0.3): .743 / .754

Words alone (the default offline ranking), from .564 / .610: common words out only .597 /
.598; neighbours (0.4) only .611 / .652; both (kept) .642 / .642; neighbours at 0.2 .646 /
.647, at 0.6 .632 / .631.

The database never sees anything but plain words: a term reaches it as a bound value made
of letters and digits only.
"""

from __future__ import annotations

import itertools
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from ctxchat.ranking.terms import DEFAULT_B, DEFAULT_K1, STOP_WORDS, stem

# English function words beyond the tool ranker's short list, as any stop list has them:
# a conversation is full of them, a tool catalogue is not.
CONVERSATION_STOP_WORDS = STOP_WORDS | frozenset(
    [
        "am",
        "did",
        "doing",
        "done",
        "he",
        "her",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "i'm",
        "myself",
        "ours",
        "she",
        "not",
        "no",
        "nor",
        "very",
        "too",
        "also",
        "just",
        "all",
        "both",
        "each",
        "few",
        "more",
        "most",
        "other",
        "same",
        "own",
        "only",
        "again",
        "once",
        "here",
        "why",
        "whom",
        "whose",
        "should",
        "shall",
        "may",
        "might",
        "must",
        "up",
        "down",
        "out",
        "off",
        "over",
        "under",
        "after",
        "before",
        "during",
        "until",
        "because",
        "through",
        "between",
        "yes",
        "yeah",
        "oh",
        "hey",
        "ok",
        "okay",
        "really",
    ]
)
MIN_STEM = 4  # a stem shorter than this is matched whole, as the word typed
DF_CAP = 500  # document frequencies are counted up to this many messages
# Weights of the bonuses against BM25 normalised to the best candidate (1.0).
ALL_WORDS_BONUS = 0.25
PHRASE_BONUS = 0.2
SNIPPET_WORDS = 16

_TOKEN = re.compile(r"\w+")
K = TypeVar("K", bound=Hashable)


@lru_cache(maxsize=65536)
def fold(text: str) -> str:
    """Lower case without accents, as the SQLite index folds (remove_diacritics)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@dataclass(frozen=True)
class Term:
    """A query word, lower case (what the database is asked for: each folds accents its
    own way), matched whole (`stem` None) or by its light stem: any of the stem's forms
    (`ctxchat.ranking.inflections`)."""

    word: str
    stem: str | None  # of the word folded, as the SQLite index and the ranking fold

    @property
    def key(self) -> str:
        return self.stem or self.word

    @property
    def forms(self) -> tuple[str, ...]:
        """The folded words the term matches: its stem's forms and the word itself."""
        folded = fold(self.word)
        if self.stem is None:
            return (folded,)
        from ctxchat.ranking.inflections import forms

        found = forms(self.stem)
        return found if folded in found else (*found, folded)

    @property
    def spellings(self) -> tuple[str, ...]:
        """What a database is asked for: the forms, and those of the word as typed, accents
        and all, for an index that keeps accents (PostgreSQL's 'simple' configuration)."""
        if self.stem is None:
            return (self.word,)
        from ctxchat.ranking.inflections import forms

        typed = stem(self.word)
        extra = forms(typed) if typed != self.stem and typed.isalpha() else ()
        return tuple(dict.fromkeys((*self.forms, self.word, *extra)))


def query_plan(words: Sequence[str]) -> list[Term]:
    """The terms a query looks for: its words without stop words (all of them when nothing
    else is left), each once."""
    lowered = [w.casefold() for w in words]
    content = [w for w in lowered if fold(w) not in CONVERSATION_STOP_WORDS] or lowered
    plan: dict[str, Term] = {}
    for word in content:
        if not word or not word.replace("_", "").isalnum():
            continue
        stemmed = stem(fold(word))
        term = Term(word, stemmed if len(stemmed) >= MIN_STEM and stemmed.isalpha() else None)
        plan.setdefault(term.key, term)
    return list(plan.values())


@dataclass(frozen=True)
class Candidate:
    """A message the index found, with what ranking needs of it."""

    ident: int  # the caller's handle (a row id)
    body: str


@dataclass(frozen=True)
class Ranked:
    ident: int
    score: float  # higher is better; the best candidate near 1 + the bonuses
    # The share of the query's weight (idf) the message holds, 0 to 1: comparable across
    # queries, unlike `score`, so a threshold on it says "nothing here is relevant".
    relevance: float


def idf(total: int, df: int) -> float:
    return math.log(1.0 + (max(total, df) - df + 0.5) / (df + 0.5))


def rank(
    plan: Sequence[Term],
    candidates: Sequence[Candidate],
    df: Mapping[str, int],
    total: int,
) -> list[Ranked]:
    """The candidates best first (make snippets for those kept: `snippet`)."""
    if not plan or not candidates:
        return []
    weights = {t.key: idf(total, df.get(t.key, 0)) for t in plan}
    every = sum(weights.values()) or 1.0
    terms = _matcher(tuple(plan))
    matched = [terms.matched_keys(c.body) for c in candidates]
    average = sum(len(keys) for keys in matched) / len(matched) or 1.0
    raw: list[tuple[float, float, bool]] = []  # bm25, coverage, phrase
    for keys in matched:
        counts = Counter([key for key in keys if key is not None])
        norm = DEFAULT_K1 * (1 - DEFAULT_B + DEFAULT_B * len(keys) / average)
        bm25 = sum(weights[k] * n * (DEFAULT_K1 + 1) / (n + norm) for k, n in counts.items())
        coverage = sum(weights[k] for k in counts) / every
        raw.append((bm25, coverage, _has_phrase(keys)))
    best = max(bm25 for bm25, _, _ in raw) or 1.0
    ranked: list[Ranked] = []
    for candidate, (bm25, coverage, phrase) in zip(candidates, raw, strict=True):
        score = bm25 / best
        if len(plan) > 1 and coverage >= 1.0 - 1e-9:
            score += ALL_WORDS_BONUS
        if phrase:
            score += PHRASE_BONUS
        ranked.append(Ranked(candidate.ident, score, coverage))
    ranked.sort(key=lambda r: -r.score)
    return ranked


class _Matcher:
    """Which term of one query each word is, worked out once per distinct word: a search
    ranks 50 candidates of some hundred words each, and folding each word and trying it
    against every term was a third of a search's time at 100,000 messages."""

    def __init__(self, plan: tuple[Term, ...]) -> None:
        self._plan = [(frozenset(t.forms), t.key) for t in plan]
        self._words: dict[str, tuple[bool, str | None]] = {}  # word -> (stop word, key)

    def _classify(self, word: str) -> tuple[bool, str | None]:
        token = fold(word)
        # A word matches a term when, folded, it is one of the term's forms.
        key = next((k for forms, k in self._plan if token in forms), None)
        found = self._words[word] = (token in CONVERSATION_STOP_WORDS, key)
        return found

    def matched_keys(self, body: str) -> list[str | None]:
        """Per word of `body` (stop words left out, so that "language of learning" is still
        side by side), the key of the query term it matches, or None."""
        known, classify = self._words, self._classify
        told = [known.get(word) or classify(word) for word in _TOKEN.findall(body)]
        return [key for stop, key in told if not stop]

    def matches(self, word: str) -> bool:
        """Whether the word (stop word or not) is one of the query's terms."""
        return (self._words.get(word) or self._classify(word))[1] is not None


@lru_cache(maxsize=16)  # a search's ranking and its snippets share one
def _matcher(plan: tuple[Term, ...]) -> _Matcher:
    return _Matcher(plan)


def _has_phrase(keys: Sequence[str | None]) -> bool:
    """Two different query terms side by side."""
    return any(a is not None and b is not None and a != b for a, b in itertools.pairwise(keys))


def snippet(body: str, plan: Sequence[Term], marks: tuple[str, str]) -> str:
    """About `SNIPPET_WORDS` words of `body` around its densest run of matched words, the
    matched words marked, "…" where text is left out."""
    spans = [(m.start(), m.end(), m.group(0)) for m in _TOKEN.finditer(body)]
    if not spans:
        return body[:200]
    terms = _matcher(tuple(plan))
    hit = [terms.matches(w) for _, _, w in spans]
    window = min(SNIPPET_WORDS, len(spans))
    best_start, best_count = 0, -1
    count = sum(hit[:window])
    for start in range(len(spans) - window + 1):
        if start:
            count += hit[start + window - 1] - hit[start - 1]
        if count > best_count:
            best_start, best_count = start, count
    first, last = best_start, best_start + window - 1
    pieces: list[str] = ["…"] if first > 0 else []
    at = spans[first][0]
    for i in range(first, last + 1):
        start, end, _ = spans[i]
        pieces.append(body[at:start])
        word = body[start:end]
        pieces.append(f"{marks[0]}{word}{marks[1]}" if hit[i] else word)
        at = end
    if last < len(spans) - 1:
        pieces.append("…")
    else:
        pieces.append(body[at:])
    return " ".join("".join(pieces).split())


# -- what the user's history says of a query's words and a message's place ---------------
COMMON_SHARE = 0.1
MIN_COMMON = 20  # in a short history a word in a few messages is not common, just there
NEIGHBOUR_WEIGHT = 0.4


def count_limit(total: int, cap: int) -> int:
    """How far a word's messages must be counted to know both its idf (to `cap`) and
    whether it is common in a history of `total` messages."""
    return max(cap, MIN_COMMON, math.ceil(COMMON_SHARE * total) + 1)


def common(term: Term, df: Mapping[str, int], total: int) -> bool:
    found = df.get(term.key, 0)
    return found >= MIN_COMMON and found > COMMON_SHARE * total


def distinctive(plan: Sequence[Term], df: Mapping[str, int], total: int) -> list[Term]:
    """The plan without its common terms; all of it when every term is common."""
    kept = [t for t in plan if not common(t, df, total)]
    return kept or list(plan)


def rare_enough(plan: Sequence[Term], df: Mapping[str, int], total: int, wanted: int) -> list[Term]:
    """The query's rarest terms whose messages hold every one of the `wanted` best
    candidates when candidates go by the idf of the words they hold: the fewest rarest
    terms each of which outweighs all the others together, and one of which is in at least
    `wanted` messages. A message holding none of them then weighs less than every message
    holding one, so it is never among the best; its words still score those that are. The
    whole plan when no such terms exist (one term, or weights too close).

    Reading only these terms' messages spares the database its ranking of every message of
    the commoner words, which was most of a search of words in hundreds of messages."""
    weights = sorted(((idf(total, df.get(t.key, 0)), t) for t in plan), key=lambda p: -p[0])
    for size in range(1, len(weights)):
        rare, rest = weights[:size], weights[size:]
        lightest = rare[-1][0]
        found = max(df.get(t.key, 0) for _, t in rare)
        if lightest > sum(w for w, _ in rest) and found >= wanted:
            kept = {t.key for _, t in rare}
            return [t for t in plan if t.key in kept]
    return list(plan)


def lifted_by_neighbours(
    scores: Mapping[tuple[K, int], float], weight: float = NEIGHBOUR_WEIGHT
) -> dict[tuple[K, int], float]:
    """Each (key, seq)'s score plus `weight` of the better of its two neighbours' scores
    (seq - 1 and seq + 1 under the same key) among those given."""
    return {
        (key, seq): score
        + weight * max(scores.get((key, seq - 1), 0.0), scores.get((key, seq + 1), 0.0))
        for (key, seq), score in scores.items()
    }
