"""Spanish rules: "Me llamo Diego y tengo un gato que se llama Pelusa", "Olvida mi nombre".

Spanish drops its subject, so the rules take "(yo) vivo en ..." with or without "yo": the
verb form itself is first person.
"""

from __future__ import annotations

import re

from . import intl
from .build import Builders
from .grammar import (
    FLAGS,
    NAME,
    VALUE,
    VALUES,
    Grammar,
    Rule,
    make_cleaner,
    op,
    rule,
)
from .ops import Op
from .topics import TopicTable, category, forget_ops
from .vocab_intl import (
    DIETS_ES,
    HEALTH_ES,
    JOBS_ES,
    LANGUAGES_ES,
    PETS_ES,
    RELATIVES_ES,
)

YO = r"(?:yo\s+)?"
clean = make_cleaner(
    cuts=r"\s+(?:y|e|pero|porque|que|aunque|pues)\s+(?:yo|mi|mis|él|ella|es|tengo|soy|vivo|"
    r"trabajo|me|estoy)\b|\s+(?:porque|pero|aunque)\b|,\s*(?:y|pero|porque|yo|mi|es|que)\b|"
    r"\s+[-–—]\s+",
    trailing=r"ahora|también|ya|desde\s+\S+|por\s+favor|gracias|mucho|muchísimo|actualmente|"
    r"(?:el|la)\s+(?:año|mes|semana)\s+pasad[oa]|hace\s+\S+\s+(?:años|meses|semanas|días)",
    leading=r"el|la|los|las|un|una",
)
b = Builders(
    clean=clean,
    separators=r"\s*,\s*(?:y\s+|o\s+)?|\s+(?:y|e|o)\s+",
    banned=re.compile(r"(?:eso|esto|ello|tú|usted|que|cuando|cómo|si)\b", FLAGS),
)
REL = intl.words_of(RELATIVES_ES)
PET = intl.words_of(PETS_ES)
LANG = intl.words_of(LANGUAGES_ES)
NAMES = rf"(?P<names>{NAME}(?:\s*(?:,|y|e)\s*{NAME})*)"
CALLED = r"(?:que\s+se\s+llaman?|llamad[oa]s?|de\s+nombre)"
_NOT_NAME = re.compile(intl.words_of([*JOBS_ES, *DIETS_ES, *HEALTH_ES, *LANGUAGES_ES]) + "$", FLAGS)


def _name_if_name(m: re.Match[str], evidence: str) -> list[Op]:
    name = m.group("n")
    return [] if _NOT_NAME.match(name) else [op("add", "name", name, evidence)]


