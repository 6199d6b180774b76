"""Reply-style preferences in English: "keep answers short", "answer in German", "use metric
units", "no emojis please".

A standing preference is told from a one-off request by its framing: a verb about the
conversation itself (reply, answer, talk, switch to), a phrase that makes it standing ("from
now on", "always", "your answers"), or a generic plural object ("give temperatures in
Fahrenheit"). "Translate this into French" or "give me a recipe in metric" are requests.
"""

from __future__ import annotations

import re

from .grammar import FLAGS, Rule, compile_words, op, rule, tidy
from .ops import Op
from .vocab_en import NATURAL_LANGUAGES, PROGRAMMING_LANGUAGES

_LEAD = (
    r"(?P<lead>(?:(?:please|pls|kindly|also|and|now)\s*,?\s+|(?:can|could|would|will)\s+you\s+"
    r"(?:please\s+)?|i\s+(?:want|need|would\s+like|'d\s+like)\s+you\s+to\s+|"
    r"i\s+prefer\s+(?:it\s+)?(?:if|when)\s+you\s+|from\s+now\s+on\s*,?\s+|"
    r"in\s+(?:the\s+)?future\s*,?\s+|going\s+forward\s*,?\s+|always\s+|never\s+|"
    r"(?:do\s+not|don't|dont)\s+(?:ever\s+)?|no\s+more\s+|stop\s+)*)"
)
_VERBS = (
    r"(?P<verb>reply|respond|answer|write|talk|speak|communicate|keep|use|give|show|format|"
    r"put|list|switch|change|stick|avoid|skip|include|be|make|provide|express|display|"
    r"convert|present|structure|limit|address|explain|add|end|start|sign\s+off|measure|"
    r"stop\s+using|quit\s+using)\b"
)
_STRONG_VERBS = frozenset(
    [
        "reply",
        "respond",
        "answer",
        "talk",
        "speak",
        "communicate",
        "switch",
        "change",
        "stick",
        "address",
        "be",
    ]
)
_STRONG = re.compile(
    r"\b(?:from\s+now\s+on|going\s+forward|in\s+(?:the\s+)?future|always|never|every\s+time|"
    r"by\s+default|from\s+here\s+on|no\s+more|(?:all\s+)?your\s+(?:answers|replies|responses|"
    r"messages|explanations|output|code|examples|texts?)|answers|replies|responses|"
    r"(?:talk|speak|write)\s+to\s+me|when(?:ever)?\s+you\s+(?:reply|answer|respond|write))\b",
    FLAGS,
)
_ONE_OFF = re.compile(
    r"\b(?:this|that|these|those|here|below|above|following|attached|today|it|me\s+(?:an?|"
    r"some|the|one|two|three|\d+)|for\s+(?:my|the|this)\s+\w+)\b",
    FLAGS,
)
_GENERIC_PLURAL = re.compile(
    r"\b(?:temperatures|distances|measurements|weights|heights|units|prices|amounts|"
    r"quantities|examples|code|snippets|explanations|recipes|numbers|dates|times|"
    r"lists|summaries|emojis|emoticons|sources)\b",
    FLAGS,
)
_NEGATED = re.compile(
    r"\b(?:don't|dont|do\s+not|never|no|avoid|stop|without|skip|not|less|fewer|hate|dislike|"
    r"can't\s+stand|quit|drop)\b",
    FLAGS,
)
_LANG = re.compile(rf"\b(?:in|into|to)\s+(?P<l>{compile_words(NATURAL_LANGUAGES)})\b", FLAGS)
_PROG = re.compile(
    r"\b(?:code|examples?|snippets?|scripts?|programs?|samples?)\b[^.]*?\bin\s+"
    rf"(?P<p>{compile_words(PROGRAMMING_LANGUAGES)})(?![\w+#])",
    FLAGS,
)
_TEMP = re.compile(r"\b(?P<t>celsius|centigrade|fahrenheit)\b", FLAGS)
_UNITS = re.compile(
    r"\b(?P<u>metric|imperial|kilometers|kilometres|km|miles|kilograms|kilos|kg|pounds|lbs|"
    r"litres|liters|gallons)\b",
    FLAGS,
)
_METRIC = frozenset(
    ["metric", "kilometers", "kilometres", "km", "kilograms", "kilos", "kg", "litres", "liters"]
)
_LENGTH = re.compile(
    r"\b(?P<n>short(?:er)?|brief(?:er)?|concise|succinct|terse|to\s+the\s+point|detailed|"
    r"long(?:er)?|in[- ]depth|thorough|elaborate|verbose|wordy|long-winded|one\s+paragraph|"
    r"a\s+few\s+sentences|one\s+sentence|(?:under|fewer\s+than|less\s+than)\s+\d+\s+words)\b",
    FLAGS,
)
_WORDY = frozenset(["verbose", "wordy", "long-winded", "long", "longer"])
_FORMAT = re.compile(
    r"\b(?P<f>bullet(?:ed)?\s+(?:points|lists?)|bullets|numbered\s+lists?|tables?|markdown|"
    r"plain\s+text|prose|headings|headers|paragraphs|code\s+blocks|step[- ]by[- ]step)\b",
    FLAGS,
)
_EMOJI = re.compile(r"\b(?:emojis?|emoji|emoticons|smileys)\b", FLAGS)
_TONE = re.compile(
    r"\b(?P<t>formal|informal|casual|friendly|professional|polite|direct|blunt|technical|"
    r"non-technical|simple\s+(?:language|words|terms|english)|plain\s+(?:english|language)|"
    r"jargon|sarcasm|sarcastic|humou?r|swearing|profanity|exclamation\s+marks)\b",
    FLAGS,
)


