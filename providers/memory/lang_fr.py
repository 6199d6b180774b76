"""French rules: "Je m'appelle Camille et je travaille chez Renault", "Oublie où j'habite"."""

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
    DIETS_FR,
    HEALTH_FR,
    JOBS_FR,
    LANGUAGES_FR,
    PETS_FR,
    RELATIVES_FR,
)

clean = make_cleaner(
    cuts=r"\s+(?:et|mais|car|parce\s+que|donc|qui|que|puisque)\s+(?:je|j'|mon|ma|mes|il|elle|on|"
    r"c'est|nous)\b|\s+(?:car|parce\s+que|mais|donc|puisque)\b|,\s*(?:je|j'|il|elle|c'est|et|"
    r"mais|car|donc|mon|ma|mes)\b|\s+[-–—]\s+|\s+et\s+(?=j'|je\b)",
    trailing=r"maintenant|aussi|depuis\s+\S+|s'il\s+te\s+pla[iî]t|s'il\s+vous\s+pla[iî]t|merci|"
    r"beaucoup|vraiment|actuellement|désormais|en\s+ce\s+moment|plus|d'ailleurs",
    leading=r"le|la|les|l'|du|des|de\s+la|de\s+l'|de|d'",
)
b = Builders(
    clean=clean,
    separators=r"\s*,\s*(?:et\s+|ou\s+)?|\s+(?:et|ou)\s+",
    banned=re.compile(r"(?:ça|cela|ce|tu|vous|te|que|quand|comment|si)\b", FLAGS),
)
REL = intl.words_of(RELATIVES_FR)
PET = intl.words_of(PETS_FR)
LANG = intl.words_of(LANGUAGES_FR)
NAMES = rf"(?P<names>{NAME}(?:\s*(?:,|et)\s*{NAME})*)"
CALLED = r"(?:qui\s+s'appellent|qui\s+s'appelle|nommée?s?|appelée?s?|du\s+nom\s+de)"
_NOT_NAME = re.compile(intl.words_of([*JOBS_FR, *DIETS_FR, *HEALTH_FR, *LANGUAGES_FR]) + "$", FLAGS)


def _name_if_name(m: re.Match[str], evidence: str) -> list[Op]:
    name = m.group("n")
    return [] if _NOT_NAME.match(name) else [op("add", "name", name, evidence)]


