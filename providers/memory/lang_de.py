"""German rules: "Ich heiße Lukas und wohne in Stuttgart", "Vergiss meinen Namen"."""

from __future__ import annotations

import re

from . import intl
from .build import Builders
from .grammar import (
    FLAGS,
    NAME,
    SUBJECT,
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
    DIETS_DE,
    HEALTH_DE,
    JOBS_DE,
    LANGUAGES_DE,
    PETS_DE,
    RELATIVES_DE,
)

S = SUBJECT  # where the subject goes in elidable rules
ICH = r"ich\s+"
clean = make_cleaner(
    cuts=r"\s+(?:und|aber|weil|da|denn|oder)\s+(?:ich|mein|meine|wir|er|sie|es|du)\b|"
    r"\s+(?:weil|denn|aber|obwohl)\b|\s+[-–—]\s+|,\s*(?:ich|es|das|der|die|und|aber|weil|da|"
    r"wenn|mein|meine|denn)\b|\s+und\s+(?-i:[a-zäöüß]+e)\b",
    trailing=r"jetzt|mehr|auch|bitte|übrigens|schon|gerade|momentan|zurzeit|derzeit|"
    r"seit\s+\S+(?:\s+(?:jahren|monaten|wochen))?|letzte\s+woche|nicht\s+mehr|gerne?|sehr",
)
b = Builders(
    clean=clean,
    separators=r"\s*,\s*(?:und\s+|oder\s+)?|\s+(?:und|oder|sowie)\s+",
    banned=re.compile(r"(?:es|das|dich|sie|ihn|ihr|euch|dass|wenn|wie|was)\b", FLAGS),
)
REL = intl.words_of(RELATIVES_DE)
PET = intl.words_of(PETS_DE)
LANG = intl.words_of(LANGUAGES_DE)
NAMES = rf"(?P<names>{NAME}(?:\s*(?:,|und)\s*{NAME})*)"
_NOT_NAME = re.compile(
    rf"(?:{intl.words_of([*JOBS_DE, *DIETS_DE, *HEALTH_DE])}|\w+(?:in|ung|heit|keit|ist|ent))$",
    FLAGS,
)


def _name_if_name(m: re.Match[str], evidence: str) -> list[Op]:
    name = m.group("n")
    return [] if _NOT_NAME.match(name) else [op("add", "name", name, evidence)]


def _like(m: re.Match[str], evidence: str) -> list[Op]:
    value = m.group("v")
    negative = re.search(r"\s+(?:gar\s+)?nicht(?:\s+so)?(?:\s+gerne?)?\s*$", value, FLAGS)
    if negative:
        value = value[: negative.start()]
    slot = "dislikes" if negative else "likes"
    return [op("add", slot, v, evidence) for v in b.values(value, slot, 6)]


def _workplace(m: re.Match[str], evidence: str) -> list[Op]:
    place, _, job = clean(m.group("v")).partition(" als ")
    made = [op("add", "workplace", f"{m.group('p')} {place}", evidence)] if b.ok(place, 6) else []
    if made and b.ok(job.strip(), 4):
        made.append(op("add", "job", job.strip(), evidence))
    return made


def _place(m: re.Match[str], evidence: str) -> list[Op]:
    value = clean(m.group("v"))
    if not b.ok(value, 6):
        return []
    return [op("add", "address" if re.search(r"\d", value) else "location", value, evidence)]