def style_ops(text: str, verb: str, evidence: str, *, declarative: bool = False) -> list[Op]:
    """The reply preferences a directive states, or [] for a one-off request."""
    text = " ".join(text.split())
    strong_phrase = _STRONG.search(text) is not None
    one_off = _ONE_OFF.search(text) is not None
    verb = verb.casefold().split()[0] if verb else ""
    standing = strong_phrase or (
        not one_off
        and (verb in _STRONG_VERBS or declarative or _GENERIC_PLURAL.search(text) is not None)
    )
    if not standing:
        return []
    negated = _NEGATED.search(text) is not None
    found: list[tuple[str, str]] = []
    if m := _PROG.search(text):
        found.append(("code_language", m.group("p")))
    elif m := _LANG.search(text):
        found.append(("reply_language", m.group("l").title()))
    if m := _TEMP.search(text):
        found.append(("temperature_unit", m.group("t").capitalize()))
    elif m := _UNITS.search(text):
        found.append(("units", "metric" if m.group("u").lower() in _METRIC else "imperial"))
    if m := _LENGTH.search(text):
        word = m.group("n").lower()
        if word in _WORDY and negated:
            word = "concise"
        found.append(("reply_length", word))
    if m := _FORMAT.search(text):
        found.append(("reply_format", ("no " if negated else "") + m.group("f").lower()))
    if _EMOJI.search(text):
        found.append(("emoji", "no emojis" if negated else "use emojis"))
    if m := _TONE.search(text):
        found.append(("reply_tone", ("no " if negated else "") + m.group("t").lower()))
    if not found and strong_phrase and not declarative:
        found.append(("reply_style", tidy(evidence).rstrip(".!")))
    return [op("add", slot, value, evidence) for slot, value in found]


def _directive(m: re.Match[str], evidence: str) -> list[Op]:
    text = f"{m.group('lead')} {m.group('verb')} {m.group('rest')}"
    return style_ops(text, m.group("verb"), evidence)


def _stated(m: re.Match[str], evidence: str) -> list[Op]:
    if not re.search(
        r"\b(?:answers|replies|responses|explanations|emojis?|units|metric|imperial|celsius|"
        r"fahrenheit|bullet|you\s+to|when\s+you|if\s+you|it\s+when)\b",
        m.group("rest"),
        FLAGS,
    ):
        return []
    return style_ops(f"{m.group('verb')} {m.group('rest')}", "", evidence, declarative=True)


def _noun_first(m: re.Match[str], evidence: str) -> list[Op]:
    return style_ops(f"{m.group('rest')} from now on", "", evidence, declarative=True)


STYLE: tuple[Rule, ...] = (
    rule(
        r"(?:i|we)(?:\s+|(?='))(?:really\s+|much\s+|would\s+|'d\s+)?(?P<verb>prefer|like|want|need|"
        r"appreciate|hate|dislike|don't\s+like|can't\s+stand)\s+(?P<rest>[^;.!?\x00]*)",
        _stated,
    ),
    rule(_LEAD + _VERBS + r"(?P<rest>[^;.!?\x00]*)", _directive),
    rule(
        r"(?P<rest>(?:no|less|fewer|more|only)\s+[\w\s-]{0,30}?(?:answers|replies|responses|"
        r"emojis?|emoticons|jargon|bullet\s+points|metric|imperial|celsius|fahrenheit)[\w\s-]*?)"
        r"\s*,?\s+(?:please|from\s+now\s+on|going\s+forward|thanks|thank\s+you)\b",
        _noun_first,
    ),
)
