"""The words a light stem stands for: what a search asks the full-text index for, so that a
query word finds its other forms as exact tokens ("painting" finds "painted" and "paints")
and nothing that merely begins the same ("paint" never finds "painter", "camp" never
"campaign").

Search matched a stem as a prefix before. A prefix query costs each index a walk over
every token it begins (FTS5 merges their lists, PostgreSQL rechecks each row's vector), and
reads every message of those tokens: at 100,000 messages a short stem such as "chita"
matched 13,851 messages where its word is in 449, and ranking them all was most of a
search. The forms here are the inflections `ctxchat.ranking.terms.stem` undoes (plural, -s
and -es, -ed, -ing, a final e, a doubled last consonant, -y to -ies), each kept only when
`stem` takes it back to the stem, so that the index and the ranking agree on what a word
matches. Of the 2,846 distinct words of the three recall dev conversations, one whose stem
has four letters or more is not among its stem's forms ("succeed": `stem` takes off "ed").
"""

from __future__ import annotations

from functools import lru_cache

from ctxchat.ranking.terms import stem

_VOWELS = frozenset("aeiou")
_NOT_DOUBLED = frozenset("aeiouwxyzls")  # a last letter `stem` never undoubles, or English doesn't


@lru_cache(maxsize=4096)
def forms(stemmed: str) -> tuple[str, ...]:
    """The words whose stem is `stemmed` (itself among them), in a fixed order."""
    found = {stemmed}
    for ending in ("s", "es", "ed", "ing", "ings", "e", "eing"):
        found.add(stemmed + ending)
    last = stemmed[-1:]
    if (
        len(stemmed) > 2
        and last not in _NOT_DOUBLED
        and stemmed[-2] in _VOWELS
        and stemmed[-3] not in _VOWELS
    ):
        found |= {stemmed + last + ending for ending in ("ed", "ing", "ings")}  # stopped
    if last == "y":
        found.add(stemmed[:-1] + "ies")
    return tuple(sorted(word for word in found if stem(word) == stemmed))
