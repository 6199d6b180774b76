"""English: where clauses start, what opens a question, a hypothetical or a task, how to
forget, and the indirect facts inside requests ("Being diabetic, ...")."""

from __future__ import annotations

import re

from .facts_en import CONDITION, FACTS, PET, REL, b
from .grammar import FLAGS, Grammar, Rule, rule
from .ops import Op
from .predicates_en import classify
from .style_en import STYLE
from .topics import TopicTable, category, forget_ops
from .vocab_en import PETS, RELATIVES


def _c(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, FLAGS)


TOPICS = TopicTable(
    everything=_c(
        r"everything|all|all\s+of\s+(?:it|that|this)|me|(?:all\s+)?(?:my|the)\s+(?:data|info|"
        r"information|details|facts|memory|memories|personal\s+(?:info|information|data|"
        r"details))|what\s+you\s+know|what\s+you\s+remember|all\s+(?:of\s+)?my\s+stuff|"
        r"(?:the\s+)?whole\s+memory|your\s+memory"
    ),
    strip=_c(
        r"^(?:about|that|the\s+fact\s+that|what\s+i\s+(?:told|said\s+to|mentioned\s+to|shared\s+"
        r"with)\s+you(?:\s+(?:about|regarding|on))?|what\s+you\s+know\s+about|everything\s+"
        r"(?:you\s+know\s+|you\s+have\s+|you\s+remember\s+)?(?:about|on)|anything\s+about|"
        r"all\s+about|the\s+(?:bit|part|stuff|thing|info|information|details)\s+(?:about|on|"
        r"regarding)|any\s+(?:info|information|mention)\s+(?:of|about)|the\s+fact|please)(?:\s+|$)"
    ),
    trailing=_c(
        r"\s+(?:about\s+me|please|too|as\s+well|for\s+me|now|from\s+(?:your\s+)?memory|info|"
        r"information|details|stuff|data|again)$"
    ),
    favourite=_c(r"\bmy\s+(?:favou?rite|fave|fav)\s+(?P<thing>[\w\s-]+)$"),
    narrowed=(
        (_c(rf"\bmy\s+(?P<w>{REL})\b(?!')"), "family", RELATIVES),
        (_c(rf"\bmy\s+(?P<w>{PET})s?\b(?!')"), "pets", PETS),
        (_c(r"^i\s+(?:like|love|enjoy)\s+(?P<w>.+)"), "likes", {}),
        (_c(r"^i\s+(?:hate|dislike|can't\s+stand)\s+(?P<w>.+)"), "dislikes", {}),
        (_c(r"^i'm\s+allergic\s+to\s+(?P<w>.+)"), "allergies", {}),
    ),
    entries=(
        (
            _c(
                r"\bmy\s+(?:first\s+|full\s+|last\s+|real\s+)?name\b|\bwhat\s+(?:i'm\s+called|to\s+"
                r"call\s+me)|\bwho\s+i\s+am\b"
            ),
            ("name",),
        ),
        (_c(r"\bmy\s+(?:home\s+|postal\s+|street\s+)?address\b"), ("address",)),
        (
            _c(
                r"\bwhere\s+i(?:'m|\s+am)\s+from|\bwhere\s+i\s+come\s+from|\bmy\s+(?:origin|home\s*"
                r"town|nationality)"
            ),
            ("origin", "nationality"),
        ),
        (
            _c(
                r"\bwhere\s+i\s+(?:live|am\s+living|stay|reside|moved)|\bwhere\s+i(?:'m|\s+am)\s+"
                r"(?:living|based)|\bmy\s+(?:location|city|town|country|neighbou?rhood|home)\b"
            ),
            ("location", "address"),
        ),
        (
            _c(
                r"\bwhere\s+i\s+work|\bmy\s+(?:job|work|employer|workplace|company|office|"
                r"profession|occupation|career)\b|\bwhat\s+i\s+do(?:\s+for\s+(?:a\s+)?(?:living|"
                r"work))?\b"
            ),
            ("job", "workplace"),
        ),
        (
            _c(r"\bmy\s+(?:studies|degree|school|university|uni|course)\b|\bwhat\s+i\s+study"),
            ("study",),
        ),
        (
            _c(r"\bmy\s+age\b|\bhow\s+old\s+i\s+am|\bmy\s+birthday|\bmy\s+date\s+of\s+birth"),
            ("age", "birthday"),
        ),
        (_c(r"\bmy\s+(?:phone|mobile|cell|telephone)(?:\s+number)?\b|\bmy\s+number\b"), ("phone",)),
        (_c(r"\bmy\s+e-?mail"), ("email",)),
        (_c(r"\ballerg|\bintoleran"), ("allergies",)),
        (
            _c(
                r"\bhealth|\bmedical|\bmy\s+(?:condition|illness|diagnosis|medications?|meds|"
                r"disability)"
            ),
            (category("health"),),
        ),
        (
            _c(r"\bmy\s+diet\b|\bwhat\s+i\s+(?:eat|don't\s+eat)|\bmy\s+food"),
            ("diet", "eats", "avoids"),
        ),
        (
            _c(r"\bwhat\s+i\s+(?:like|love|enjoy)|\bmy\s+(?:likes|hobbies|hobby|interests)"),
            ("likes",),
        ),
        (_c(r"\bwhat\s+i\s+(?:hate|dislike)|\bmy\s+dislikes"), ("dislikes",)),
        (_c(r"\bmy\s+(?:family|kids|children|relatives)\b"), ("family",)),
        (_c(r"\bmy\s+(?:pets?|animals?)\b"), ("pets",)),
        (_c(r"\bmy\s+(?:car|vehicle|bike|motorbike)|\bwhat\s+i\s+drive"), ("vehicle",)),
        (_c(r"\bmy\s+(?:schedule|routine|shifts?|hours|timetable)"), ("schedule",)),
        (_c(r"\bmy\s+time\s*zone"), ("timezone",)),
        (_c(r"\bmy\s+languages?|\bwhat\s+languages?\s+i\s+speak"), ("languages",)),
        (
            _c(
                r"\bhow\s+i\s+(?:want|like|prefer)|\bmy\s+(?:style|reply|answer|format(?:ting)?)\s+"
                r"preferences?|\bmy\s+preferences"
            ),
            (category("style"),),
        ),
        (_c(r"\bmy\s+relationship"), ("relationship",)),
        (_c(r"\bmy\s+pronouns"), ("pronouns",)),
    ),
    stop=frozenset(
        [
            "it",
            "that",
            "this",
            "my",
            "me",
            "i",
            "about",
            "the",
            "a",
            "an",
            "what",
            "you",
            "told",
            "said",
            "everything",
            "anything",
            "all",
            "please",
            "of",
            "on",
            "to",
            "know",
            "remember",
            "thing",
            "stuff",
            "info",
            "information",
            "from",
            "memory",
        ]
    ),
)

