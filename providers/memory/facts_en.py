"""English fact rules: first-person statements, one family of patterns per kind of fact.

Order matters: at a clause start the first rule that makes ops wins, so the narrower
patterns ("I have a cat allergy") come before the wider ones ("I have a cat").
"""

from __future__ import annotations

import re

from .build import Builders
from .grammar import (
    FLAGS,
    NAME,
    SUBJECT,
    VALUE,
    VALUES,
    Build,
    Rule,
    compile_words,
    make_cleaner,
    op,
    rule,
    tidy,
)
from .ops import Op
from .predicates_en import classify, job_parts
from .topics import favourite_for
from .vocab_en import (
    BUSINESSES,
    CAR_BRANDS,
    CONDITION_PHRASES,
    HOBBIES,
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
    r"again|together|actually|already|myself|personally|i\s+think|i\s+guess|these\s+days|"
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
        r"everything|everyone|anything|nothing|something|someone|somebody|one|your)\b",
        FLAGS,
    ),
)

REL = compile_words([*RELATIVES, *RELATIVE_PLURALS])
PET = compile_words(list(PETS))
PET_NAMES = rf"(?P<names>{NAME}(?:\s*(?:,|and|&)\s*{NAME})*)"
CONDITION = compile_words(CONDITION_PHRASES)
LANG = compile_words(NATURAL_LANGUAGES)
PROG = compile_words(PROGRAMMING_LANGUAGES)
_NOT_A_NAME = frozenset(w.casefold() for w in [*NATIONALITIES, *NATURAL_LANGUAGES])
_BUSINESS = re.compile(rf"\b{compile_words(BUSINESSES)}\b", FLAGS)
_VEHICLE = re.compile(
    rf"^(?:{compile_words(CAR_BRANDS)}\b.*|.*\b{compile_words(VEHICLE_WORDS)})$", FLAGS
)
_RECURRING = re.compile(
    r"\b(?:every|each)\s+\w+|\b(?:on\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun|week)days\b|"
    r"\b(?:on|at)\s+(?:the\s+)?weekends?\b|\bweekends\b|\bnights?\b|\bnight\s+shifts?\b|"
    r"\b(?:early|late)\s+shifts?\b|\bdaily\b|\bweekly\b|\bmornings\b|\bevenings\b|"
    r"\bfrom\s+\d{1,2}(?::\d\d)?\s*(?:am|pm)?\s*(?:to|until|till|-)\s*\d|\b(?:full|part)[- ]time\b|"
    r"\bfrom\s+home\b|\bremotely\b|\bshifts\b|\bmonday\s+to\s+friday\b|"
    r"\bin\s+the\s+(?:mornings?|evenings?|afternoons?)\b|\bat\s+night\b",
    FLAGS,
)
_ONE_OFF_TIME = re.compile(r"\b(?:tomorrow|today|tonight|yesterday|next|this|later|soon)\b", FLAGS)


def _name(m: re.Match[str], evidence: str) -> list[Op]:
    name = tidy(m.group("n"))
    if name.casefold() in _NOT_A_NAME:
        return []
    return [op("add", "name", name, evidence)]


def _correction(m: re.Match[str], evidence: str) -> list[Op]:
    new, old = clean(m.group("new")), clean(m.group("old"))
    if not (b.ok(new, 5) and b.ok(old, 5)) or new.casefold() == old.casefold():
        return []
    return [op("update", None, new, evidence, replaces=old)]


def _age(m: re.Match[str], evidence: str) -> list[Op]:
    age = int(m.group("a"))
    return [op("add", "age", str(age), evidence)] if 3 <= age <= 120 else []


def _place(slot: str) -> Build:
    def build(m: re.Match[str], evidence: str) -> list[Op]:
        value = re.split(r"\s+(?:with|for)\s+", clean(m.group("v")), maxsplit=1)[0]
        prep = " ".join(m.group("p").split()).lower() if "p" in m.re.groupindex else "in"
        if not b.ok(value, 7):
            return []
        return [op("add", slot, value if prep == "in" else f"{prep} {value}", evidence)]

    return build


def _job_phrase(m: re.Match[str], evidence: str) -> list[Op]:
    phrase = clean(m.group("v"))
    found = job_parts(phrase) or ([("job", phrase)] if b.ok(phrase, 6) else [])
    return [op("add", slot, value, evidence) for slot, value in found]


