"""The statement reader's part for one clause: whether it is about the user, what it adds
(its slot and words) and what it retires, and the questions asked of it on the way (a
question without its question mark, a verbless self-description, a change that still tells
what holds now)."""

from __future__ import annotations

import re

from .categories import category_of
from .change_patterns import ENDING, NO_LONGER, NO_MORE, NOT_X
from .clause_patterns import (
    ADVICE,
    ASIDE,
    FAVOURITE,
    FINITE,
    FREQUENT_VERB,
    REACTION,
    STYLE_SAID,
    TIME_NAMED,
    WORD,
    content_words,
)
from .ops import Op
from .reading import ReaderBase, endings
from .remark_patterns import CARE_SAYS, LASTING_DESPITE_PLANS, PRONOUN, THANKS
from .style_aspects import style_aspect_of
from .subject_patterns import (
    ADVERBS,
    AS_ROLE,
    DROPPED_I_HAVING,
    DROPPED_MY,
    MINE,
    MY_PEOPLE,
    NAME_INTRO,
    NAMED_ME,
    ONE_WHO,
    OTHER_PEOPLE,
    REPORTED,
    SELF_AS_PERSON,
    SELF_INTRO,
    SET_TO,
    SOMEONE_ELSE,
    USER_SUBJECT,
    YOURS,
)
from .talk_patterns import AT_HAND, BECAUSE_FIRST, NOT_SO, ONE_THING, VERDICT_FRAME, WHEN_FIRST
from .time_patterns import DATED_END, PASSING, PLAN, momentary

_CLEFT = re.compile(r"(?:what|where|who)\s+(?:i|we)\s+[^,?]*?\s(?:is|was|are)\s+\w", re.I)
_WORD_START = re.compile(r"(?<![\w'’])[\w'’-]+")
# The subject pronouns of the languages whose subject a fronted phrase can move.
_PRONOUN_SUBJECT = re.compile(r"(?:ich|wir|je|j['’]|nous|yo|io|eu|ik|wij|we)\b", re.I)
# A conjunction that opens a clause within the clause: what follows is subordinate.
_SUBORDINATE = re.compile(
    r"\b(?:dass|wenn|ob|weil|als|falls|que|qu['’]|quand|si|lorsque|parce|cuando|porque|"
    r"aunque|se|quando|perché|dat|of|omdat|wanneer)\b",
    re.IGNORECASE,
)

HAD_KINDS = frozenset({"health", "allergy", "diet", "pets", "family"})


def _of_a_trade(clause: str) -> bool:
    """ "Nurses work long shifts", "Vets charge a fortune here": said of all of a trade, by
    its name in the plural as the subject, not of the user."""
    head = WORD.match(clause)
    if head is None or len(WORD.findall(clause)) < 3:
        return False
    word = head.group()
    singular = re.sub(r"(?<=[^s])s$", "", word)
    # A person of a trade, by the endings its names take ("nurse", "vet", not "shift").
    agent = re.search(r"(?:er|or|ist|ian|ant|ent|ee|ic|se|et|ev|ef|ok|ot|on|man)$", singular)
    found = category_of(singular) if singular != word and agent else None
    return found is not None and found.slot == "work"


def of_a_role(clause: str) -> bool:
    """ "My supplier just raised prices", "The recruiter told me…": the subject is someone
    the user knows by their trade (a name of a trade, by its endings, after "my", "our" or
    "the", doing what only a person does), not the user, nor the user's family."""
    head = _ROLE_HOLDER.match(clause)
    if head is None or MY_PEOPLE.match(clause) or not _AGENT.search(head["role"]):
        return False
    found = category_of(f"I'm a {head['role']}")
    return found is not None and found.slot == "work"


# A person's title, then a verb only a person does: wanting, saying, asking, sending.
_ROLE_HOLDER = re.compile(
    r"(?:one of )?(?:my|our|the)\s+(?P<role>[\w-]+(?:\s+[\w-]+)??)"
    r"(?:\s+(?:at|on|from|of|in)\s+(?:the|my|our|a)\s+[\w-]+)?\s+(?:just\s+|always\s+)?"
    r"(?:wants?|wanted|insists?|insisted|told|tells|says|said|asked|asks|thinks|thought|"
    r"expects|needs|sent|emailed|called|texted|messaged|raised|keeps|hates|loves)\b",
    re.IGNORECASE,
)
# The endings of the names of people by what they do ("editor", "supplier", "recruiter").
_AGENT = re.compile(r"(?:er|or|ist|ian|ant|ent|ee|ic|man|woman)s?$", re.IGNORECASE)


