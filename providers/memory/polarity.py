"""Which way a statement's feeling points, and what it is about: "I hate running" and
"I've come to love running" speak of one thing with opposite feelings, whatever slot each
was filed under."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

from .normalize import stem, words

Feeling = Literal["for", "against"]

# A liking denied: "never been a fan of", "don't really like", "not into", "not a big
# beach person".
LIKING_DENIED = (
    r"(?:not|never|no longer|(?:do|does|did|could|would|ca|wo|is|are|was|were|have|has)n't)\s+"
    r"(?:\w+\s+){0,2}?(?:a (?:big |huge )?fan|into|keen on|"
    r"fond of|likes?|liked|enjoy\w*|big on|"
    r"(?:a|much of an?) (?:big |huge |real )?[\w-]+ (?:person|guy|gal|girl))"
)
# The one judging a thing unbeaten, in a frame of no subject: "nothing beats a good curry",
# "rien ne vaut", "nada como", "nichts geht über".
UNBEATEN = (
    r"(?:nothing (?:beats|tops|compares to|comes close to|is better than|better than)|can't beat|"
    r"rien ne vaut|rien de tel|rien de mieux que|rien ne bat|"
    r"nada como|nada mejor que|nada supera|"
    r"nichts (?:geht )?über|nichts schlägt|nichts ist besser als)"
    # a thing, not what things do: "can't beat what a good team can do" is a saying
    r"(?!\s+(?:what|how|when|the way|what's|whatever)\b)"
)
# A thing refused for good, with no subject: "hard pass", "never again", "nie wieder".
REFUSED = (
    r"hard pass|never again|(?:a |big )?no from me|"
    r"plus jamais|très peu pour moi|nunca más|nie wieder"
)
_AGAINST = re.compile(
    r"\b(?:hate|hated|hates|hating|dislike|dislikes|disliking|detest|loathe|can't stand|"
    r"cannot stand|can't bear|not a fan|not into|not keen|don't like|do not like|don't enjoy|"
    r"do not enjoy|never liked|sick of|fed up with|gone off|went off|" + LIKING_DENIED + r")\b",
    re.IGNORECASE,
)
_FOR = re.compile(
    r"\b(?:love|loved|loves|loving|like|likes|liking|enjoy|enjoys|enjoying|adore|adores|into|"
    r"fan of|big fan|"
    r"passionate about|obsessed with|hooked on|crazy about|keen on|come (?:a)?round (?:on|to)|"
    r"grown on me|growing on me|warming to|warmed (?:up )?to)\b",
    re.IGNORECASE,
)
# Words of feeling and of the telling itself carry no topic.
_NOT_TOPIC = frozenset(
    [
        "i",
        "i'm",
        "i've",
        "me",
        "my",
        "we",
        "our",
        "you",
        "it",
        "it's",
        "that",
        "this",
        "these",
        "those",
        "the",
        "a",
        "an",
        "and",
        "or",
        "but",
        "so",
        "to",
        "of",
        "in",
        "on",
        "at",
        "for",
        "with",
        "from",
        "really",
        "honestly",
        "weirdly",
        "actually",
        "now",
        "these",
        "days",
        "always",
        "never",
        "quite",
        "very",
        "much",
        "more",
        "most",
        "lot",
        "bit",
        "just",
        "still",
        "again",
        "come",
        "came",
        "have",
        "has",
        "had",
        "been",
        "being",
        "am",
        "is",
        "are",
        "was",
        "were",
        "be",
        "do",
        "does",
        "did",
        "don't",
        "not",
        "no",
        "fan",
        "big",
        "keen",
        "into",
        "love",
        "loved",
        "loves",
        "like",
        "likes",
        "enjoy",
        "enjoys",
        "adore",
        "adores",
        "hate",
        "hated",
        "hates",
        "dislike",
        "dislikes",
        "detest",
        "loathe",
        "can't",
        "cannot",
        "stand",
        "bear",
        "passionate",
        "about",
        "obsessed",
        "hooked",
        "crazy",
        "sick",
        "fed",
        "up",
        "gone",
        "off",
        "went",
        "thing",
        "things",
        "stuff",
    ]
)


@lru_cache(maxsize=65536)  # every fact of the store is asked on each add
def polarity(value: str) -> Feeling | None:
    if _AGAINST.search(value):
        return "against"
    if _FOR.search(value):
        return "for"
    return None


@lru_cache(maxsize=65536)
def topic_stems(value: str) -> frozenset[str]:
    return frozenset({stem(w) for w in words(value) if w not in _NOT_TOPIC and len(w) > 2})