def _workplace(m: re.Match[str], evidence: str) -> list[Op]:
    parts = re.split(r"\s+as\s+(?:an?\s+)?", clean(m.group("v")), maxsplit=1, flags=FLAGS)
    if not b.ok(parts[0], 6):
        return []
    made = [op("add", "workplace", f"{m.group('p').lower()} {parts[0]}", evidence)]
    if len(parts) > 1 and b.ok(parts[1], 5):
        made.append(op("add", "job", parts[1], evidence))
    return made


def _joined(m: re.Match[str], evidence: str) -> list[Op]:
    parts = re.split(r"\s+as\s+(?:an?\s+)?", clean(m.group("v")), maxsplit=1, flags=FLAGS)
    if not b.ok(parts[0], 5):
        return []
    made = [op("add", "workplace", f"at {parts[0]}", evidence)]
    if len(parts) > 1:
        made.extend(op("add", slot, value, evidence) for slot, value in job_parts(parts[1]))
        if len(made) == 1 and b.ok(parts[1], 5):
            made.append(op("add", "job", parts[1], evidence))
    return made


def _teach(m: re.Match[str], evidence: str) -> list[Op]:
    text = clean(m.group("v"))
    parts = re.split(r"\s+(?=(?:at|in|for)\s+(?:an?\s+|the\s+)?[\w'-]+)", text, maxsplit=1)
    if not b.ok(parts[0], 5):
        return []
    made = [op("add", "job", f"teaches {parts[0]}", evidence)]
    if len(parts) > 1:
        made.append(op("add", "workplace", parts[1], evidence))
    return made


def _business(m: re.Match[str], evidence: str) -> list[Op]:
    value = clean(m.group("v"))
    if not _BUSINESS.search(value) or not b.ok(value, 9):
        return []
    return [op("add", "job", f"{m.group('verb').lower()} {value}", evidence)]


def _quit_job(m: re.Match[str], evidence: str) -> list[Op]:
    return [op("retract", "job", "", evidence), op("retract", "workplace", "", evidence)]


def _schedule(m: re.Match[str], evidence: str) -> list[Op]:
    value = clean(re.sub(r"^'m\b", "am", m.group("v")))
    habitual = bool(m.group("habit")) or _RECURRING.search(value) is not None
    if not habitual or _ONE_OFF_TIME.search(value) or len(value.split()) > 12:
        return []
    return [op("add", "schedule", value, evidence)]


def _vehicle(m: re.Match[str], evidence: str) -> list[Op]:
    value = clean(m.group("v"))
    if not _VEHICLE.match(value) or not b.ok(value, 5):
        return []
    return [op("add", "vehicle", value, evidence)]


def _favourite(m: re.Match[str], evidence: str) -> list[Op]:
    thing, value = clean(m.group("thing")), clean(m.group("v"))
    if not b.ok(value, 6) or not thing or len(thing.split()) > 3:
        return []
    return [op("add", favourite_for(thing), value, evidence)]


def _family(m: re.Match[str], evidence: str) -> list[Op]:
    word = " ".join(m.group("rel").lower().split())
    rel = RELATIVES.get(word) or RELATIVE_PLURALS.get(word, word)
    names = m.group("names") if "names" in m.re.groupindex else m.group("n")
    desc = clean(m.group("desc")) if "desc" in m.re.groupindex and m.group("desc") else ""
    if not names:
        num = m.group("num") if "num" in m.re.groupindex else ""
        return [op("add", "family", f"{num} {rel}".strip(), evidence)] if num else []
    made = []
    for name in re.split(r"\s*(?:,|\band\b|&)\s*", names):
        if name and name.casefold() not in _NOT_A_NAME:
            age = m.group("age") if "age" in m.re.groupindex else None
            detail = desc or (f"{age} years old" if age else "")
            value = f"{rel} {name}" + (f" ({detail})" if detail else "")
            made.append(op("add", "family", value, evidence))
    return made