FACTS: tuple[Rule, ...] = (
    rule(rf"{YO}me\s+llamo\s+(?P<n>{NAME})", b.one("name", "n")),
    rule(rf"mi\s+nombre\s+es\s+(?P<n>{NAME})", b.one("name", "n")),
    rule(rf"(?:ll[áa]mame|puedes\s+llamarme)\s+(?P<n>{NAME})", b.one("name", "n")),
    rule(YO + r"tengo\s+(?P<a>\d{1,3})\s+años\b", lambda m, e: [op("add", "age", m.group("a"), e)]),
    rule(
        YO + r"(?:vivo|resido)\s+(?:ahora\s+|actualmente\s+)?(?:en|cerca\s+de)\s+" + VALUE,
        b.one("location"),
    ),
    rule(
        YO + r"(?:me\s+(?:acabo\s+de\s+mudar|he\s+mudado|mudé)|me\s+mud[ée])\s+"
        r"(?:de\s+\S+\s+)?a\s+" + VALUE,
        b.one("location"),
    ),
    rule(r"mi\s+(?:nueva\s+)?direcci[óo]n\s+es\s+" + VALUE, b.one("address")),
    rule(YO + rf"soy\s+de\s+(?P<v>{NAME})", b.one("origin")),
    rule(YO + r"trabajo\s+(?:ahora\s+)?(?:como|de)\s+" + VALUE, b.one("job")),
    rule(YO + r"trabajo\s+(?:ahora\s+)?(?:en|para)\s+" + VALUE, b.one("workplace", fmt="en {}")),
    rule(YO + r"estudio\s+" + VALUE, b.one("study")),
    rule(
        YO
        + r"soy\s+(?:muy\s+)?al[ée]rgic[oa]\s+(?:a\s+(?:la\s+|los\s+|las\s+|el\s+)?|al\s+)"
        + VALUES,
        b.many("allergies"),
    ),
    rule(
        YO + r"tengo\s+alergia\s+(?:a\s+(?:la\s+|los\s+|las\s+)?|al\s+)" + VALUES,
        b.many("allergies"),
    ),
    rule(
        YO + r"soy\s+intolerante\s+(?:a\s+la\s+|a\s+|al\s+)" + VALUES,
        b.many("allergies", fmt="{} (intolerancia)"),
    ),
    rule(YO + r"(?:ya\s+)?no\s+(?:como|bebo|tomo)\s+" + VALUES, b.many("avoids")),
    rule(
        YO + r"tengo\s+(?P<v>diabetes|asma|epilepsia|migrañas|hipertensión|celiaquía|cáncer)\b",
        b.one("health"),
    ),
    rule(YO + r"(?:odio|detesto)\s+" + VALUES, b.many("dislikes")),
    rule(
        r"no\s+me\s+(?:gusta|gustan|encanta|encantan)\s+(?:nada\s+)?" + VALUES, b.many("dislikes")
    ),
    rule(
        r"(?:a\s+m[íi]\s+)?me\s+(?:gusta|gustan|encanta|encantan|chifla|chiflan)\s+"
        r"(?:mucho\s+)?" + VALUES,
        b.many("likes"),
    ),
    rule(r"mi\s+(?P<thing>[\w]+)\s+favorit[oa]\s+es\s+" + VALUE, intl.favourite(clean, b)),
    rule(rf"mi\s+(?P<rel>{REL})\s+se\s+llama\s+(?P<n>{NAME})", intl.family(RELATIVES_ES)),
    rule(
        YO + rf"tengo\s+(?P<num>un|una|dos|tres|cuatro|\d+)\s+(?P<rel>{REL})\b"
        rf"(?:\s*,?\s*{CALLED}\s+{NAMES})?",
        intl.family(RELATIVES_ES),
    ),
    rule(
        YO + rf"tengo\s+(?:un|una|dos|tres|cuatro|\d+)\s+(?P<pet>{PET})s?\b"
        rf"(?:\s*,?\s*(?:{CALLED}\s+)?{NAMES})?",
        intl.pets(PETS_ES),
    ),
    rule(rf"mi\s+(?P<pet>{PET})\s+se\s+llama\s+(?P<n>{NAME})", intl.pets(PETS_ES)),
    rule(
        YO + r"hablo\s+(?:con\s+fluidez\s+)?" + VALUES, intl.languages(LANGUAGES_ES, "languages", b)
    ),
    rule(
        YO + r"(?P<neg>ya\s+no\s+|no\s+)?soy\s+(?:un\s+|una\s+)?" + VALUE,
        intl.predicate([("diet", DIETS_ES), ("health", HEALTH_ES), ("job", JOBS_ES)], clean),
    ),
    rule(YO + rf"soy\s+(?P<n>{NAME})(?=\s*$|\s*[,.!;]|\s+y\b)", _name_if_name),
)


def _reply_language(m: re.Match[str], evidence: str) -> list[Op]:
    name = LANGUAGES_ES.get(m.group("l").casefold())
    return [op("add", "reply_language", name, evidence)] if name else []


STYLE: tuple[Rule, ...] = (
    rule(
        r"(?:por\s+favor,?\s+)?(?:resp[óo]ndeme|responde|contesta|cont[ée]stame|escr[íi]beme|"
        rf"h[áa]blame)\s+(?:siempre\s+|a\s+partir\s+de\s+ahora\s+)*en\s+(?P<l>{LANG})",
        _reply_language,
    ),
    rule(
        r"(?:por\s+favor,?\s+)?(?:s[ée]\s+(?:m[áa]s\s+)?(?P<v>breve|conciso|concisa)|"
        r"respuestas\s+(?P<w>cortas|breves))",
        lambda m, e: [op("add", "reply_length", m.group("v") or m.group("w"), e)],
    ),
    rule(r"(?:sin\s+emojis|no\s+uses\s+emojis)", lambda m, e: [op("add", "emoji", "no emojis", e)]),
)