FACTS: tuple[Rule, ...] = (
    rule(rf"(?:je\s+)?m'appelle\s+(?P<n>{NAME})", b.one("name", "n")),
    rule(rf"mon\s+(?:pr[ée]nom|nom)\s+(?:est|c'est)\s+(?P<n>{NAME})", b.one("name", "n")),
    rule(rf"(?:appelle-moi|appelez-moi|tu\s+peux\s+m'appeler)\s+(?P<n>{NAME})", b.one("name", "n")),
    rule(r"j'ai\s+(?P<a>\d{1,3})\s+ans\b", lambda m, e: [op("add", "age", m.group("a"), e)]),
    rule(
        r"(?:j'habite|je\s+vis|je\s+réside|nous\s+habitons|on\s+habite)\s+(?:maintenant\s+|"
        r"désormais\s+|actuellement\s+)?(?:à|a|en|au|aux|dans|près\s+de)\s+" + VALUE,
        b.one("location"),
    ),
    rule(
        r"(?:je\s+viens\s+de\s+|je\s+)?(?:d[ée]m[ée]nager|j'ai\s+d[ée]m[ée]nag[ée]|je\s+me\s+suis\s+"
        r"install[ée]e?|je\s+suis\s+install[ée]e?)\s+(?:de\s+\S+\s+)?(?:à|a|en|au)\s+" + VALUE,
        b.one("location"),
    ),
    rule(r"mon\s+(?:nouvelle\s+|nouvel\s+)?adresse\s+(?:est|c'est)\s+" + VALUE, b.one("address")),
    rule(r"ma\s+(?:nouvelle\s+)?adresse\s+(?:est|c'est)\s+" + VALUE, b.one("address")),
    rule(rf"je\s+viens\s+d(?:e\s+|')(?P<v>{NAME})", b.one("origin")),
    rule(r"je\s+travaille\s+(?:maintenant\s+)?(?:comme|en\s+tant\s+que)\s+" + VALUE, b.one("job")),
    rule(
        r"je\s+travaille\s+(?:maintenant\s+)?(?:chez|pour)\s+" + VALUE,
        b.one("workplace", fmt="chez {}"),
    ),
    rule(
        r"je\s+travaille\s+(?:maintenant\s+)?(?:à|a|dans)\s+" + VALUE,
        b.one("workplace", fmt="à {}"),
    ),
    rule(r"j'[ée]tudie\s+" + VALUE, b.one("study")),
    rule(r"je\s+suis\s+(?:très\s+)?allergique\s+(?:à|au|aux|a)\s+" + VALUES, b.many("allergies")),
    rule(r"j'ai\s+une\s+allergie\s+(?:à|au|aux|a)\s+" + VALUES, b.many("allergies")),
    rule(
        r"je\s+suis\s+intol[ée]rante?\s+(?:à|au|aux|a)\s+" + VALUES,
        b.many("allergies", fmt="{} (intolérance)"),
    ),
    rule(
        r"je\s+ne\s+(?:mange|bois)\s+(?:plus|pas|jamais)\s+(?:de\s+|d')?" + VALUES, b.many("avoids")
    ),
    rule(
        r"j'ai\s+(?P<v>du\s+diabète|de\s+l'asthme|l'asthme|de\s+l'épilepsie|des\s+migraines|"
        r"de\s+l'hypertension|la\s+maladie\s+c[oœ]liaque|un\s+cancer)\b",
        b.one("health"),
    ),
    rule(r"je\s+(?:d[ée]teste|hais|ne\s+supporte\s+pas)\s+" + VALUES, b.many("dislikes")),
    rule(r"je\s+n'aime\s+(?:pas|plus|pas\s+du\s+tout)\s+" + VALUES, b.many("dislikes")),
    rule(r"j'(?:aime|adore)\s+(?:beaucoup\s+|bien\s+|vraiment\s+)?" + VALUES, b.many("likes")),
    rule(
        r"(?:mon|ma)\s+(?P<thing>[\w-]+)\s+pr[ée]f[ée]r[ée]e?\s+(?:est|c'est)\s+" + VALUE,
        intl.favourite(clean, b),
    ),
    rule(rf"(?:mon|ma)\s+(?P<rel>{REL})\s+s'appelle\s+(?P<n>{NAME})", intl.family(RELATIVES_FR)),
    rule(
        rf"j'ai\s+(?P<num>un|une|deux|trois|quatre|\d+)\s+(?P<rel>{REL})\b"
        rf"(?:\s*,?\s*{CALLED}\s+{NAMES})?",
        intl.family(RELATIVES_FR),
    ),
    rule(
        rf"j'ai\s+(?:un|une|deux|trois|quatre|\d+)\s+(?P<pet>{PET})s?\b"
        rf"(?:\s*,?\s*(?:{CALLED}\s+)?{NAMES})?",
        intl.pets(PETS_FR),
    ),
    rule(rf"(?:mon|ma)\s+(?P<pet>{PET})\s+s'appelle\s+(?P<n>{NAME})", intl.pets(PETS_FR)),
    rule(r"je\s+parle\s+(?:couramment\s+)?" + VALUES, intl.languages(LANGUAGES_FR, "languages", b)),
    rule(
        r"je\s+suis\s+(?P<neg>plus\s+|pas\s+)?(?:un\s+|une\s+)?" + VALUE,
        intl.predicate([("diet", DIETS_FR), ("health", HEALTH_FR), ("job", JOBS_FR)], clean),
    ),
    rule(rf"je\s+suis\s+(?P<n>{NAME})(?=\s*$|\s*[,.!;]|\s+et\b)", _name_if_name),
)


def _reply_language(m: re.Match[str], evidence: str) -> list[Op]:
    name = LANGUAGES_FR.get(m.group("l").casefold())
    return [op("add", "reply_language", name, evidence)] if name else []


STYLE: tuple[Rule, ...] = (
    rule(
        r"(?:s'il\s+te\s+pla[iî]t,?\s+)?(?:r[ée]ponds|r[ée]pondez|[ée]cris|[ée]crivez|parle|"
        r"parlez)(?:-moi)?\s+(?:moi\s+)?(?:toujours\s+|désormais\s+|dorénavant\s+)*en\s+"
        rf"(?P<l>{LANG})",
        _reply_language,
    ),
    rule(
        r"(?:sois|soyez)\s+(?:plus\s+)?(?P<v>bref|brève|concis|concise|court)",
        lambda m, e: [op("add", "reply_length", m.group("v"), e)],
    ),
    rule(
        r"(?:des\s+)?r[ée]ponses\s+(?P<v>courtes|br[èe]ves|concises|d[ée]taill[ée]es)",
        lambda m, e: [op("add", "reply_length", m.group("v"), e)],
    ),
    rule(
        r"(?:pas\s+d'|sans\s+)[ée]mojis|n'utilise\s+pas\s+d'[ée]mojis",
        lambda m, e: [op("add", "emoji", "no emojis", e)],
    ),
)