_MEMORY_WORDS = _c(
    r"\b(?:my|me|i|about\s+me|info|information|data|memory|memories|what\s+you\s+know|"
    r"everything|that)\b"
)
_STRONG_FORGET = _c(r"forget|unlearn|(?:don't|do\s+not|stop|no\s+longer)\s+\w+|stop\s+remember")


def _forget(m: re.Match[str], evidence: str) -> list[Op]:
    topic = m.group("t")
    if not _STRONG_FORGET.match(m.group("verb")) and not _MEMORY_WORDS.search(topic):
        return []  # "delete the second paragraph" is about a text, not about memory
    return forget_ops(topic, evidence, TOPICS)


FORGET: tuple[Rule, ...] = (
    rule(
        r"(?:(?:please|pls|kindly|now|ok|okay|also|and)\s*,?\s+|(?:can|could|would|will)\s+you\s+"
        r"(?:please\s+)?|i\s+(?:want|need|would\s+like|'d\s+like)\s+you\s+to\s+)*"
        r"(?P<verb>forget|unlearn|delete|erase|remove|wipe|clear|drop|scrub|purge|"
        r"(?:don't|do\s+not|please\s+don't|stop|no\s+longer)\s+(?:remember|store|keep|save|"
        r"memori[sz]e|record)(?:ing)?|stop\s+remembering)\b\s*(?P<t>[^.!?;\x00]*)",
        _forget,
    ),
)

INDIRECT: tuple[Rule, ...] = (
    rule(
        r"(?:being|as)\s+(?:an?\s+)?(?P<v>[^,;.!?\x00]+?)\s*,"
        r"(?=[^\x00]*?\b(?:i|i'm|i've|i'd|me|my)\b)",
        b.classified(classify),
    ),
    # "As someone with coeliac disease, ...": only ever said of oneself
    rule(
        r"as\s+(?:someone|somebody|a\s+person)\s+(?:who(?:'s|\s+is|\s+has)\s+|with\s+)"
        r"(?P<v>[^,;.!?\x00]+?)\s*,",
        b.classified(classify),
    ),
    # "my diabetes", "my peanut allergy": a possessive that only the user's own fact explains
    rule(rf"\bmy\s+(?P<v>{CONDITION})\b", b.one("health"), anywhere=True),
    rule(
        r"\bmy\s+(?P<v>[\w-]+(?:\s+[\w-]+)?)\s+(?:allergy|intolerance)\b",
        b.many("allergies"),
        anywhere=True,
    ),
)