FACTS: tuple[Rule, ...] = (
    rule(r"(?:ich\s+)?heiße\s+(?P<n>" + NAME + ")", b.one("name", "n")),
    rule(r"mein\s+(?:vor)?name\s+ist\s+(?P<n>" + NAME + ")", b.one("name", "n")),
    rule(r"(?:nenn(?:e|t)?\s+mich|du\s+kannst\s+mich)\s+(?P<n>" + NAME + ")", b.one("name", "n")),
    rule(
        r"ich\s+bin\s+(?P<a>\d{1,3})(?:\s+jahre(?:\s+alt)?)?\s*(?:$|[,.!])",
        lambda m, e: [op("add", "age", m.group("a"), e)],
    ),
    rule(
        S + r"(?:wohne|lebe)\s+(?:jetzt\s+|seit\s+\S+\s+|inzwischen\s+|mittlerweile\s+|"
        r"derzeit\s+|zurzeit\s+|momentan\s+)*(?:in|bei|nahe|im|am)\s+" + VALUE,
        _place,
        subject=ICH,
        elidable=True,
    ),
    rule(
        r"(?:ich\s+bin|wir\s+sind)\s+(?:\S+\s+){0,3}?(?:von\s+\S+\s+)?nach\s+(?P<v>[^,;.!?\x00]+?)"
        r"\s+(?:gezogen|umgezogen)",
        _place,
    ),
    rule(r"meine\s+(?:neue\s+)?adresse\s+(?:ist|lautet)\s+" + VALUE, b.one("address")),
    rule(
        S + r"komme\s+(?:ursprünglich\s+)?aus\s+" + VALUE,
        b.one("origin"),
        subject=ICH,
        elidable=True,
    ),
    rule(
        S + r"arbeite\s+(?:jetzt\s+|seit\s+\S+\s+)?als\s+" + VALUE,
        b.one("job"),
        subject=ICH,
        elidable=True,
    ),
    rule(
        S + r"arbeite\s+(?:jetzt\s+|seit\s+\S+\s+)?(?P<p>bei|für|in|an|im)\s+" + VALUE,
        _workplace,
        subject=ICH,
        elidable=True,
    ),
    rule(S + r"studiere\s+" + VALUE, b.one("study"), subject=ICH, elidable=True),
    rule(
        r"ich\s+(?:bin|reagiere)\s+(?:\w+\s+)?allergisch\s+(?:gegen|auf)\s+" + VALUES,
        b.many("allergies"),
    ),
    rule(r"ich\s+bin\s+gegen\s+(?P<v>[^,;.!?\x00]+?)\s+allergisch\b", b.many("allergies")),
    rule(r"ich\s+habe\s+eine\s+(?P<v>\w+?)-?allergie\b", b.many("allergies")),
    rule(r"ich\s+habe\s+eine\s+allergie\s+gegen\s+" + VALUES, b.many("allergies")),
    rule(r"ich\s+bin\s+(?P<v>\w+?)-?intolerant\b", b.many("allergies", fmt="{} (intolerant)")),
    rule(r"ich\s+ernähre\s+mich\s+(?P<v>\w+)", b.one("diet")),
    rule(
        S + r"(?:esse|trinke)\s+(?:kein(?:e|en)?|nie)\s+" + VALUES,
        b.many("avoids"),
        subject=ICH,
        elidable=True,
    ),
    rule(
        S + r"habe\s+(?P<v>diabetes|asthma|epilepsie|migräne|rheuma|zöliakie|bluthochdruck|"
        r"depressionen|adhs|krebs|multiple\s+sklerose)\b",
        b.one("health"),
        subject=ICH,
        elidable=True,
    ),
    rule(S + r"(?:hasse|verabscheue)\s+" + VALUES, b.many("dislikes"), subject=ICH, elidable=True),
    rule(r"ich\s+kann\s+(?P<v>[^,;.!?\x00]+?)\s+nicht\s+(?:ausstehen|leiden)", b.many("dislikes")),
    rule(
        S + r"(?-i:[a-zäöüß]+e)\s+(?:sehr\s+|total\s+|besonders\s+)?gerne?\s+" + VALUES,
        b.many("likes"),
        subject=ICH,
        elidable=True,
    ),
    rule(
        S + r"mag\s+(?:gar\s+)?kein(?:e|en)?\s+" + VALUES,
        b.many("dislikes"),
        subject=ICH,
        elidable=True,
    ),
    rule(
        S + r"(?:liebe|mag)\s+(?:sehr\s+|total\s+|besonders\s+)?" + VALUES,
        _like,
        subject=ICH,
        elidable=True,
    ),
    rule(
        r"mein(?:e|en)?\s+lieblings(?P<thing>\w+)\s+(?:ist|sind)\s+" + VALUE,
        intl.favourite(clean, b),
    ),
    rule(rf"mein(?:e)?\s+(?P<rel>{REL})\s+heißt\s+(?P<n>{NAME})", intl.family(RELATIVES_DE)),
    rule(
        S + rf"habe\s+(?P<num>einen|eine|ein|zwei|drei|vier|\d+)\s+(?P<rel>{REL})\b"
        rf"(?:\s*,?\s*(?:(?:der|die|namens)\s+)?{NAMES}(?:\s+hei(?:ß|ss)(?:t|en))?)?",
        intl.family(RELATIVES_DE),
        subject=ICH,
        elidable=True,
    ),
    rule(
        S + rf"(?:habe|haben)\s+(?:einen|eine|ein|zwei|drei|vier|\d+)\s+(?P<pet>{PET})\b"
        rf"(?:\s*,?\s*(?:(?:der|die|das|namens)\s+)?{NAMES}(?:\s+hei(?:ß|ss)(?:t|en))?)?",
        intl.pets(PETS_DE),
        subject=r"(?:ich|wir)\s+",
        elidable=True,
    ),
    rule(rf"mein(?:e)?\s+(?P<pet>{PET})\s+heißt\s+(?P<n>{NAME})", intl.pets(PETS_DE)),
    rule(
        S + r"spreche\s+(?:fließend\s+)?" + VALUES,
        intl.languages(LANGUAGES_DE, "languages", b),
        subject=ICH,
        elidable=True,
    ),
    rule(
        r"ich\s+bin\s+(?P<neg>nicht\s+mehr\s+|kein(?:e)?\s+)?(?:(?:jetzt|auch|schon|seit\s+\S+|"
        r"strenger?|strikte?r?|überzeugter?|inzwischen|mittlerweile)\s+)*(?:von\s+beruf\s+)?"
        + VALUE,
        intl.predicate([("diet", DIETS_DE), ("health", HEALTH_DE), ("job", JOBS_DE)], clean),
    ),
    rule(r"ich\s+bin\s+(?P<n>" + NAME + r")(?=\s*$|\s*[,.!;]|\s+und\b)", _name_if_name),
)


