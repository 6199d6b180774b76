"""English fact rules about their life: food, health, tastes, people, animals, things,
and whatever "I'm X" says."""

from __future__ import annotations

from .builders_en import (
    build_family,
    build_favourite,
    build_gave_up,
    build_languages,
    build_native,
    build_pets,
    build_place,
    build_vehicle,
)
from .en_base import (
    ADV,
    BE,
    CONDITION,
    DISLIKE,
    GOT,
    HAVE,
    I_,
    IM,
    LANG,
    LIKE,
    PET,
    PET_NAMES,
    REL,
    S,
    b,
)
from .grammar import (
    NAME,
    VALUE,
    VALUES,
    Rule,
    compile_words,
    rule,
)
from .predicates_en import classify
from .vocab_en import (
    HOBBIES,
)

LIFE: tuple[Rule, ...] = (
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
        S
        + r"(?:have\s+|'ve\s+)?(?:just\s+)?(?:stopped|quit|given\s+up|gave\s+up|cut\s+out)\s+"
        + VALUE,
        build_gave_up,
        subject=I_,
        elidable=True,
    ),
    rule(
        S + r"(?:have\s+|'ve\s+)?(?:just\s+)?(?:switched|changed|moved|gone|went)\s+(?:over\s+)?"
        r"to\s+" + VALUE,
        b.classified(classify),
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
        build_place("location"),
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
        build_favourite,
    ),
    rule(
        r"(?P<v>[^,;.!?\x00]+?)\s+(?:is|are)\s+(?:definitely\s+|probably\s+)?(?:my|our)\s+"
        r"(?:all[- ]time\s+|absolute\s+|new\s+)?(?:favou?rite|fave)\s+(?P<thing>[\w\s-]+)",
        build_favourite,
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
        build_family,
    ),
    rule(
        S + r"(?P<num>an?|one|two|three|four|five|six|\d+)\s+"
        rf"(?P<desc>(?:[\w-]+\s+){{0,3}}?)(?P<rel>{REL})\b\s*,?\s*(?:(?:called|named|whose\s+"
        rf"names?\s+(?:is|are))\s+)?(?P<names>{NAME}(?:\s*(?:,|and|&)\s*{NAME})*)?",
        build_family,
        subject=HAVE,
        elidable=True,
    ),
    rule(rf"my\s+(?P<rel>{REL})\s+(?P<n>{NAME})(?=\s+and\s+i\b)", build_family, anywhere=True),
    rule(
        S + r"(?:an?|one|two|three|four|five|\d+)\s+"
        rf"(?P<desc>(?:[\w-]+\s+){{0,3}}?)(?P<pet>{PET})(?:e?s)?\b(?:\s*,?\s*(?:(?:called|named|"
        rf"whose\s+names?\s+(?:is|are))\s+)?{PET_NAMES})?",
        build_pets,
        subject=HAVE,  # "... and a hamster called Bob" leaves "we have" out
        elidable=True,
    ),
    rule(
        rf"(?:my|our)\s+(?P<rel>{REL})\s+(?P<n>{NAME})\s+is\s+(?P<age>\d{{1,2}})\b"
        r"(?:\s+(?:years?\s+old|months?\s+old))?",
        build_family,
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
        build_pets,
    ),
    # someone or something gone: whatever fact holds that name is retired
    rule(
        rf"(?P<v>{NAME})\s+" + ADV + r"(?:sadly\s+)?(?:died|passed\s+away|passed|ran\s+away|"
        r"is\s+no\s+longer\s+with\s+us)\b",
        b.retract(None),
    ),
    rule(
        rf"(?:(?P<v>{NAME})\s+and\s+i|we)\s+(?:have\s+|'ve\s+)?(?:broke\s+up|split\s+up|"
        r"separated|divorced|got\s+divorced)\b",
        b.retract(None),
    ),
    rule(
        S + r"(?:have\s+|'ve\s+)?(?:broke\s+up|split\s+up|separated)\s+(?:with|from)\s+"
        rf"(?:my\s+[\w-]+\s+)?(?P<v>{NAME})",
        b.retract(None),
        subject=I_,
        elidable=True,
    ),
    rule(
        rf"(?:my|our)\s+(?P<v>{PET}(?:\s+{NAME})?)\s+(?:died|passed\s+away|passed|ran\s+away)",
        b.retract("pets"),
    ),
    rule(
        S + BE + ADV + r"(?:speak|can\s+speak|fluent\s+in)\s+"
        rf"(?P<v>{LANG}(?:\s*(?:,|and|&|or|as\s+well\s+as)\s*(?:some\s+|a\s+little\s+|basic\s+|"
        rf"fluent\s+|conversational\s+|a\s+bit\s+of\s+)?{LANG})*)",
        build_languages,
        subject=I_,
        elidable=True,
    ),
    rule(
        rf"(?:my|our)\s+(?:first|native|mother)\s+(?:language|tongue)\s+is\s+(?P<v>{LANG})",
        build_native,
    ),
    rule(rf"(?P<v>{LANG})\s+is\s+my\s+(?:first|native|mother)\s+(?:language|tongue)", build_native),
    rule(IM + ADV + rf"(?:a\s+)?native\s+(?P<v>{LANG})\s+speaker", build_native),
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
        build_vehicle,
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