class Clauses(ReaderBase):
    """One clause: whose it is and what it adds."""

    def about_user(self, clause: str) -> bool:
        clause = WHEN_FIRST.sub("", clause)  # "Last weekend I joined a mentorship program"
        clause = BECAUSE_FIRST.sub("", clause)
        if _of_a_trade(clause):
            return False
        if any(p.search(clause) for p in (SELF_INTRO, NAME_INTRO, SET_TO, NAMED_ME)):
            return True
        if self.in_role(clause):
            return True
        if OTHER_PEOPLE.match(clause) and not SELF_AS_PERSON.search(clause):
            return False
        if DROPPED_I_HAVING.match(clause) and self.slot_of(clause) in HAD_KINDS:
            return True
        verbs = self.lang.opens["first_person_verbs"]
        if USER_SUBJECT.match(clause) is not None or (
            verbs is not None
            and verbs.match(re.sub(ADVERBS, "", clause, count=1, flags=re.I)) is not None
        ):
            return True
        if self.fronted_subject(clause):
            return True
        dropped = DROPPED_MY.match(clause)
        if dropped is not None and category_of(f"my {dropped['thing']}") is not None:
            return True
        # "Sesame sends me to the ER", "home for me is Leith": the user is named further in,
        # which counts when the clause is about something a person has (a category), and its
        # subject is no "it", "they" or "this".
        return (
            MINE.search(clause) is not None
            and not self.opens("third_person", clause)
            and category_of(clause) is not None
        )

    @staticmethod
    def in_role(clause: str) -> bool:
        """ "It's tough being a night nurse": the user named by a role a person has, in a
        clause about how things are for them."""
        role = AS_ROLE.search(clause)
        return role is not None and category_of(role["role"]) is not None

    def fronted_subject(self, clause: str) -> bool:
        """ "Seit Oktober bin ich Lehrerin", "Maintenant je suis pâtissier", "Desde enero soy
        vegana": a time or place put first moves the user's subject (or pro-drop verb) a few
        words in, behind the verb in German and Dutch. English puts its subject first, save
        after the fronted phrases `USER_SUBJECT` knows."""
        if self.code == "en":
            return False
        verbs = self.lang.opens["first_person_verbs"]
        for word in list(_WORD_START.finditer(clause))[1:5]:
            before = clause[: word.start()]
            if (
                _SUBORDINATE.search(before)
                or self.has("first_person", before)
                or self.has("third_person", before)
            ):
                return False  # "Mein Bruder glaubt, ich…", "Quand je…": not the user's clause
            if _PRONOUN_SUBJECT.match(clause, word.start()) or (
                verbs is not None and verbs.match(clause, word.start())
            ):
                return True
        return False

    def clause(self, clause: str, *, sentence_about_user: bool) -> tuple[str | None, str] | None:
        """The (slot, words) a clause adds, or None; retirements it implies are queued."""
        if self.asks(clause) or PASSING.search(clause) or momentary(clause):
            return None
        lasting = self.lang.opens["lasting"]
        if lasting is not None and lasting.fullmatch(clause.strip(" ,.!")):
            return None  # "Going forward, I'll be…": a word of lasting alone says nothing
        for m in NOT_SO.finditer(clause):
            # "Turns out I'm not allergic to cats after all": what was said so goes.
            words = [w for w in content_words(m["old"]) if not PRONOUN.fullmatch(w)]
            if len(words) >= 2:
                self.ops.append(Op("retract", None, " ".join(words), clause))
        negated = list(NO_MORE.finditer(clause))
        for m in negated:
            if _NOT_A_THING.fullmatch(m.group()) and category_of(f"I'm a {m['old']}") is None:
                continue  # "Not a problem!", "Not a chance": a reply, no self of the user's
            if m.start() > 0 and not (sentence_about_user or self.first_person(clause)):
                # "the capital of Australia is Canberra, not Sydney": of the world (but
                # "Not a morning person." leaves out its "I'm")
                continue
            self.retire(m["old"], bare_ok=False, whole=True)  # "not a barista any more"
        described = (
            bool(negated)
            and _NOT_A_THING.match(negated[0].group()) is not None
            and not _NO_LONGER_SAID.search(clause)
            and category_of(clause) is not None
        )
        if negated and negated[0].start() == 0 and not described:
            # the clause only says what no longer holds (but "Not a morning person" says
            # what the user is not, for good)
            return None
        reported = REPORTED.search(clause) and not CARE_SAYS.search(clause)
        if reported or ADVICE.search(clause):
            return None  # someone's words, or advice and mottos ("never give up on your dreams")
        if self.of_the_world(clause):
            return None  # "Honesty is the best policy": of the world, not of the user
        if PLAN.search(clause) and self.slot_of(clause) not in LASTING_DESPITE_PLANS:
            return None  # "I'm going to a concert tomorrow" (but "I'm vegan and visiting…")
        if (
            YOURS.search(clause)
            and not USER_SUBJECT.match(clause)
            and style_aspect_of(clause) is None  # "no emojis in your replies" is about replies
        ):
            return None  # "tell me about your trip to Crete": the listener's, not the user's
        # ("My favorite author is Ursula Le Guin": a favourite person is a taste of the user's)
        someone_else = (
            SOMEONE_ELSE.match(clause) or OTHER_PEOPLE.match(clause) or of_a_role(clause)
        ) and not FAVOURITE.match(clause)
        if someone_else and not (SELF_AS_PERSON.search(clause) or NAMED_ME.search(clause)):
            return None
        intro = any(p.search(clause) for p in (SELF_INTRO, NAME_INTRO, SET_TO, NAMED_ME))
        if (
            not (intro or self.in_role(clause))
            and self.opens("third_person", clause)
            and not USER_SUBJECT.match(clause)
        ):
            return None  # "it made me think…", "they've been there for me": not the user's
        aspect = style_aspect_of(clause)
        # In a long turn, style comes from directives only, never from a remark that
        # happens to say "step" or "response".
        style = (
            aspect is not None
            and not self.chatty
            and not REACTION.search(THANKS.sub("", clause))  # "…, thanks" is politeness
            and STYLE_SAID.search(clause) is not None
            and not (ONE_THING.search(clause) and not self.has("lasting", clause))
        )
        # "Spring all the way", "Virgin only from now on": a verdict in a frame of choosing,
        # with no subject, names its judge by its words.
        verdict = (
            VERDICT_FRAME.search(clause) is not None
            # (a frame alone, "Never again.", is a verdict on a topic said before it)
            and bool(content_words(VERDICT_FRAME.sub(" ", clause)))
            and not AT_HAND.search(clause)
            and not self.opens("third_person", clause)
            and not someone_else
        )
        if not (sentence_about_user or style or verdict or self.fragment(clause)):
            return None
        if ENDING.search(clause):
            ended = endings(clause)
            for thing in ended.gone:
                self.retire(thing, said_in=clause)
            # "Quit smoking two years ago": the end, dated, is itself what lasts.
            dated = DATED_END.search(clause) is not None
            # "the Civic's gone and there's a Kia in the drive": what is said beside the end
            # is what holds now.
            beside = any(
                content_words(p) and not NO_LONGER.search(p) and not self.opens("third_person", p)
                for p in ended.parts
                if p not in ended.ending
            )
            told = ended.exchanged or dated or beside or self.still_tells(clause)
            if not (told or NOT_X.search(clause)):
                return None
            clause = (", ".join(ended.parts) if dated else ended.rest) or clause
        for m in NOT_X.finditer(clause):
            self.retire(m.group("old"), bare_ok=False)
        value = NOT_X.sub("", clause).strip(" ,")
        if NO_LONGER.search(value) and not MY_PEOPLE.match(value):
            # ("My wife isn't vegan anymore" ends nothing of the user's: what was said of
            # her is retired by her word)
            self.retire(lapsed_part(value), bare_ok=False, whole=True)
        if not content_words(value):
            return None
        if style and aspect is not None:
            named = category_of(value)
            if named is not None and named.slot == "name":
                return "name", value  # "I'd rather you call me Elizabeth": who the user is
            return aspect.slot, value
        if not self.lasting(value):
            return None
        return None, value

    def asks(self, clause: str) -> bool:
        """A question without its question mark: "how do i profile a slow function"."""
        opener = self.lang.opens["question_openers"]
        if opener is None:
            return False
        m = opener.match(clause)
        if m is None:
            return False
        nxt = clause[m.end() :].split()[:1]
        if _CLEFT.match(clause):
            return False  # "What I value most is patience": a statement, its subject a clause
        return bool(nxt) and nxt[0].casefold() in {
            "do", "does", "did", "is", "are", "can", "could", "should", "would", "will",
            "i", "you", "we", "much", "many", "long", "often",
        }  # fmt: skip

    def fragment(self, clause: str) -> bool:
        """A verbless self-description ("Pescatarian here", "gluten free") counts as the
        user's only in a short message that is nothing but that; its consequence may follow
        ("Epileptic, so flashing lights are a no")."""
        clause = re.split(
            r",\s*(?:so|which|hence|and so|also|daher|deshalb|donc|du coup|alors|así que|"
            r"entonces|por eso)\b",
            clause,
            maxsplit=1,
        )[0]
        found = category_of(clause)
        slot = found.slot if found else self.slot_of(clause)
        # An aside in brackets adds no length, and "this week" names a time, not a person.
        words = len(WORD.findall(ASIDE.sub(" ", clause)))
        message_words = len(WORD.findall(ASIDE.sub(" ", self.message)))
        someone_named = self.has("third_person", TIME_NAMED.sub(" ", clause))
        # "Huge cricket fan.", "Lifelong birdwatcher": a person named by what they do or love
        # is who the user is, of whatever kind.
        one_who = ONE_WHO.match(clause.rstrip(" .!")) is not None
        if _of_a_trade(clause) or FREQUENT_VERB.search(clause):
            return False  # ("Hard work always pays off": a verb, so no fragment)
        if one_who and not FINITE.search(clause) and message_words <= 14:
            return not someone_named
        return (
            slot is not None
            and not FINITE.search(clause)
            and words <= 8
            and message_words <= 14
            and not someone_named
            and (
                slot
                in {
                    "diet",
                    "allergy",
                    "work",
                    "name",
                    "health",
                    "pets",
                    "family",
                    "home",
                    "origin",
                    "age",
                    "education",
                    "language",
                }
                or re.search(
                    r"\b(?:here|for me|me|only|myself|user|fan|lover|speaker|owner|person)\b",
                    clause,
                    re.I,
                )
                is not None
            )
        )

    def still_tells(self, clause: str) -> bool:
        """Whether a clause that ends something also states what holds now ("I switched to
        cello"): then it is kept too."""
        return (
            re.search(
                r"\b(?:now|these days|instead|switched to|moved to|am now|i'm now|officially|"
                r"bought|got a|took up|started|joined|became|in for|for an? \w+|"
                r"jetzt|maintenant|ahora|adesso|agora|nu)\b",
                clause,
                re.IGNORECASE,
            )
            is not None
        )