TOPICS = TopicTable(
    everything=re.compile(
        r"todo(?:\s+lo\s+que\s+sabes(?:\s+de\s+m[íi])?)?|todo\s+sobre\s+m[íi]", FLAGS
    ),
    strip=re.compile(r"^(?:por\s+favor|que|lo\s+que\s+te\s+dije\s+(?:de|sobre))\s+", FLAGS),
    trailing=re.compile(r"\s+(?:por\s+favor|también)$", FLAGS),
    favourite=re.compile(r"\bmi\s+(?P<thing>\w+)\s+favorit[oa]", FLAGS),
    narrowed=(
        (re.compile(rf"\bmis?\s+(?P<w>{REL})\b", FLAGS), "family", RELATIVES_ES),
        (re.compile(rf"\bmis?\s+(?P<w>{PET})\b", FLAGS), "pets", PETS_ES),
    ),
    entries=(
        (re.compile(r"\bmi\s+nombre\b|\bc[óo]mo\s+me\s+llamo", FLAGS), ("name",)),
        (
            re.compile(r"\bd[óo]nde\s+vivo|\bmi\s+direcci[óo]n|\bmi\s+ciudad", FLAGS),
            ("location", "address"),
        ),
        (
            re.compile(r"\bd[óo]nde\s+trabajo|\bmi\s+(?:trabajo|empleo|profesi[óo]n)", FLAGS),
            ("job", "workplace"),
        ),
        (re.compile(r"\bmi\s+edad|\bmi\s+cumpleaños", FLAGS), ("age", "birthday")),
        (re.compile(r"\bmi\s+(?:n[úu]mero|tel[ée]fono)", FLAGS), ("phone",)),
        (re.compile(r"alergi|intoleran", FLAGS), ("allergies",)),
        (re.compile(r"salud|m[ée]dic", FLAGS), (category("health"),)),
        (re.compile(r"\bmi\s+familia", FLAGS), ("family",)),
        (re.compile(r"\bmis\s+mascotas|\bmi\s+mascota", FLAGS), ("pets",)),
    ),
    stop=frozenset(
        ["que", "lo", "te", "dije", "de", "sobre", "mi", "mis", "el", "la", "los", "las"]
    ),
)

FORGET: tuple[Rule, ...] = (
    rule(
        r"(?:por\s+favor,?\s+)?(?:olvida|olvide|olv[íi]date\s+de|borra|borre|elimina|"
        r"no\s+recuerdes|no\s+guardes)[\s,]+(?P<t>[^.!?;\x00]*)",
        lambda m, e: forget_ops(m.group("t"), e, TOPICS),
    ),
)


def _c(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, FLAGS)


GRAMMAR = Grammar(
    code="es",
    markers=frozenset(
        [
            "yo",
            "y",
            "soy",
            "mi",
            "mis",
            "el",
            "los",
            "las",
            "es",
            "una",
            "con",
            "tengo",
            "me",
            "llamo",
            "que",
            "por",
            "para",
            "muy",
            "también",
            "se",
            "vivo",
            "trabajo",
            "gusta",
            "olvida",
            "hablo",
            "estoy",
        ]
    ),
    question=_c(
        r"¿|(?:qu[ée]|c[óo]mo|d[óo]nde|cu[áa]ndo|cu[áa]l(?:es)?|qui[ée]n(?:es)?|"
        r"por\s+qu[ée]|cu[áa]nto|puedes|podr[íi]as|hay)\b"
    ),
    hypothetical=_c(
        r"\b(?:si|imagina|imag[íi]nate|supongamos|suponiendo|en\s+caso\s+de|"
        r"fuera|fuese)\b"
    ),
    task=_c(
        r"(?:(?:por\s+favor|puedes|podr[íi]as)\s*,?\s+)*(?:traduce|escribe|redacta|resume|"
        r"corrige|inventa|genera|crea|cuenta|explica|recu[ée]rdame|haz\s+como\s+si|finge|"
        r"dame|sugiere)\b"
    ),
    pasted=_c(r"\b(?:texto|frase|mensaje|correo|carta|p[áa]rrafo|siguiente|esto|traduce|dice)\b"),
    breaks=_c(r",|\b(?:y|e|pero|o|luego)\b|(?P<causal>\b(?:porque|ya\s+que|pues|como)\b)"),
    coordinator=_c(r"y|e|pero"),
    first_person=_c(r"(?:yo|mi|me|soy|tengo|vivo|trabajo)\b"),
    filler=_c(
        r"(?:hola|buenas|bueno|pues|oye|por\s+cierto|de\s+hecho|en\s+realidad|ahora|s[íi]|"
        r"vale|y|pero)\b[\s,!:.-]*"
    ),
    forget=FORGET,
    style=STYLE,
    facts=FACTS,
)
