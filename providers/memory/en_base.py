"""English building blocks: subjects, adverbs, the value cleaner, vocabulary patterns."""

from __future__ import annotations

import re

from .build import Builders
from .grammar import (
    FLAGS,
    NAME,
    SUBJECT,
    compile_words,
    make_cleaner,
)
from .vocab_en import (
    BUSINESSES,
    CAR_BRANDS,
    CONDITION_PHRASES,
    NATIONALITIES,
    NATURAL_LANGUAGES,
    PETS,
    PROGRAMMING_LANGUAGES,
    RELATIVE_PLURALS,
    RELATIVES,
    VEHICLE_WORDS,
)

S = SUBJECT  # where the subject goes in elidable rules
I_ = r"i(?:\s+|(?='))"  # the subject itself ("I love", "I've", "I'm")
BE = r"(?:(?:am|'m)\s+)?"  # "I'm working", "I am studying"
ADV = (
    r"(?:(?:really|actually|now|currently|also|just|still|finally|officially|totally|"
    r"absolutely|truly|genuinely|definitely|mostly|mainly|usually|generally|honestly|"
    r"seriously|simply|literally|recently|even|kind\s+of|sort\s+of|pretty\s+much|do|"
    r"already|personally)\s+)*"
)
IM = r"(?:i'm|i\s+am|im)\s+"
TRAILING = (
    r"now|anymore|any\s+more|at\s+all|too|as\s+well|though|either|these\s+days|nowadays|"
    r"lately|recently|really|a\s+lot|so\s+much|very\s+much|for\s+now|from\s+now\s+on|instead|"
    r"just\s+so\s+you\s+know|by\s+the\s+way|btw|fyi|for\s+(?:a\s+)?(?:while|living)|"
    r"(?:last|this|next)\s+(?:week|month|year|summer|spring|autumn|fall|winter)|"
    r"(?:a\s+(?:few|couple\s+of)|two|three|four|\d+)\s+(?:days|weeks|months|years)\s+ago|"
    r"a\s+(?:week|month|year)\s+ago|(?:since|in)\s+\d{4}|please|thanks|thank\s+you|haha|lol|"
    r"again|together|actually|after\s+all|sadly|already|myself|personally|i\s+think|i\s+guess|these\s+days|"
    r"for\s+(?:(?:about|over|almost|nearly)\s+)?(?:\w+\s+)?(?:years|months|weeks|ages|a\s+while|"
    r"a\s+long\s+time|a\s+year|a\s+decade)"
)
clean = make_cleaner(
    cuts=r"\s+(?:and|but|so|because|since|as|though|although|while|which|who|when|if|unless|"
    r"until|whereas)\s+(?:i|i'm|i've|i'd|we|my|our|it|it's|they|he|she|you|that|this|there)\b"
    r"|\s+(?:because|since|although|though|unless|whereas|so\s+that|but|which)\b|\s+[-–—]\s+|"
    r",\s*(?:i|i'm|it|it's|we|they|he|she|you|that|this|which|but|so|because|since|and\s+i|"
    r"just|as|if|when|my|our|who|though|although|especially|not)\b|"
    r"\s+(?:so|and|but)\s+(?=(?:what|how|which|where|when|why|who|can|could|would|should|do|"
    r"does|is|are|any|please)\b)|"
    r"\s+and\s+(?:then\s+|now\s+|also\s+)?(?:bought|got|moved|started|became|switched|took|"
    r"went|found|sold|adopted|joined|left|quit|live|work|study|have|has|am|was|love|like|hate|"
    r"need|want|use|run|own|speak|drive|play|go)\b",
    trailing=TRAILING,
    leading=r"the|some",
)
b = Builders(
    clean=clean,
    separators=r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&|as\s+well\s+as|plus)\s+",
    banned=re.compile(
        r"(?:it|that|this|them|those|these|you|him|her|us|to\s+(?:know|think|say|be|have|see|"
        r"ask|hear)|when|how|what|why|where|if|whether|the\s+idea|being|doing|my\s+life|"
        r"everything|everyone|anything|nothing|something|someone|somebody|one|your|first|second|"
        r"third|last|other|previous|next|latter|former)\b",
        FLAGS,
    ),
)