GRAMMAR = Grammar(
    code="en",
    markers=frozenset(
        [
            "i",
            "my",
            "me",
            "the",
            "and",
            "is",
            "am",
            "to",
            "a",
            "you",
            "in",
            "of",
            "i'm",
            "it's",
            "with",
            "for",
            "please",
            "what",
            "i've",
            "don't",
            "this",
            "that",
            "have",
            "at",
            "like",
            "love",
            "work",
            "live",
            "name",
        ]
    ),
    question=_c(
        r"(?:what|what's|whats|how|how's|why|where|where's|when|who|who's|whom|whose|which|is|"
        r"are|am|was|were|do|does|did|can|could|would|should|shall|will|may|might|must|have|has|"
        r"had|isn't|aren't|doesn't|didn't|won't|wouldn't|couldn't|shouldn't|any|anything|"
        r"anyone|got\s+any)\b"
    ),
    hypothetical=_c(
        r"\b(?:if|suppose|supposing|imagine|imagining|pretend|pretending|assuming|assume|"
        r"hypothetically|theoretically|in\s+theory|let's\s+say|lets\s+say|say\s+(?=i\b)|"
        r"were\s+i|had\s+i|as\s+if|as\s+though|in\s+case|unless|whether|what\s+would)\b"
    ),
    task=_c(
        r"(?:(?:please|pls|kindly|now|ok|okay|so)\s*,?\s+|(?:can|could|would|will)\s+you\s+"
        r"(?:please\s+)?|i\s+(?:want|need|would\s+like|'d\s+like)\s+you\s+to\s+|help\s+me\s+|"
        r"let's\s+)*(?:translate|write|draft|compose|rewrite|rephrase|paraphrase|summari[sz]e|"
        r"proofread|correct|edit|fix|improve|polish|generate|create|make\s+up|produce|tell\s+me|"
        r"say|repeat|spell|pretend|imagine|role-?play|act\s+as|act\s+like|play\s+(?:a|the)|"
        r"simulate|respond\s+to|reply\s+to|answer\s+(?:this|the|my)|remind|convert|turn|"
        r"format\s+(?:this|the|my)|suggest|recommend|find|search|look\s+up|show\s+me|list|"
        r"give\s+me|explain|describe|compare|check|calculate|plan|book|schedule|send|email|"
        r"text|sing|recite|quote|brainstorm|outline|name\s+(?:a|some|\d+)|help)\b"
    ),
    pasted=_c(
        r"\b(?:says?|said|reads?|following|below|this|text|e-?mail|message|letter|line|lines|"
        r"note|paragraph|document|file|poem|story|quote|passage|excerpt|transcript|translate|"
        r"summari[sz]e|rewrite|proofread|review|check)\b"
    ),
    breaks=_c(
        r",|\b(?:and|but|so|or|then|plus|while|whereas|although|though)\b|"
        r"(?P<causal>\b(?:because|since|as|given\s+that|seeing\s+as|now\s+that|cause|'cause)\b)"
    ),
    coordinator=_c(r"and|plus|&|and\s+then|but"),
    first_person=_c(r"(?:i|i'm|i've|i'd|im|we|we're|we've)\b"),
    filler=re.compile(
        r"(?:(?i:hi|hey|hello|hiya|howdy|greetings|ok|okay|oh|ah|um|uh|well|so|and|but|also|"
        r"plus|then|anyway|anyways|btw|fyi|by\s+the\s+way|for\s+the\s+record|just\s+so\s+you\s+"
        r"know|just\s+fyi|yes|yeah|yep|no|nope|sure|right|great|cool|thanks|thank\s+you|sorry|"
        r"oops|whoops|good\s+news|bad\s+news|update|quick\s+update|correction|typo|there|"
        r"one\s+more\s+thing|p\.?s\.?|now|these\s+days|nowadays|fun\s+fact|side\s+note|note|"
        r"actually|honestly|basically|ironically|funnily\s+enough|frankly|seriously|obviously|"
        r"(?:it\s+)?turns\s+out|as\s+it\s+turns\s+out|good\s+to\s+know|update|"
        r"please|pls|kindly|(?:just\s+)?remember(?:\s+that)?|keep\s+in\s+mind(?:\s+that)?|note\s+that|"
        r"for\s+future\s+reference|bear\s+in\s+mind(?:\s+that)?|"
        r"apparently|luckily|unfortunately|fortunately|sadly|currently|recently|personally|"
        r"really|incidentally|lastly|finally|additionally|importantly|alright|all\s+right)\b|"
        r"[a-z]{2,}(?:ally|ously|ently|antly|ively|fully|lessly|ably|ibly|edly|ingly|ately|ually)\b)"
        r"[\s,!:.-]*"
    ),
    forget=FORGET,
    style=STYLE,
    facts=FACTS,
    indirect=INDIRECT,
)
