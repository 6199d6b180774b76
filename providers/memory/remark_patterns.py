"""Turns of phrase the statement reader tells apart: what is said of a moment (a resolve, a
story's aftermath, the moment's trouble), what is a request or politeness, and which kinds
of fact last despite a plan or an occasion. Patterns only, as in `clause_patterns`; the
reading is `statements`."""

from __future__ import annotations

import re

# Pretend, role-play and fiction: nothing in them is the user's.
IMAGINED = re.compile(
    r"\b(?:pretend|imagine|hypothetically|role-?play|what if|let's say|in a world|"
    r"picture (?:me|yourself|this|a world)|in (?:my|our|a|the|this|that) (?:novel|story|"
    r"screenplay|script|game|campaign|fanfic|fic|book|comic|play|poem|song))\b",
    re.IGNORECASE,
)
# A form's label is a noun phrase; one with a subject pronoun is a sentence.
# A label with a subject or a verb of its own is said, not filled in ("Changed my mind: …").
SPOKEN_LABEL = re.compile(
    r"\b(?:i|we|you|he|she|they|it's|there's|here's|changed|decided|realised|realized|update|"
    r"said|says|say|told|tells|wrote|writes)\b",
    re.IGNORECASE,
)
LEFT_FOR = re.compile(r"\s+for\s+(?:one|a|an|another|something)\b", re.IGNORECASE)
# "Just got back from the dentist": a moment ago, with the "I" dropped.
JUST_DONE = re.compile(
    r"(?:just|finally)\s+(?:got|had|came|went|did|made|took|saw|met|ate|heard)\b|"
    r"(?:got|came|went) (?:back|home|in|out|up|off)\b",
    re.IGNORECASE,
)
# "I'll always prefer tea": a disposition said in the future tense is no plan.
DISPOSITION = re.compile(r"\b(?:always|never|forever|permanently|for good)\b", re.IGNORECASE)
# What is said ahead of time and still worth keeping: "I'll be 40 next month".
TOLD_AHEAD = frozenset({"goals", "age"})
THANKS = re.compile(r"[,;.!]?\s*(?:thanks|thank you|thx|cheers|ta)\W*$", re.IGNORECASE)
# A thing of the user's in trouble: "my code compiles but the tests hang", "my phone keeps
# dropping the wifi" ("our build uses Bazel" describes, and is kept).
THINGS_OF_MINE = re.compile(
    r"(?:my|our)\s+[\w-]+(?:\s+(?!(?:is|are|was|were|has|have|'s)\b)[\w-]+)?\s+"
    r"(?:keeps|kept|fails|failed|crashes|crashed|hangs|breaks|broke|freezes|froze|compiles|"
    r"throws|returns|won't|doesn't|isn't|stopped|died|refuses|errors|times out|lags)\b",
    re.IGNORECASE,
)
RESOLVE = re.compile(
    r"\b(?:won't|will|gonna|i'll|we'll|(?:i'm|i am|we're|we are) going to)\b", re.IGNORECASE
)
# A thing that may have happened, or may happen, not one that did: "I may have found a
# job", "We might move to Porto next year if…".
MAYBE_DONE = re.compile(
    r"\b(?:i|we)\s+(?:might|may)(?:\s+(?:well|just|actually|even|also))?\s+"
    r"(?!have\b|not\b)[a-z]+\b|"
    # ("I may have mentioned I'm vegan" tells what was said)
    r"\b(?:may|might|could)(?:\s+(?:well|just|finally|actually))?\s+have\s+"
    r"(?!(?:mentioned|said|told|written|noted)\b)\w+(?:ed|en|nd|t|ne|ot|ost|"
    r"ought|und|ung|ade)\b",
    re.IGNORECASE,
)
# Where a clause's subordinate part begins: what follows qualifies the main clause.
SUBORDINATE = re.compile(
    # ("since" and "until" say how long the main clause holds: they are part of it.)
    r",\s|\s(?:even though|though|although|which|because|while|whereas|so that)\s",
    re.IGNORECASE,
)
# How hard a thing is, said of the thing: "Running a business isn't easy".
HARD_THING = re.compile(
    r"^[^\W\d_]+ing\b[^,.!?]{0,40}\b(?:is|isn't|is not|has been|can be|was)\s+(?:not\s+|really\s+|"
    r"so\s+)?(?:easy|hard|tough|difficult|a challenge|no joke|a struggle)\b",
    re.IGNORECASE,
)
DREAM_TALK = re.compile(
    r"\bdreams?\b(?!\s+(?:is|was|of|to|job|house|home|car|trip|destination|school|role))",
    re.IGNORECASE,
)
PRONOUN = re.compile(r"(?:i|we|you|it|that|there)['’]\w+", re.IGNORECASE)
GENERIC_KIN = re.compile(r"\b(?:kids?|children|child|family|baby|toddler|teens?)\b", re.I)
# Verbs of getting rid of things in everyday life as well as in the memory.
EVERYDAY_RIDDANCE = re.compile(
    r"lose|drop|clear|bin|toss|trash|ditch|scrap|remove|wipe|purge|erase|delete", re.I
)
# What may stand before a request: nothing, politeness, or the end of an earlier clause.
ASKING = re.compile(
    r"(?:.*(?:[,;:.!?]|\s[-–—])\s*)?(?:(?:please|pls|plz|kindly|(?:can|could|would|will) "
    r"(?:you|u)|just|and|also|oh|ok|okay|actually|so|then|now|you can|you may|feel free to|"
    r"nah|yeah|yep|no|hm+|e+h+|um+|well|oops|sorry|"
    r"i'?d like you to|i would like you to|i (?:want|need) you to)"
    r"[\s,]*)*",
    re.IGNORECASE,
)
# A carer's word on the user's health is the user's fact: "my GP says I'm anaemic".
CARE_SAYS = re.compile(
    r"\b(?:doctor|gp|dr|physio|physiotherapist|dentist|cardiologist|consultant|specialist|"
    r"nurse|optician|allergist|dietitian|therapist|psychiatrist)\s+(?:says|said|thinks|"
    r"reckons|told me)\s+(?:that\s+)?i\b",
    re.IGNORECASE,
)
OF_REPLIES = re.compile(
    # the form replies take, with no matter of their own ("write normal paragraphs")
    r"[\w-]+\s+(?:me\s+|us\s+)?(?:[\w-]+\s+){0,2}(?:answers|replies|responses|explanations|"
    r"paragraphs|sentences|prose|bullets|bullet points)\b(?!\s+(?:of|about|on|for)\b)",
    re.IGNORECASE,
)
# A plan's day does not make these passing: "I'm vegan and visiting Rome next week", "we're
# moving to Leeds next month".
LASTING_DESPITE_PLANS = frozenset({"diet", "allergy", "allergies", "health", "home", "work", "age"})
# The kinds of thing a person has that an occasion can change for good.
STATE_SLOTS = frozenset({"health", "allergy", "diet"})