# Where one part of a clause ends and the next begins: "not vegan anymore, still love cheese".
_PART_END = re.compile(r"[,;:]|\s(?:but|though|although|since|because|and|so|still)\s", re.I)
_NEGATION = re.compile(
    r"\b(?:not|never|no|don't|dont|doesn't|didn't|can't|won't|isn't|aren't|n't)\b", re.I
)


def lapsed_part(clause: str) -> str:
    """What a clause says holds no more: the part around its "anymore" or "no longer",
    after its negation ("I'm not vegan anymore, still love cheese" -> "vegan")."""
    marker = NO_LONGER.search(clause)
    if marker is None:
        return clause
    start = max((m.end() for m in _PART_END.finditer(clause, 0, marker.start())), default=0)
    after = _PART_END.search(clause, marker.end())
    part = clause[start : after.start() if after else len(clause)]
    at = marker.start() - start
    before, rest = part[:at], part[at + len(marker.group()) :]
    negated = list(_NEGATION.finditer(before))
    if negated:
        return before[negated[-1].end() :]  # "don't eat meat anymore"
    return rest if content_words(rest) else before  # "no longer at Lidl", "meat: no longer"


# A bare "not a" before one noun, with no word of time after it.
_NOT_A_THING = re.compile(r"not an? [\w'-]+", re.IGNORECASE)
_NO_LONGER_SAID = re.compile(
    r"\b(?:any ?more|no longer|now|these days|since|after all|actually)\b", re.IGNORECASE
)
