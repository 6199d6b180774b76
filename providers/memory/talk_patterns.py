"""Patterns of everyday talk the statement reader tells apart: a reply that says only that
something no longer holds, a verdict in a frame of choosing, a note that points back at what
was said before, a rename, what the user has named in passing inside a request. Patterns
only, as in `clause_patterns` and `remark_patterns`; the reader (`statements`) decides."""

from __future__ import annotations

import re

from .polarity import REFUSED, UNBEATEN

# An imperative of any verb with the user as its object.
VERB_ME = re.compile(
    r"(?!(?:i|it|that|this|they|he|she|you|we|let)\b)(?:[a-z]+[^s\W]|pass|guess)\s+me\b"
    # "Tell my son to wear a helmet": what to say to one of the user's people
    r"|(?:tell|ask|remind|warn|text|email|message|invite|convince|persuade)\s+(?:my|our)\s+"
    r"(?:[\w'-]+\s+){1,2}(?:to|that|if|whether|about)\b",
    re.I,
)
# "No emojis, ever": a reply's feature refused outright.
NO_THING = re.compile(r"no\s+(?!one\b|longer\b|more\b|idea\b|way\b|need\b|problem\b)\w", re.I)
# The one piece of work at hand, pointed at.
# "This time" in the reader's languages: an instruction for the reply at hand.
THIS_TIME = re.compile(
    r"\b(?:this time|just this once|cette fois|pour cette fois|esta vez|por esta vez|diesmal|"
    r"dieses mal|questa volta|per questa volta|desta vez|dessa vez|deze keer|voor deze keer)\b",
    re.IGNORECASE,
)
ONE_THING = re.compile(
    r"^[^,;]*?(?:\b(?:this|these|that|those)\s+(?!(?:days|time|way|kind|sort|on|in|at|to|for|"
    r"with|of|is|are|was|were)\b)[\w-]+|\bthis one\b)",
    re.I,
)
# What a request is for, given after it: the request is that task's.
TASK_AFTER_COLON = re.compile(r":\s*\S.{2,}", re.DOTALL)
TOPIC_FIRST = re.compile(
    r"^(?:when it comes to|as for|as far as|speaking of|in terms of)\s+[^,]{1,40},\s*(?:it'?s\s+)?",
    re.IGNORECASE,
)
# What the user told the assistant, named only by a question word or a pronoun ("I shouldn't
# have told you where I work", "I regret telling you that"): the telling, not a fact.
TOLD_YOU_OF = re.compile(
    r"\b(?:told|tell|telling|mentioned|mention|mentioning)\s+(?:to\s+)?you\s+"
    r"(?:where|what|who|how|when|which|about|this|it|that(?!\s+(?:i|i'm|we|my)\b))\b",
    re.I,
)
# ("Leo's actually 8": "Leo is", no value, before the cue)
VALUE_FIRST = re.compile(
    r"\W*[\w'-]+(?<!'s)(?: [\w'-]+(?<!'s))?,? (?:actually|technically)\b", re.I
)
# A statement of the user's denied: "I'm not allergic to cats after all".
NOT_SO = re.compile(
    r"\b(?:i'm|i am|im)\s+not\s+(?:really\s+|actually\s+)?(?P<old>[\w' -]{3,40}?)"
    r"(?=\s+(?:after all|anymore|any more)\b|\s*[,.;!]|$)",
    re.IGNORECASE,
)
# A thing that is not the user's own person, said as it was: an occasion.
PAST_OF_A_THING = re.compile(
    r"(?!(?:my|our|i|we)\b)[^\W\d_][\w'-]*(?:\s+[\w'-]+){0,2}\s+(?:was|were)\b", re.I
)
# "we rock as a team", "we're all in it together" (but "we're a military family", "we
# have two dogs": what the household is or has).
WE_SAID = re.compile(
    r"(?:\w+,?\s+)?(?:(?:we(?:'ve|'ll|'d)|we(?!['’]))\b(?!\s+(?:(?:also\s+)?got|have|own|live|keep|rent|grow|"
    r"are (?:a|an|in|out|"
    r"based|from))\b)|we're\b(?!\s+(?:a|an|in|out|based|from)\b))",
    re.I,
)
LOST_REFERENT = re.compile(
    # Whatever the verb, the clause's object is a thing named in another sentence.
    r"^(?:(?:\w+,?\s+)?(?:i|we)(?:['’](?:m|re|ve|ll|d))?\s+(?:\w+\s+){0,2}?|"
    r"(?:\w+ing|gotta|gonna)\s+(?:to\s+)?(?:\w+\s+)?)"
    r"(?!(?:am|is|are|was|were|be|been|'m|'s)\b)\w+\s+"
    # ("this" or "that" at the clause's end, or before its last word: "make this work")
    # ("IT" is a trade; "this year" says when)
    r"(?:them|him|her|(?-i:it|It)|(?:this|that)(?=\s*(?!(?:year|week|month|morning|evening|"
    r"afternoon|time|summer|spring|autumn|winter|weekend)\b)(?:\w+)?\W*$))\b"
    # (but "I use it to raise funds": what it is for is said)
    r"(?!\s*(?:here|there|when|whenever|if|that|how|so much|because|to\s+\w|in\b|at\b|['’]))",
    re.I,
)
WHEN_FIRST = re.compile(
    r"^(?:last (?:week|weekend|month|year|night|summer|spring|autumn|fall|winter)|yesterday|"
    r"recently|lately|this (?:week|month|year)|a (?:few|couple of) (?:days|weeks|months|years) "
    r"ago|in (?:19|20)\d\d|back then|these days|nowadays)\s*,?\s*",
    re.IGNORECASE,
)
# A reason or a time the user's own clause is said as ("now that I'm in Denver, …", "since
# I'm vegan, …"): the clause after it is still a statement of the user's.
BECAUSE_FIRST = re.compile(
    r"^(?:now that|now|since|ever since|because|cause|cuz|as|given that|seeing as)\s+"
    r"(?=(?:i|i'm|im|i've|ive|we|we're|we've)\b)",
    re.IGNORECASE,
)
# A note whose subject points back at something said before: "They're my biggest support".
POINTS_BACK = re.compile(
    r"(?:it|it's|its|they|they're|they've|that|that's|this|these|those|there)\b"
    r"(?!\s+(?:days|years|months|weeks|mornings|evenings|weekends|times)\b)",
    re.I,
)
# A subject pointed at rather than named ("songs like this", "that sunset"): what is said
# of it is lost with the thing at hand.
POINTED_AT = re.compile(
    r"^(?:[\w'’-]+\s+){1,2}like\s+(?:this|that|these|those)\b"
    r"|^(?:this|that|these|those)\s+(?!(?:days|years?|months?|weeks?|weekends?|time|term|"
    r"semester|season|morning|evening|summer|spring|autumn|fall|winter|is|was|'s)\b)\w+",
    re.I,
)
# What a clause is about, pointed at at its end and named elsewhere: "I want my kids to
# learn that too".
POINTED_AT_THE_END = re.compile(r"\b(?:that|this|it)\s+(?:too|as well|also)\W*$", re.I)
# A view held of how things are ("I think that schools should start later", "I believe
# how we vote matters"): an opinion about the world, not a fact about the user. ("I know
# how to knit" would be a skill: "to" follows, not a clause.)
OPINION = re.compile(
    r"^(?:[\w'’-]+,?\s+)?(?:i|we)\s+(?:\w+\s+)?(?:know|think|believe|feel|reckon|guess|"
    r"reali[sz]e|understand|agree|suppose)\s+(?:\w+\s+)?(?:that|how|why|what|whether)\s+"
    r"(?!to\b)(?!(?:i|i'm|i've|i'd|my)\b)\w+",
    re.I,
)
# A liking of how something named elsewhere is: the thing is lost.
HOW_IT_IS = re.compile(
    r"\bi (?:really )?(?:love|like|enjoy|adore) (?:how|that|when) (?:[\w'-]+ ){0,5}?"
    r"(?:it|it's|this|that|they|they're)\b",
    re.I,
)
NOT_DONE_YET = re.compile(r"\b(?:haven't|have not|hasn't|not)\b[^.!?]{0,40}\byet\b", re.I)
RENAMED = re.compile(
    r"\b(?P<old>(?-i:[A-Z])[\w'-]+) (?:is|'s) now (?:officially |called |named |known as )?"
    r"(?P<new>(?-i:[A-Z])[\w'-]+)",
    re.IGNORECASE,
)
# A choice with its verb left out, between two bare things: "Tea over coffee", "Sci-fi >
# fantasy, always" (a thing with an article or a pronoun before it is a scene: "the cat
# over the fence").
CHOICE = re.compile(
    r"(?!(?:the|a|an|my|i|we|you|he|she|they|it|this|that)\b)[^\W\d][\w'-]*"
    r"(?:\s[\w'-]+)?\s*(?:\s(?:over|rather than|instead of)\s|>)\s*"
    r"(?!(?:the|a|an|my|it|there|here|to|and)\b)[^\W\d][\w'-]*(?:\s[\w'-]+)?"
    r"(?:,?\s+(?:always|any day|every time|forever|for me))?[.!]?",
    re.IGNORECASE,
)
# A habit with its verb left out: a bare thing, then how often ("Parkrun every Saturday",
# "Yoga most mornings").
HABIT = re.compile(
    r"(?!(?:the|a|an|my|i|we|you|he|she|they|it|this|that|there)\b)[^\W\d][\w'-]*"
    r"(?:\s[\w'-]+)?,?\s+(?:every|each|most|on)\s",
    re.IGNORECASE,
)
VERDICT_FRAME = re.compile(
    rf"\b(?:all the way|or nothing|only from now on|every time|any day|hands down|{UNBEATEN}|"
    rf"{REFUSED})\b",
    re.I,
)
# A thing pointed at is the one at hand: "nothing beats this weather", "hard pass on that
# meeting", "rien ne vaut ce film" judge an occasion, not a taste.
AT_HAND = re.compile(
    r"\b(?:this|that|these|those|ce|cet|cette|ces|este|esta|estos|estas|ese|esa|dies\w*|"
    r"jene\w*)\b(?!\s+(?:days|time)\b)",
    re.I,
)
MIND_CHANGED = re.compile(
    r"\b(?:changed my mind|change of heart|meinung geändert|changé d'avis|cambié de opinión)\b",
    re.I,
)
# One more of a kind, not another in its place: "Also I do a lot of Rust lately".
ALSO = re.compile(r"\b(?:also|too|as well|another|additionally|auch|aussi|también)\b", re.I)
# A name as the subject of its clause: "Theo is 9".
SUBJECT_NAME = re.compile(r"\b(?P<who>(?-i:[A-Z])[\w'-]+)\s+(?:is|was|'s|are|were)\b")
# A short name in capitals with no one speaking in it: a book's, a song's, a group's.
TITLE = re.compile(
    r"(?!.*\b(?:i|i'm|i've|my|me|we|you)\b)(?-i:[A-Z0-9])[^.!?:;\n]{0,40}", re.IGNORECASE
)
# A phrase the user owns, "my" and a few words up to where the phrase ends.
MY_ATTRIBUTE = re.compile(
    r"\b(?:my|our)\s+(?:(?!(?:and|but|or|so|for|with|while|when|because|that|which|is|are|"
    r"was|were|has|have|had|does|do|did|can|could|will|would|should|gets|got|needs|keeps|"
    r"at|in|on|to|from)\b)[\w'-]+\s*){1,3}",
    re.IGNORECASE,
)
OWN_KINDS = frozenset({"health", "allergy", "diet", "pets", "education", "possessions"})
# "Is my diet balanced?" names a kind and no condition of the user's.
GENERIC_NEED = re.compile(
    r"(?:my|our)\s+(?:own\s+)?(?:diet|health|medical|condition|medication)\w*", re.IGNORECASE
)
# "a 16-inch MacBook Pro, which is what I use": the thing named is the user's.
WHAT_I_USE = re.compile(
    r"(?P<thing>(?:-?[\w-]+\s+){0,3}[\w-]+),?\s+which is what (?:i|we) (?:use|have|drive|own|"
    r"run|ride|play|wear|take)\b",
    re.IGNORECASE,
)
# Where the user lives or works, said in passing: "my flat in Shoreditch", "my landlord in
# Bilbao", "my shift at the fire station".
MY_PLACE = re.compile(
    # ("the new flat in Leeds", "closed on a house in Halifax": a home got is the user's)
    # ("our first house in Bath": a first or own home is one too)
    r"(?:\b(?:my|our)\s+(?:(?:new|first|own)\s+)?|\bthe\s+new\s+(?=flat|house|apartment|place)|"
    r"\b(?:bought|closed on|moved into|renting|rented|signed for)\s+an?\s+(?:new\s+)?"
    r"(?=flat|house|apartment|place))"
    r"(?:(?P<home>flat|house|home|apartment|place|landlord|landlady|"
    r"neighbou?rhood|street|building)|(?P<work>office|shifts?|job|workplace|team))\s+"
    # A place's name runs on over capitalised words, not into an "I" ("…in Croydon I'm…").
    r"(?:in|at|near|on)\s+(?:the\s+)?(?:(?-i:[A-Z])[\w'-]+(?:\s+(?!I\b)(?-i:[A-Z])[\w'-]+)*|"
    r"(?:[a-z]+\s+){0,2}(?:station|hospital|school|centre|center|factory|plant|depot|clinic|"
    r"surgery|warehouse|restaurant|bakery|hotel|store|shop|site|lab|university|airport))",
    re.IGNORECASE,
)
# Where the user is, said of a place in passing: "a plumber here in Bristol".
HERE_IN = re.compile(
    r"\b(?:here|near me|around me|close to me)\s+in\s+(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)*"
    # "…after moving to Dundee": where the user has moved is where they live.
    r"|\b(?:since|after|now that i'm|now that i've been)\s+(?:moving|relocating|moved|relocated)"
    r"\s+(?:here\s+)?to\s+(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)*",
    re.IGNORECASE,
)