REL = compile_words([*RELATIVES, *RELATIVE_PLURALS])
PET = compile_words(list(PETS))
PET_NAMES = rf"(?P<names>{NAME}(?:\s*(?:,|and|&)\s*{NAME})*)"
CONDITION = compile_words(CONDITION_PHRASES)
LANG = compile_words(NATURAL_LANGUAGES)
PROG = compile_words(PROGRAMMING_LANGUAGES)
NOT_A_NAME = frozenset(w.casefold() for w in [*NATIONALITIES, *NATURAL_LANGUAGES])
BUSINESS_RE = re.compile(rf"\b{compile_words(BUSINESSES)}\b", FLAGS)
VEHICLE_RE = re.compile(
    rf"^(?:{compile_words(CAR_BRANDS)}\b.*|.*\b{compile_words(VEHICLE_WORDS)})$", FLAGS
)
RECURRING = re.compile(
    r"\b(?:every|each)\s+\w+|\b(?:on\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun|week)days\b|"
    r"\b(?:on|at)\s+(?:the\s+)?weekends?\b|\bweekends\b|\bnights?\b|\bnight\s+shifts?\b|"
    r"\b(?:early|late)\s+shifts?\b|\bdaily\b|\bweekly\b|\bmornings\b|\bevenings\b|"
    r"\bfrom\s+\d{1,2}(?::\d\d)?\s*(?:am|pm)?\s*(?:to|until|till|-)\s*\d|\b(?:full|part)[- ]time\b|"
    r"\bfrom\s+home\b|\bremotely\b|\bshifts\b|\bmonday\s+to\s+friday\b|"
    r"\bin\s+the\s+(?:mornings?|evenings?|afternoons?)\b|\bat\s+night\b",
    FLAGS,
)
ONE_OFF_TIME = re.compile(r"\b(?:tomorrow|today|tonight|yesterday|next|this|later|soon)\b", FLAGS)


ATTRIBUTES = (
    r"phone(?:\s+number)?|(?:mobile|cell|telephone)(?:\s+(?:phone\s+)?number)?|"
    r"e-?mail(?:\s+address)?|birthday|date\s+of\s+birth|birth\s+date|blood\s+(?:type|group)|"
    r"height|weight|shoe\s+size|star\s+sign|zodiac\s+sign|pronouns|nickname|middle\s+name|"
    r"surname|last\s+name|family\s+name|website|github(?:\s+handle)?|username|handle|car|job|"
    r"profession|occupation|employer|company|school|university|uni|major|degree|"
    r"(?:[\w-]+(?:'s)?\s+){0,3}?(?:password|passcode|pin|api\s+key|token|security\s+answer|"
    r"maiden\s+name|card\s+number|account\s+number|iban|sort\s+code|social\s+security\s+number|"
    r"ssn|passport\s+number|login|secret)"
)
LIVE = (
    r"(?:(?:i|we)\s+"
    + ADV
    + r"(?:live|reside|stay)|(?:i'm|i\s+am|we're|we\s+are)\s+"
    + ADV
    + r"(?:living|based|located|settled|residing))"
)
MOVE = r"(?:i|we)(?:\s+have|'ve)?\s+" + ADV + r"(?:moved|relocated|emigrated)"
GOT = r"(?:have|'ve\s+got|have\s+got|got|own|adopted|rescued)"
HAVE = rf"(?:i|we)(?:\s+|(?=')){ADV}{GOT}\s+"
DISLIKE = (
    r"(?:hate|dislike|detest|loathe|despise|abhor|can't\s+stand|cannot\s+stand|can't\s+bear|"
    r"can't\s+stomach|don't\s+(?:really\s+)?(?:like|enjoy|care\s+for|love)|do\s+not\s+(?:like|"
    r"enjoy|care\s+for)|no\s+longer\s+(?:like|enjoy|love)|(?:am|'m)\s+not\s+(?:a\s+(?:big\s+|"
    r"huge\s+)?fan\s+of|into|keen\s+on|fond\s+of))"
)
LIKE = (
    r"(?:love|like|enjoy|adore|dig|(?:am|'m)\s+(?:really\s+|very\s+|so\s+)?(?:into|fond\s+of|"
    r"passionate\s+about|obsessed\s+with|crazy\s+about|keen\s+on|a\s+(?:big\s+|huge\s+|"
    r"massive\s+)?fan\s+of))"
)