def _reply_language(m: re.Match[str], evidence: str) -> list[Op]:
    name = LANGUAGES_DE.get(m.group("l").casefold())
    return [op("add", "reply_language", name, evidence)] if name else []


STYLE: tuple[Rule, ...] = (
    rule(
        r"(?:bitte\s+)?(?:antworte|antworten\s+sie|schreib|schreibe|schreiben\s+sie|sprich|"
        r"sprechen\s+sie|rede)\s+(?:mir\s+|mit\s+mir\s+)?(?:bitte\s+)?(?:ab\s+jetzt\s+|immer\s+|"
        rf"künftig\s+|in\s+zukunft\s+)*(?:auf|in)\s+(?P<l>{LANG})",
        _reply_language,
    ),
    rule(
        r"(?:bitte\s+)?(?:antworte|halte\s+dich|fasse\s+dich|schreib|antworten\s+sie)\s+"
        r"(?:bitte\s+)?(?:ab\s+jetzt\s+|immer\s+)*(?P<v>kurz|knapp|kürzer|ausführlich)",
        b.one("reply_length"),
    ),
    rule(
        r"(?:bitte\s+)?(?:keine|ohne)\s+(?:emojis|emoticons)",
        lambda m, e: [op("add", "emoji", "no emojis", e)],
    ),
)

TOPICS = TopicTable(
    everything=re.compile(
        r"alles(?:\s+über\s+mich)?|alles,?\s+was\s+du\s+(?:über\s+mich\s+)?"
        r"weißt|mich",
        FLAGS,
    ),
    strip=re.compile(r"^(?:bitte|dass|das|was\s+ich\s+dir\s+über|über)\s+", FLAGS),
    trailing=re.compile(r"\s+(?:bitte|wieder|auch|gesagt\s+habe|erzählt\s+habe)$", FLAGS),
    favourite=re.compile(r"\bmein(?:e|en)?\s+lieblings(?P<thing>\w+)", FLAGS),
    narrowed=(
        (re.compile(rf"\bmein(?:e|en)?\s+(?P<w>{REL})\b", FLAGS), "family", RELATIVES_DE),
        (re.compile(rf"\bmein(?:e|en)?\s+(?P<w>{PET})\b", FLAGS), "pets", PETS_DE),
    ),
    entries=(
        (re.compile(r"\bmeinen\s+(?:vor)?namen\b|\bwie\s+ich\s+heiße", FLAGS), ("name",)),
        (
            re.compile(r"\bwo\s+ich\s+(?:wohne|lebe)|\bmeine\s+adresse|\bmeinen\s+wohnort", FLAGS),
            ("location", "address"),
        ),
        (
            re.compile(
                r"\bwo\s+ich\s+arbeite|\bmeinen\s+(?:job|beruf|arbeitgeber|arbeitsplatz)|"
                r"\bmeine\s+arbeit",
                FLAGS,
            ),
            ("job", "workplace"),
        ),
        (
            re.compile(r"\bmein\s+alter|\bwie\s+alt\s+ich\s+bin|\bmeinen\s+geburtstag", FLAGS),
            ("age", "birthday"),
        ),
        (re.compile(r"\bmeine\s+(?:telefon|handy)?nummer", FLAGS), ("phone",)),
        (re.compile(r"\bmeine\s+e-?mail", FLAGS), ("email",)),
        (re.compile(r"allergi|unverträglich", FLAGS), ("allergies",)),
        (re.compile(r"gesundheit|krankheit|medizinisch", FLAGS), (category("health"),)),
        (re.compile(r"\bmein(?:e|en)?\s+(?:haustier|tiere?)", FLAGS), ("pets",)),
        (re.compile(r"\bmeine\s+familie", FLAGS), ("family",)),
    ),
    stop=frozenset(
        [
            "bitte",
            "das",
            "dass",
            "was",
            "mein",
            "meine",
            "meinen",
            "meiner",
            "über",
            "mich",
            "dir",
            "ich",
        ]
    ),
)