def _pets(m: re.Match[str], evidence: str) -> list[Op]:
    word = " ".join(m.group("pet").lower().split())
    species = PETS.get(word, word)
    desc = " ".join(x for x in [clean(m.group("desc") or ""), word] if x)
    extra = f" ({desc})" if desc != species else ""
    names = m.group("names") if "names" in m.re.groupindex else m.group("n")
    if not names:
        return [op("add", "pets", species + extra, evidence)]
    return [
        op("add", "pets", f"{species} {name}{extra}", evidence)
        for name in re.split(r"\s*(?:,|\band\b|&)\s*", names)
        if name
    ]


def _languages(m: re.Match[str], evidence: str) -> list[Op]:
    made = []
    for item in b.values(m.group("v"), "languages", 5):
        level = re.match(
            r"(a\s+little|a\s+bit\s+of|some|basic|fluent|conversational)\s+", item, FLAGS
        )
        name = item[level.end() :] if level else item
        made.append(
            op("add", "languages", f"{name} ({level.group(1)})" if level else name, evidence)
        )
    return made


def _native(m: re.Match[str], evidence: str) -> list[Op]:
    return [op("add", "languages", f"{m.group('v').title()} (native)", evidence)]


def _attribute(m: re.Match[str], evidence: str) -> list[Op]:
    attr = " ".join(m.group("attr").lower().split())
    value = tidy(m.group("v"))
    if not value or len(value.split()) > 8:
        return []
    slot = _ATTRIBUTE_SLOTS.get(attr.split()[0], _ATTRIBUTE_SLOTS.get(attr))
    if slot == "workplace":
        value = f"at {value}"
    if slot is None:
        return [op("add", None, f"{attr}: {value}", evidence)]
    return [op("add", slot, value, evidence)]


_ATTRIBUTE_SLOTS = {
    "phone": "phone",
    "mobile": "phone",
    "cell": "phone",
    "telephone": "phone",
    "email": "email",
    "e-mail": "email",
    "birthday": "birthday",
    "date of birth": "birthday",
    "birth date": "birthday",
    "pronouns": "pronouns",
    "job": "job",
    "profession": "job",
    "occupation": "job",
    "employer": "workplace",
    "company": "workplace",
    "car": "vehicle",
    "school": "study",
    "university": "study",
    "uni": "study",
    "major": "study",
    "degree": "study",
}
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

