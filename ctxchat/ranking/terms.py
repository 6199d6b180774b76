"""Text to index terms: words split at case and digit changes, stop words out, light stems.

Tool names are identifiers (`get_user_id`, `fillFuelTank`, `HTMLParser2`); people write
words ("fill the fuel tank"). Splitting snake_case, camelCase and digit runs puts both in
the same vocabulary. The stop list is deliberately small: the catalogue's own statistics
(BM25's idf) already discount common words, the list only drops the function words that
add noise to short queries.

The stemmer is light on purpose (plural, -ing, -ed and a final e): it conflates
"booking"/"booked"/"bookings"/"book" and "create"/"creating"/"created" without the
over-reach of a full Porter stemmer ("university"/"universe"). Measured on the dev splits
(BM25 over the default tool text, last message), recall@5 without -> with stemming:
MetaTool single .559 -> .628, MetaTool multi .507 -> .560, BFCL .764 -> .773.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

Analyzer = Callable[[str], list[str]]
# BM25's term saturation and length normalisation, shared by both lexical indexes.
DEFAULT_K1 = 1.2
DEFAULT_B = 0.75

# Letters and digits (any script), runs of one kind: "file_name1" -> file, name, 1.
_WORD_RE = re.compile(r"[^\W\d_]+|\d+")
# Case changes inside a letter run: fillFuelTank -> fill|Fuel|Tank; HTMLParser -> HTML|Parser.
_CAMEL_RE = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")

STOP_WORDS: frozenset[str] = frozenset(
    (
        "a",
        "about",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "been",
        "but",
        "by",
        "can",
        "could",
        "do",
        "does",
        "for",
        "from",
        "had",
        "has",
        "have",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "me",
        "my",
        "of",
        "on",
        "or",
        "our",
        "please",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "to",
        "us",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "will",
        "with",
        "would",
        "you",
        "your",
        "s",
        "t",
        "d",
        "ll",
        "m",
        "re",
        "ve",
    )
)

_VOWELS = frozenset("aeiouy")

# A quoted span: 'final_report.pdf', "Hello there", `ls -la`. An apostrophe inside a word
# ("what's", "users' files") neither opens nor closes one.
_QUOTED_RE = re.compile(r"""(?<!\w)'[^'\n]{1,300}'(?!\w)|"[^"\n]{1,300}"|`[^`\n]{1,300}`""")
# Quoted text counts this much in a query, once enough words stand outside the quotes.
QUOTED_WEIGHT = 0.3
MIN_UNQUOTED_TERMS = 3


def _has_vowel(word: str) -> bool:
    return any(ch in _VOWELS for ch in word)


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light English stem: plural, -ing and -ed endings, then a final e.

    Words of four letters or fewer and words without a vowel are left alone; the result is
    an index key, not a dictionary word ("create" -> "creat").
    """
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("sses"):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix):
            base = word[: -len(suffix)]
            if len(base) >= 3 and _has_vowel(base):
                # running -> run, stopped -> stop (but not "fall" -> "fal")
                if len(base) > 3 and base[-1] == base[-2] and base[-1] not in "lsz":
                    base = base[:-1]
                word = base
            break
    if word.endswith("e") and len(word) > 4:
        word = word[:-1]
    return word


def split_words(text: str) -> list[str]:
    """Lower-cased words with identifiers split: "getUserID_v2" -> get, user, id, v, 2."""
    words: list[str] = []
    for run in _WORD_RE.findall(text):
        for piece in _CAMEL_RE.split(run):
            if piece:
                words.append(piece.lower())
    return words


def terms(text: str, *, stemming: bool = True) -> list[str]:
    """Index terms of `text`: split words, stop words removed, optionally stemmed."""
    words = [w for w in split_words(text) if w not in STOP_WORDS]
    return [stem(w) for w in words] if stemming else words


def mask_quoted(text: str, placeholder: str = "'...'") -> str:
    """`text` with each quoted span replaced by `placeholder`, unless too little is left
    outside the quotes (then `text` as it is).

    For an embedding model the quoted value (the tweet to post, the file to move) pulls the
    query towards whatever it talks about; the placeholder keeps the shape of the request
    ("post a tweet: '...'"). On BFCL that is worth 5 points of recall@5 for embeddings.
    """
    outside = _QUOTED_RE.sub(" ", text)
    if outside == text or len(terms(outside)) < MIN_UNQUOTED_TERMS:
        return text
    return _QUOTED_RE.sub(placeholder, text)


def query_terms(
    text: str,
    analyzer: Callable[[str], list[str]] = terms,
    *,
    quoted_weight: float = QUOTED_WEIGHT,
) -> dict[str, float]:
    """Weighted query terms of `text`: each term once, at weight 1, or `quoted_weight`
    when it occurs only inside quotes.

    Once, not once per occurrence: a word a long message repeats is not the more important
    for it (dev recall@5: MetaTool multi +2 points, the others unchanged). What people quote
    is mostly a value the tool will take (a file name, the text of a message to send), not
    what they ask for; on BFCL down-weighting it gains 1.5 points. A message that is mostly
    quoted (a whole request in quotes) is taken as it is.
    """
    outside = _QUOTED_RE.sub(" ", text)
    outer = analyzer(outside)
    if len(outer) < MIN_UNQUOTED_TERMS or outside == text:
        return dict.fromkeys(analyzer(text), 1.0)
    weights: dict[str, float] = dict.fromkeys(outer, 1.0)
    for match in _QUOTED_RE.finditer(text):
        for term in analyzer(match.group(0)):
            weights.setdefault(term, quoted_weight)
    return weights