FORGET: tuple[Rule, ...] = (
    rule(
        r"(?:bitte\s+)?(?:vergiss|vergessen\s+sie|lösche|lösch|entferne|streiche)[\s,]+"
        r"(?:bitte\s+)?(?P<t>[^.!?;\x00]*)",
        lambda m, e: forget_ops(m.group("t"), e, TOPICS),
    ),
    rule(
        r"(?:bitte\s+)?(?:merk|merke|speichere|speicher)\s+(?:dir\s+)?(?P<t>[^.!?;\x00]*?)\s+"
        r"(?:bitte\s+)?nicht\b",
        lambda m, e: forget_ops(m.group("t"), e, TOPICS),
    ),
)


def _c(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, FLAGS)


GRAMMAR = Grammar(
    code="de",
    markers=frozenset(
        [
            "ich",
            "und",
            "bin",
            "mein",
            "meine",
            "meinen",
            "ist",
            "der",
            "die",
            "das",
            "nicht",
            "mit",
            "wohne",
            "heiße",
            "habe",
            "auf",
            "bitte",
            "ein",
            "eine",
            "mich",
            "mir",
            "du",
            "sehr",
            "auch",
            "aus",
            "als",
            "bei",
            "für",
            "mag",
            "liebe",
            "vergiss",
            "arbeite",
            "wir",
            "sind",
        ]
    ),
    question=_c(
        r"(?:wer|was|wo|wann|wie|warum|wieso|weshalb|welche[rsmn]?|woher|wohin|womit|"
        r"kann|kannst|könnte|könntest|können|ist|sind|hast|hat|haben|gibt|soll|sollte|"
        r"würde|würdest|darf|muss|bist)\b"
    ),
    hypothetical=_c(
        r"\b(?:wenn|falls|angenommen|stell\s+dir\s+vor|stellen\s+sie\s+sich\s+vor|"
        r"nehmen\s+wir\s+an|ob|als\s+ob|hypothetisch|theoretisch)\b"
    ),
    task=_c(
        r"(?:(?:bitte|kannst\s+du|könntest\s+du)\s+)*(?:übersetze|übersetz|schreib|schreibe|"
        r"verfasse|formuliere|fasse|erzähl|erzähle|erkläre|erstelle|generiere|tu\s+so|"
        r"stell\s+dir|erinnere|korrigiere|nenne|gib\s+mir|zeig|zeige|empfiehl|schlag)\b"
    ),
    pasted=_c(
        r"\b(?:text|satz|sätze|nachricht|e-?mail|brief|absatz|folgende[ns]?|dies(?:e|en)?|"
        r"übersetze|schreibt|steht)\b"
    ),
    breaks=_c(r",|\b(?:und|aber|oder|sondern|doch|dann)\b|(?P<causal>\b(?:weil|da|denn|zumal)\b)"),
    coordinator=_c(r"und|aber|sondern"),
    first_person=_c(r"(?:ich|mein|meine|meinen)\b"),
    filler=_c(
        r"(?:hallo|hi|hey|moin|servus|guten\s+(?:tag|morgen|abend)|also|übrigens|"
        r"ach\s+ja|ach|na\s+ja|ja|nein|eigentlich|nebenbei|btw|ok|okay|gut|außerdem|und|"
        r"aber|tatsächlich|mittlerweile|inzwischen|jetzt|nun|zur\s+info)\b[\s,!:.-]*"
    ),
    forget=FORGET,
    style=STYLE,
    facts=FACTS,
)
