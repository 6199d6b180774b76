"""English fact rules about the person: name, age, where they live, their work."""

from __future__ import annotations

from .builders_en import (
    build_age,
    build_attribute,
    build_business,
    build_correction,
    build_job_phrase,
    build_joined,
    build_name,
    build_place,
    build_quit_job,
    build_schedule,
    build_teach,
    build_workplace,
)
from .en_base import (
    ADV,
    ATTRIBUTES,
    BE,
    I_,
    IM,
    LIVE,
    MOVE,
    PROG,
    S,
    b,
)
from .grammar import (
    NAME,
    VALUE,
    Rule,
    rule,
)

SELF: tuple[Rule, ...] = (
    rule(
        rf"(?:my|our)\s+(?P<attr>{ATTRIBUTES})\s+(?:is|are|'s|=|:)\s+(?P<v>[^,;!?\x00]+?)"
        r"(?=\.\s|\.?\s*$|[,;!?])",
        build_attribute,
    ),
    rule(
        r"(?:no,?\s+|sorry,?\s+)?(?:it's|it\s+is|its|it\s+was|that's|that\s+should\s+be|"
        r"i\s+meant|i\s+mean|make\s+that|the\s+correct\s+\w+\s+is)\s+"
        r"(?P<new>[^,;.!?\x00]+?),?\s+not\s+(?P<old>[^,;.!?\x00]+)",
        build_correction,
    ),
    rule(r"not\s+(?P<old>[^,;.!?\x00]+?),?\s+but\s+(?P<new>[^,;.!?\x00]+)", build_correction),
    rule(
        r"(?:my\s+(?:first\s+|full\s+|real\s+|given\s+)?name(?:\s+is|'s)|name's|"
        r"(?:you\s+can\s+|please\s+|just\s+)?call\s+me|i\s+go\s+by|i'm\s+called|i\s+am\s+called|"
        rf"(?:people|everyone|friends)\s+call\s+me)\s+(?P<n>{NAME})",
        build_name,
    ),
    rule(rf"{S}(?:just\s+)?turned\s+(?P<a>\d{{1,3}})\b", build_age, subject=I_, elidable=True),
    rule(r"my\s+age\s+is\s+(?P<a>\d{1,3})\b", build_age),
    # where
    rule(LIVE + r"\s+at\s+(?P<v>\d+[^,;.!?\x00]*)", b.one("address")),
    rule(
        LIVE + r"\s+(?P<p>in|near|outside(?:\s+of)?|just\s+outside|close\s+to|around)\s+" + VALUE,
        build_place("location"),
    ),
    rule(
        MOVE + r"(?:\s+(?:back|house|home|away|over))?(?:\s+from\s+[^,;.!?\x00]+?)?"
        r"\s+(?:to|into)\s+" + VALUE,
        build_place("location", somewhere=True),
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
        build_job_phrase,
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
        r"work\s+out|exercise|volunteer|teach|study)\b[^,;.!?\x00]*)",
        build_schedule,
        subject=I_,
        elidable=True,
    ),
    rule(
        S + BE + ADV + r"(?:work|working)\s+(?P<p>at|for|in)\s+" + VALUE,
        build_workplace,
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
        build_business,
    ),
    rule(
        S + ADV + r"(?:teach|lecture(?:\s+in)?|tutor)\s+" + VALUE,
        build_teach,
        subject=I_,
        elidable=True,
    ),
    rule(
        S + r"(?:have\s+|'ve\s+)?(?:just\s+)?(?:quit|left|lost|resigned\s+from|retired\s+from|"
        r"(?:was|got)\s+(?:fired|laid\s+off|let\s+go)\s+from)\s+(?:my|the)\s+(?:[\w-]+\s+){0,2}?"
        r"(?:job|position|role|work)\b",
        build_quit_job,
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
        build_joined,
        subject=I_,
        elidable=True,
    ),
    rule(
        S + r"(?:got|was|have\s+been|'ve\s+been)\s+promoted\s+to\s+(?:an?\s+)?" + VALUE,
        build_job_phrase,
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
)