TOPICS = TopicTable(
    everything=re.compile(
        r"tout(?:\s+ce\s+que\s+tu\s+sais(?:\s+sur\s+moi)?)?|tout\s+sur\s+moi", FLAGS
    ),
    strip=re.compile(r"^(?:s'il\s+te\s+pla[iî]t|que|ce\s+que\s+je\s+t'ai\s+dit\s+sur)\s+", FLAGS),
    trailing=re.compile(r"\s+(?:s'il\s+te\s+pla[iî]t|stp|aussi)$", FLAGS),
    favourite=re.compile(r"\b(?:mon|ma)\s+(?P<thing>[\w-]+)\s+pr[ée]f[ée]r[ée]e?", FLAGS),
    narrowed=(
        (re.compile(rf"\b(?:mon|ma|mes)\s+(?P<w>{REL})\b", FLAGS), "family", RELATIVES_FR),
        (re.compile(rf"\b(?:mon|ma|mes)\s+(?P<w>{PET})\b", FLAGS), "pets", PETS_FR),
    ),
    entries=(
        (re.compile(r"\bmon\s+(?:pr[ée]nom|nom)\b|\bcomment\s+je\s+m'appelle", FLAGS), ("name",)),
        (
            re.compile(r"\bo[ùu]\s+(?:j'habite|je\s+vis)|\bmon\s+adresse|\bma\s+ville", FLAGS),
            ("location", "address"),
        ),
        (
            re.compile(
                r"\bo[ùu]\s+je\s+travaille|\bmon\s+(?:travail|emploi|m[ée]tier|boulot)", FLAGS
            ),
            ("job", "workplace"),
        ),
        (re.compile(r"\bmon\s+[âa]ge|\bmon\s+anniversaire", FLAGS), ("age", "birthday")),
        (re.compile(r"\bmon\s+num[ée]ro", FLAGS), ("phone",)),
        (re.compile(r"allergi|intol[ée]ran", FLAGS), ("allergies",)),
        (re.compile(r"sant[ée]|m[ée]dical", FLAGS), (category("health"),)),
        (re.compile(r"\bma\s+famille", FLAGS), ("family",)),
        (re.compile(r"\bmes\s+animaux", FLAGS), ("pets",)),
    ),
    stop=frozenset(
        [
            "que",
            "ce",
            "je",
            "t'ai",
            "dit",
            "sur",
            "mon",
            "ma",
            "mes",
            "le",
            "la",
            "les",
            "de",
            "moi",
        ]
    ),
)

FORGET: tuple[Rule, ...] = (
    rule(
        r"(?:s'il\s+te\s+pla[iî]t,?\s+)?(?:oublie|oubliez|efface|effacez|supprime|supprimez|"
        r"ne\s+(?:retiens|retenez|m[ée]morise|garde|gardez)\s+pas)[\s,]+(?P<t>[^.!?;\x00]*)",
        lambda m, e: forget_ops(m.group("t"), e, TOPICS),
    ),
)


def _c(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, FLAGS)


GRAMMAR = Grammar(
    code="fr",
    markers=frozenset(
        [
            "je",
            "j'ai",
            "et",
            "suis",
            "mon",
            "ma",
            "mes",
            "le",
            "les",
            "est",
            "pas",
            "une",
            "des",
            "avec",
            "m'appelle",
            "j'habite",
            "moi",
            "tu",
            "c'est",
            "du",
            "au",
            "je",
            "travaille",
            "chez",
            "aime",
            "oublie",
            "nous",
            "très",
        ]
    ),
    question=_c(
        r"(?:qu'est-ce|quel(?:le)?s?|comment|pourquoi|o[ùu]|quand|qui|combien|"
        r"est-ce\s+que|peux-tu|pouvez-vous|puis-je|y\s+a-t-il|\w+-(?:tu|vous|il|elle|je)\b)"
    ),
    hypothetical=_c(
        r"\b(?:si|s'il|s'ils|imagine|imaginons|imaginez|supposons|suppose|admettons|"
        r"au\s+cas\s+o[ùu]|et\s+si)\b"
    ),
    task=_c(
        r"(?:(?:s'il\s+te\s+pla[iî]t|peux-tu|pouvez-vous)\s*,?\s+)*(?:traduis|traduisez|"
        r"[ée]cris|[ée]crivez|r[ée]dige|r[ée]digez|r[ée]sume|r[ée]sumez|corrige|fais\s+comme\s+si|"
        r"invente|g[ée]n[èe]re|cr[ée]e|raconte|explique|rappelle-moi|donne-moi|sugg[èe]re)\b"
    ),
    pasted=_c(
        r"\b(?:texte|phrase|message|e-?mail|lettre|paragraphe|suivante?s?|ceci|traduis|dit)\b"
    ),
    breaks=_c(r",|\b(?:et|mais|ou|puis|alors)\b|(?P<causal>\b(?:car|parce\s+que|puisque|comme)\b)"),
    coordinator=_c(r"et|mais"),
    first_person=_c(r"(?:je|j'|mon|ma|mes)"),
    filler=_c(
        r"(?:bonjour|salut|coucou|alors|bon|eh\s+bien|au\s+fait|d'ailleurs|en\s+fait|"
        r"enfin|oui|non|ok|d'accord|maintenant|désormais|actuellement|et|mais)\b[\s,!:.-]*"
    ),
    forget=FORGET,
    style=STYLE,
    facts=FACTS,
)