FACTS: tuple[Rule, ...] = (
    rule(
        rf"(?:my|our)\s+(?P<attr>{ATTRIBUTES})\s+(?:is|are|'s|=|:)\s+(?P<v>[^,;!?\x00]+?)"
        r"(?=\.\s|\.?\s*$|[,;!?])",
        _attribute,
    ),
    rule(
        r"(?:no,?\s+|sorry,?\s+)?(?:it's|it\s+is|its|it\s+was|that's|that\s+should\s+be|"
        r"i\s+meant|i\s+mean|make\s+that|the\s+correct\s+\w+\s+is)\s+"
        r"(?P<new>[^,;.!?\x00]+?),?\s+not\s+(?P<old>[^,;.!?\x00]+)",
        _correction,
    ),
    rule(r"not\s+(?P<old>[^,;.!?\x00]+?),?\s+but\s+(?P<new>[^,;.!?\x00]+)", _correction),
    rule(
        r"(?:my\s+(?:first\s+|full\s+|real\s+|given\s+)?name(?:\s+is|'s)|name's|"
        r"(?:you\s+can\s+|please\s+|just\s+)?call\s+me|i\s+go\s+by|i'm\s+called|i\s+am\s+called|"
        rf"(?:people|everyone|friends)\s+call\s+me)\s+(?P<n>{NAME})",
        _name,
    ),
    rule(rf"{S}(?:just\s+)?turned\s+(?P<a>\d{{1,3}})\b", _age, subject=I_, elidable=True),
    rule(r"my\s+age\s+is\s+(?P<a>\d{1,3})\b", _age),
    # where
    rule(LIVE + r"\s+at\s+(?P<v>\d+[^,;.!?\x00]*)", b.one("address")),
    rule(
        LIVE + r"\s+(?P<p>in|near|outside(?:\s+of)?|just\s+outside|close\s+to|around)\s+" + VALUE,
        _place("location"),
    ),
    rule(
        MOVE + r"(?:\s+(?:back|house|home|away|over))?(?:\s+from\s+[^,;.!?\x00]+?)?"
        r"\s+(?:to|into)\s+" + VALUE,
        _place("location"),
    ),
    rule(
        r"(?:my|our)\s+(?:new\s+|current\s+|home\s+|postal\s+|street\s+)*address\s+"
        r"(?:is|'s)\s+" + VALUE,
        b.one("address"),
    ),
    rule(
        r"(?:i'm|i\s+am|i\s+come|we're|we\s+come)\s+(?:originally\s+)?from\s+"
        r"(?P<v>(?:the\s+)?(?-i:[A-Z])[^,;.!?\x00]*)",
        b.one("origin", max_words=5),
    ),
    rule(r"(?:my|our)\s+home\s*town\s+is\s+" + VALUE, b.one("origin")),
    rule(
        r"(?:my|our)\s+time\s*zone\s+is\s+(?P<v>[^,;!?\x00]+?)(?=\.\s|\.?\s*$|[,;!?])",
        b.one("timezone", max_words=4),
    ),
    rule(
        IM + r"(?:in|on)\s+(?P<v>(?:UTC|GMT)\s*[+-−]\s*\d{1,2}(?::?\d\d)?|(?-i:[A-Z]{2,5}T)\b|"
        r"[\w ]{3,20}?\s+time\b)",
        b.one("timezone", max_words=4),
    ),
    # work
    rule(
        S + BE + ADV + r"(?:work|working)\s+as\s+(?:an?\s+)?" + VALUE,
        _job_phrase,
        subject=I_,
        elidable=True,
    ),
    rule(
        S + ADV + r"(?:code|program|develop|write\s+code|work)\s+(?:mostly\s+|mainly\s+)?in\s+"
        rf"(?P<v>{PROG}(?![\w+#])(?:\s*(?:,|and|or)\s*{PROG}(?![\w+#]))*)",
        b.many("skills"),
        subject=I_,
        elidable=True,
    ),
    rule(
        S + r"(?P<habit>usually\s+|always\s+|normally\s+|typically\s+|generally\s+|often\s+)?"
        r"(?P<v>(?:work|start\s+work|finish\s+work|get\s+up|wake\s+up|go\s+\w+ing|go\s+to\s+(?:bed|sleep|"
        r"the\s+gym|work|church|school|class)|train|run|swim|commute|have\s+(?:classes|class|"
        r"lectures|meetings|therapy|practice|training)|(?:am|'m)\s+(?:free|off|busy|available)|"
        r"work\s+out|exercise|volunteer|teach)\b[^,;.!?\x00]*)",
        _schedule,
        subject=I_,
        elidable=True,
    ),
    rule(
        S + BE + ADV + r"(?:work|working)\s+(?P<p>at|for|in)\s+" + VALUE,
        _workplace,
        subject=I_,
        elidable=True,
    ),
    rule(
        r"(?:i|we|(?:my|our)\s+[\w-]+(?:\s+"
        + NAME
        + r")?\s+and\s+i|"
        + NAME
        + r"\s+and\s+i)\s+"
        + ADV
        + r"(?P<verb>run|own|manage|co-own|co-run|founded|co-founded|"
        r"started|set\s+up|opened)\s+(?P<v>(?:an?|my|our|the)\s+[^,;.!?\x00]+)",
        _business,
    ),
    rule(
        S + ADV + r"(?:teach|lecture(?:\s+in)?|tutor)\s+" + VALUE, _teach, subject=I_, elidable=True
    ),
    rule(
        S + r"(?:have\s+|'ve\s+)?(?:just\s+)?(?:quit|left|lost|resigned\s+from|retired\s+from|"
        r"(?:was|got)\s+(?:fired|laid\s+off|let\s+go)\s+from)\s+(?:my|the)\s+(?:[\w-]+\s+){0,2}?"
        r"(?:job|position|role|work)\b",
        _quit_job,
        subject=I_,
        elidable=True,
    ),
    rule(
        S + r"(?:have\s+|'ve\s+)?(?:just\s+)?(?:left|quit)\s+(?P<v>(?-i:[A-Z])[\w&.-]*"
        r"(?:\s+(?-i:[A-Z])[\w&.-]*)*)",
        b.retract("workplace"),
        subject=I_,
        elidable=True,
    ),
    rule(
        S + r"(?:have\s+|'ve\s+)?(?:just\s+|recently\s+)?(?:joined|started\s+(?:working\s+)?at|"
        r"got\s+a\s+(?:new\s+)?job\s+at|moved\s+to)\s+(?P<v>(?-i:[A-Z])[^,;.!?\x00]*)",
        _joined,
        subject=I_,
        elidable=True,
    ),
    rule(
        S + r"(?:got|was|have\s+been|'ve\s+been)\s+promoted\s+to\s+(?:an?\s+)?" + VALUE,
        _job_phrase,
        subject=I_,
        elidable=True,
    ),
    rule(
        S + BE + ADV + r"(?:study|studying|major\s+in|majoring\s+in|doing\s+a\s+(?:degree|phd|"
        r"masters?)\s+in)\s+(?!(?:at|in|on|for)\b)" + VALUE,
        b.one("study"),
        subject=I_,
        elidable=True,
    ),
    # food and health
    rule(
        r"(?:i'm|i\s+am|i)\s+" + ADV + r"(?:on|following|follow|doing|do|eat|stick\s+to|"
        r"keep\s+to)\s+(?:an?\s+)?(?:strict\s+|mostly\s+)?(?P<v>[\w\s-]+?)\s+diet\b",
        b.one("diet", max_words=4),
    ),
    rule(S + r"(?:keep|eat)\s+(?P<v>kosher|halal)\b", b.one("diet"), subject=I_, elidable=True),
    rule(
        S + GOT + r"\s+(?:an?\s+)?(?:severe\s+|mild\s+|serious\s+|bad\s+|slight\s+|"
        r"life-threatening\s+)?(?P<v>[\w\s-]+?)\s+(?:allergy|allergies|intolerance)\b",
        b.many("allergies"),
        subject=I_,
        elidable=True,
    ),
    rule(
        S + GOT + r"\s+(?:an?\s+)?(?:allergy|allergies|intolerance)\s+to\s+" + VALUES,
        b.many("allergies"),
        subject=I_,
        elidable=True,
    ),
    rule(r"my\s+allerg(?:y|ies)\s+(?:is|are|include)\s+" + VALUES, b.many("allergies")),
    rule(
        S + r"(?:don't|do\s+not|no\s+longer|never|can't|cannot|can\s+no\s+longer)\s+"
        r"(?:eat|drink|touch|have|consume)\s+" + VALUES,
        b.many("avoids"),
        subject=I_,
        elidable=True,
    ),
    rule(
        S + r"(?:have\s+|'ve\s+)?(?:stopped|quit|given\s+up|gave\s+up|cut\s+out|avoid)\s+"
        r"(?:eating\s+|drinking\s+)" + VALUES,
        b.many("avoids"),
        subject=I_,
        elidable=True,
    ),
    rule(
        S + r"(?:do\s+)?(?:eat|drink)\s+(?P<v>[\w\s-]+?)(?:\s+again)?\s*$",
        b.many("eats", max_words=3),
        subject=I_,
        elidable=True,
    ),
    rule(S + GOT + rf"\s+(?P<v>{CONDITION})\b", b.one("health"), subject=I_, elidable=True),
    rule(
        S + BE + ADV + r"(?:suffer\s+from|live\s+with|living\s+with|"
        r"struggle\s+with|was\s+diagnosed\s+with|'ve\s+been\s+diagnosed\s+with|"
        r"have\s+been\s+diagnosed\s+with|got\s+diagnosed\s+with)\s+" + VALUE,
        b.one("health", max_words=5),
        subject=I_,
        elidable=True,
    ),
    rule(
        S + r"(?:no\s+longer\s+(?:have|own)|don't\s+(?:have|own)|do\s+not\s+(?:have|own))\s+"
        r"(?:an?\s+|my\s+|the\s+|any\s+)?(?P<v>[^,;.!?\x00]+?)\s+any\s*more\b",
        b.retract(None),
        subject=I_,
        elidable=True,
    ),
    rule(
        S + r"no\s+longer\s+(?:have|own)\s+(?:an?\s+|my\s+|the\s+|any\s+)?" + VALUE,
        b.retract(None),
        subject=I_,
        elidable=True,
    ),
    rule(
        S + ADV + r"(?:live|reside)\s+(?P<p>in|near|outside(?:\s+of)?|close\s+to)\s+" + VALUE,
        _place("location"),
        subject=I_,
        elidable=True,
    ),
    rule(
        S + r"(?:grew\s+up|was\s+born(?:\s+and\s+raised)?)\s+in\s+" + VALUE,
        b.one("origin", max_words=5),
        subject=I_,
        elidable=True,
    ),
    rule(
        S + BE + ADV + r"(?:take|taking|on)\s+(?P<v>[\w-]+(?:\s+[\w-]+)?)\s+(?=(?:every|daily|"
        r"each|twice|once|for\s+my|for\s+(?:\w+\s+)?(?:diabetes|asthma|blood|anxiety|"
        r"depression|adhd|pain|epilepsy|migraines?|thyroid|heart))\b)",
        b.one("health", fmt="takes {}", max_words=3),
        subject=I_,
        elidable=True,
    ),
    # tastes
    rule(S + ADV + DISLIKE + r"\s+" + VALUES, b.many("dislikes"), subject=I_, elidable=True),
    rule(
        r"(?:my|our)\s+(?:all[- ]time\s+|absolute\s+|current\s+|new\s+)?(?:favou?rite|fave|fav)"
        r"\s+(?P<thing>[\w\s-]+?)\s+(?:is|are|has\s+to\s+be|would\s+be|will\s+always\s+be)\s+"
        + ADV
        + VALUE,
        _favourite,
    ),
    rule(
        r"(?P<v>[^,;.!?\x00]+?)\s+(?:is|are)\s+(?:definitely\s+|probably\s+)?(?:my|our)\s+"
        r"(?:all[- ]time\s+|absolute\s+|new\s+)?(?:favou?rite|fave)\s+(?P<thing>[\w\s-]+)",
        _favourite,
    ),
    rule(
        S + ADV + rf"(?:support|cheer\s+for|root\s+for)\s+(?P<v>{NAME})",
        b.one("favourite:team"),
        subject=I_,
        elidable=True,
    ),
    rule(
        r"(?:my|our)\s+(?:hobb(?:y|ies)|interests|passions?)\s+(?:is|are|include)\s+" + VALUES,
        b.many("likes"),
    ),
    rule(S + ADV + LIKE + r"\s+" + VALUES, b.many("likes"), subject=I_, elidable=True),
    # people and animals
    rule(
        rf"(?:my|our)\s+(?P<rel>{REL})(?:'s\s+name\s+is|\s+is\s+(?:called|named)|\s+goes\s+by"
        rf"|\s*,?\s+(?:called|named)|\s+is)\s+(?P<n>{NAME})(?=\s*$|\s*[,.;!?]|\s+and\b)",
        _family,
    ),
    rule(
        S + r"(?P<num>an?|one|two|three|four|five|six|\d+)\s+"
        rf"(?P<desc>(?:[\w-]+\s+){{0,3}}?)(?P<rel>{REL})\b\s*,?\s*(?:(?:called|named|whose\s+"
        rf"names?\s+(?:is|are))\s+)?(?P<names>{NAME}(?:\s*(?:,|and|&)\s*{NAME})*)?",
        _family,
        subject=HAVE,
        elidable=True,
    ),
    rule(rf"my\s+(?P<rel>{REL})\s+(?P<n>{NAME})(?=\s+and\s+i\b)", _family, anywhere=True),
    rule(
        S + r"(?:an?|one|two|three|four|five|\d+)\s+"
        rf"(?P<desc>(?:[\w-]+\s+){{0,3}}?)(?P<pet>{PET})(?:e?s)?\b(?:\s*,?\s*(?:(?:called|named|"
        rf"whose\s+names?\s+(?:is|are))\s+)?{PET_NAMES})?",
        _pets,
        subject=HAVE,  # "... and a hamster called Bob" leaves "we have" out
        elidable=True,
    ),
    rule(
        rf"(?:my|our)\s+(?P<rel>{REL})\s+(?P<n>{NAME})\s+is\s+(?P<age>\d{{1,2}})\b"
        r"(?:\s+(?:years?\s+old|months?\s+old))?",
        _family,
    ),
    rule(
        S + BE + ADV + r"(?:play|playing|practi[cs]e|practi[cs]ing)\s+(?:the\s+)?"
        rf"(?P<v>{compile_words(HOBBIES)})\b",
        b.one("likes", fmt="plays {}"),
        subject=I_,
        elidable=True,
    ),
    rule(
        rf"(?:my|our)\s+(?P<desc>(?:[\w-]+\s+){{0,2}}?)(?P<pet>{PET})(?:'s\s+name\s+is|\s+is\s+"
        rf"(?:called|named)|\s+is|\s*,|)\s+(?P<n>{NAME})\b",
        _pets,
    ),
    rule(
        rf"(?:my|our)\s+(?P<v>{PET}(?:\s+{NAME})?)\s+(?:died|passed\s+away|passed|ran\s+away)",
        b.retract("pets"),
    ),
    rule(
        S + BE + ADV + r"(?:speak|can\s+speak|fluent\s+in)\s+"
        rf"(?P<v>{LANG}(?:\s*(?:,|and|&|or|as\s+well\s+as)\s*(?:some\s+|a\s+little\s+|basic\s+|"
        rf"fluent\s+|conversational\s+|a\s+bit\s+of\s+)?{LANG})*)",
        _languages,
        subject=I_,
        elidable=True,
    ),
    rule(
        rf"(?:my|our)\s+(?:first|native|mother)\s+(?:language|tongue)\s+is\s+(?P<v>{LANG})", _native
    ),
    rule(rf"(?P<v>{LANG})\s+is\s+my\s+(?:first|native|mother)\s+(?:language|tongue)", _native),
    rule(IM + ADV + rf"(?:a\s+)?native\s+(?P<v>{LANG})\s+speaker", _native),
    rule(
        IM + ADV + rf"(?:learning|studying)\s+(?P<v>{LANG})",
        b.one("languages", fmt="{} (learning)"),
    ),
    # things
    rule(
        S + ADV + r"(?:drive|ride)\s+(?:an?|my|the)\s+(?:new\s+|old\s+|used\s+)?" + VALUE,
        b.one("vehicle", max_words=5),
        subject=I_,
        elidable=True,
    ),
    rule(
        S + r"(?:have\s+|'ve\s+)?(?:just\s+)?(?:sold|got\s+rid\s+of|gave\s+away|scrapped|"
        r"traded\s+in)\s+(?:my|the|our)\s+(?:old\s+)?" + VALUE,
        b.retract(None),
        subject=I_,
        elidable=True,
    ),
    rule(
        S + r"(?:have\s+|'ve\s+)?(?:just\s+)?(?:bought|got|purchased|leased|own|have)\s+"
        r"(?:myself\s+)?(?:an?|the)\s+(?:new\s+|brand-new\s+|used\s+|second-hand\s+)?" + VALUE,
        _vehicle,
        subject=I_,
        elidable=True,
    ),
    # "I'm X": whatever X is (a diet, a job, an age, a name...)
    rule(
        S + r"(?:have\s+|'ve\s+)?(?:become|became|turned|gone|went|been)\s+" + VALUE,
        b.classified(classify),
        subject=I_,
        elidable=True,
    ),
    rule(
        IM + r"(?P<neg>not\s+(?:an?\s+)?|no\s+longer\s+(?:an?\s+)?)?" + ADV + VALUE,
        b.classified(lambda v: classify(v, allow_name=True), negated="neg"),
    ),
    rule(IM + r"(?:married|engaged)\s+to\s+(?P<n>" + NAME + ")", b.one("family", "n", "spouse {}")),
    # object position: "my doctor put me on a low-salt diet"
    rule(
        r"\b(?:put|has\s+put|switched|moved)\s+me\s+on\s+(?:an?\s+)?(?P<v>[\w\s-]+?)\s+diet\b",
        b.one("diet", max_words=4),
        anywhere=True,
    ),
    rule(
        r"\b(?:took|has\s+taken|taken)\s+me\s+off\s+(?:an?\s+|the\s+|my\s+)?(?P<v>[\w-]+(?:\s+"
        r"[\w-]+)?)(?=\s+(?:diet|and|,)|\s*$|[,.;])",
        b.retract("diet"),
        anywhere=True,
    ),
)
