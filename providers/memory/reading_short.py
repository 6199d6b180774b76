"""The statement reader's part for short messages none of its clause tests heard: a form
filled in about oneself, a brief for a piece of work, and a sentence whose "I" was dropped."""

from __future__ import annotations

import dataclasses
import re

from .categories import Category, categories_in, category_of
from .change_patterns import ENDING, SWITCH
from .clause_patterns import (
    ADVICE,
    BARE_IMPERATIVE,
    BRIEF_LABEL,
    FIELD,
    FINITE,
    REACTION,
    TASK_VERB,
    TIME_NAMED,
    WORD,
)
from .forget_request import forget_ops
from .ops import Op
from .reading import (
    ReaderBase,
    endings,
    sentences,
    trim,
)
from .reading_clause import of_a_role
from .remark_patterns import SPOKEN_LABEL
from .subject_patterns import (
    DROPPED_I,
    DROPPED_I_PAST,
    MY_PEOPLE,
    OTHER_PEOPLE,
    PAST,
    REPORTED,
    SELF_AS_PERSON,
    SOMEONE_ELSE,
    SUBJECT_VERB,
    YOURS,
)
from .talk_patterns import (
    CHOICE,
    HABIT,
    PAST_OF_A_THING,
    TOPIC_FIRST,
    VERDICT_FRAME,
)
from .time_patterns import FEELING, NOT_YET, PASSING, WHEN_AHEAD, momentary

# Adverbs that may open a sentence whose "I" was dropped ("now living in Tromsø", "finally
# caved and bought an iPhone"): of time, and those of manner that end in "-ly" (not those
# of the moment: "currently sitting in a lounge" is passing).
_NOW_AND_SINCE = re.compile(
    r"(?:(?:now|still|recently|lately|these days|nowadays|just|already|at last|"
    r"(?!(?:ugly|holy|only|early|daily|belly|jelly|bully|rally|currently|presently|"
    r"temporarily|momentarily|briefly)\b)\w{3,}ly)[,\s]+)+",
    re.IGNORECASE,
)


# A past form first is no imperative: an imperative is the verb's base form.
_PAST_FIRST = re.compile(r"(?:\w{3,}ed|" + PAST + r")\b", re.IGNORECASE)


def _label_kind(label: str) -> Category | None:
    """The kind of thing a form's field names, its "my" left out ("City: Cork")."""
    return category_of(label) or category_of(f"my {label}")


# The user and the listener together: what they share is the talk's, not the user's own.
TOGETHER = re.compile(r"\b(?:we both|both of us|you and (?:i|me)|the two of us)\b", re.I)
# A kind of thing doing something to people in general: "dogs make us happier".
GENERIC_US = re.compile(
    r"(?!(?:i|we|my|our|this|his|yes|was|is|its|us)\b)[a-z]+s\s+(?:\w+\s+)?[a-z]+\s+us\b", re.I
)
# The user first in a sentence: "I…", "my…".
OWN_SUBJECT = re.compile(r"(?:\w+,?\s+)?(?:i|i'm|i've|i'd|my|we|our)\b", re.I)


class ShortMessages(ReaderBase):
    """Short messages: a form, a brief, a sentence whose "I" was dropped."""

    def brief(self, text: str) -> bool:
        """Whether the message holds a field of a brief for a piece of work; "Context: I'm
        deaf in one ear" is the user's own context, not a brief's."""
        return any(
            not (
                m.group().rstrip(":").strip(" .!?").casefold().endswith("context")
                and self.first_person(text[m.end() : m.end() + 12])
            )
            for m in BRIEF_LABEL.finditer(text)
        )

    def form(self) -> bool:
        """A message that is a form filled in about oneself ("Name: Beatriz. Based in: Porto.
        Field: architecture."): every sentence a field, one of them at least of a kind a
        person has. Each field is kept as written."""
        fields = [trim(self.text[a:b], self.lang).rstrip(" .!") for a, b in sentences(self.text)]
        labels = [FIELD.match(f) for f in fields if f]
        if not labels or not all(labels) or self.code not in ("en",):
            return False
        if any(m is not None and SPOKEN_LABEL.search(m["label"]) for m in labels):
            return False  # "We went electric: the Civic's gone…" is a sentence, not a field
        if any(m is not None and forget_ops(m["value"], self.lang) for m in labels):
            return False  # "Health stuff: please forget" asks, of what its label names
        if not any(_label_kind(m["label"]) or self.first_person(m["label"]) for m in labels if m):
            return False
        for m in labels:
            if m is not None:
                value = m.group().strip()
                kind = _label_kind(m["label"])
                slot = self.slot_of(value) or (kind.slot if kind else None)
                self.ops.append(Op("add", slot, value, self.message))
        return True

    def unheard(self) -> None:
        """A short message that none of the tests above heard, yet that tells rather than
        asks, is kept in the user's words: people drop the "I" ("Been learning the cello
        since May"), fill in a form ("Job: paramedic. City: Cork.") or give a topic and their
        verdict ("Country music? No thanks."). Every sentence must tell, else the message is
        a question or a task and keeps nothing."""
        spans = list(sentences(self.text))
        kept: list[str] = []
        gone: list[str] = []
        topic = ""
        for index, (start, end) in enumerate(spans):
            said = trim(self.text[start:end], self.lang)
            if not said:
                continue
            bare = said.rstrip(" .!)\"'”»")
            # "Karaoke? Never again.": a verdict on the topic just named, even one that
            # sounds like an end, is said of the topic.
            verdict = (
                bool(topic)
                and len(WORD.findall(bare)) <= 4
                # ("Never again." is a verdict, "Never use emoji." a request)
                and (not self.opens("request_openers", bare) or not VERDICT_FRAME.sub("", bare))
                and not self.opens("third_person", bare)  # "that's him": said of someone
            )
            if ENDING.search(bare) and not bare.endswith("?") and not verdict:
                # "The ThinkPad died, replaced it with a MacBook Air": the end retires what
                # it names, and only the rest is kept; an end alone ("The band split up")
                # keeps nothing.
                ended = endings(bare)
                if OTHER_PEOPLE.match(bare) or SOMEONE_ELSE.match(bare):
                    # "My supervisor left the university": theirs ended, nothing of the user's
                    ended = dataclasses.replace(ended, gone=[])
                rest = ended.rest
                if not rest and len(WORD.findall(bare)) <= 10:
                    gone.extend(ended.gone)
                    continue
                # "Cancelled Spotify, it's Apple Music now": what holds now, beside the end.
                new_state = SWITCH.search(rest) is not None
                if rest and rest != bare and (self.tells(bare) or self.tells(rest) or new_state):
                    gone.extend(ended.gone)
                    kept.append(rest)
                    continue
            last = index == len(spans) - 1
            if bare.endswith("?"):
                # "Jazz fusion? Hard pass.": a bare topic before a verdict is no question;
                # "Really!?" is a reaction.
                if (
                    last
                    or len(WORD.findall(bare)) > 3
                    or FINITE.search(bare)
                    or re.search(r"!\?|\?!", bare)
                ):
                    return
                topic = bare
                continue
            if verdict:
                kept.append(f"{topic} {bare}")  # the verdict on a topic: "No thanks."
            elif self.tells(bare):
                kept.append(f"{topic} {bare}" if topic else bare)
            elif listed := self.listed(bare):
                kept.extend(listed)
            elif not self.aside(bare):
                return
            topic = ""
        for thing in gone:
            self.retire(thing, bare_ok=False)  # an end naming nothing is no "not anymore"
        for value in kept:
            self.ops.append(Op("add", self.slot_of(value), value, self.message))

    def taken_its_place(self) -> None:
        """ "Gave up the orchestra, it was eating my time. Been bouldering three times a week
        instead.": after an end, a sentence with its "I" dropped says what holds now, in a
        message that tells nothing else (the test of a message of such sentences alone,
        `unheard`, was not made: one of them ended something)."""
        for start, end in sentences(self.text):
            said = trim(self.text[start:end], self.lang)
            bare = said.rstrip(" .!)\"'”»")
            if (
                self.code == "en"
                and DROPPED_I.match(bare)
                and not bare.endswith("?")
                and not ENDING.search(bare)
                and self.tells(bare)
            ):
                self.ops.append(Op("add", self.slot_of(bare), bare, said))

    def aside(self, said: str) -> bool:
        """A few words said beside a statement, with no verb and no one in them ("The smell
        alone.", "Ugh."): neither a question nor a task, so the statement still stands."""
        return (
            len(WORD.findall(said)) <= 4
            and not FINITE.search(said)
            and not self.first_person(said)
            and not self.opens("request_openers", said)
            and not TASK_VERB.match(said)
            and not self.imagined(said)
        )

    def listed(self, said: str) -> list[str]:
        """ "Vegan for 6 years, training for an Ironman, and working as a physio": a list of
        parts each of which tells, or describes the user without a verb, is each kept."""
        parts = [p.strip() for p in re.split(r",\s*(?:and\s+)?|\s+and\s+", said) if p.strip()]
        if (
            len(parts) < 2
            or self.imagined(said)
            or REPORTED.search(said)
            or ADVICE.search(said)
            or self.opens("request_openers", said)
            or any(p.match(said) for p in (SOMEONE_ELSE, OTHER_PEOPLE, MY_PEOPLE))
        ):
            return []  # a role to play, someone's words or advice, a task, another person
        if all(self.tells(p) or (self.fragment(p) and self.lasting(p)) for p in parts):
            return parts
        # "Self-taught developer, mostly Python and a bit of Go", "Two rescue greyhounds, Dot
        # and Dash": a self-description, then what narrows it with no subject or time of its
        # own, is one statement, kept whole.
        first = parts[0]
        described = (
            (self.fragment(first) or self.tells(first))
            and self.lasting(first)
            and self.slot_of(first) is not None
        )
        if described and not any(
            self.opens("third_person", p) or FINITE.search(p) or momentary(p) or PASSING.search(p)
            for p in parts
        ):
            return [said]
        return []

    def tells(self, said: str) -> bool:
        """Whether one sentence of an unheard message is a lasting statement of the user's."""
        # "When it comes to tea, it's Earl Grey or nothing": a topic given first asks nothing.
        said = TOPIC_FIRST.sub("", said)
        if (
            self.opens("request_openers", said)
            or self.opens("question_openers", said)
            or self.imagined(said)
            or WHEN_AHEAD.search(said)
            or TASK_VERB.match(said)
            or self.asks(said)
            or REPORTED.search(said)
            or PASSING.search(said)
            or momentary(said)
            or FEELING.search(said)
            or REACTION.search(said)
            or NOT_YET.search(said)  # a hope or a plan is no fact yet
            or ADVICE.search(said)  # "…, so make sure you take care of yourself"
            or TOGETHER.search(said)  # "It's great we both face the same challenges"
            or GENERIC_US.match(said)  # "animals bring us peace"
            or self.of_the_world(said)
        ):
            return False
        if YOURS.search(said) and not OWN_SUBJECT.match(said):
            return False  # "Your friendship means so much to me": the listener's
        if PAST_OF_A_THING.match(said):
            return False  # "Lunch was a sad sandwich at my desk": how something went
        mine = self.first_person(said)
        # ("My friend and I run a shop" is the user's; "my coworker just had twins, what do i
        # put in the card" is the coworker's, the "i" of a later clause notwithstanding)
        head = said.partition(",")[0]
        if (
            SOMEONE_ELSE.match(said) or OTHER_PEOPLE.match(said) or of_a_role(said)
        ) and not SELF_AS_PERSON.search(head):
            return False
        if self.opens("third_person", said) and not mine:
            return False  # "It's pouring here", "They're closed on Sundays"
        label = re.match(r"([^:]{1,30}):\s*\S", said)
        if label is not None:
            # A form filled in about oneself: "Job: paramedic", not "Error: refused".
            return mine or category_of(label.group(1)) is not None
        taste = category_of(said)
        if CHOICE.fullmatch(said):
            return True
        if (
            HABIT.match(said)
            and any(c.slot == "schedule" for c in categories_in(said))
            and not FINITE.search(said)
            and not TIME_NAMED.search(said)  # "Rain every day this week": the weather
        ):
            return self.lasting(said)
        if taste is not None and taste.slot in ("likes", "dislikes") and not mine:
            # A verdict with no "I" names its judge by its words: "nothing beats a good
            # Negroni" is the speaker's taste, whatever the grammatical subject.
            return not self.opens("third_person", said) and self.lasting(said)
        # "now living in Tromsø": an adverb may come before the verb whose "I" was dropped.
        verb_at = _NOW_AND_SINCE.match(said)
        bare = said[verb_at.end() :] if verb_at else said
        # "Been driving trucks for years", "Went vegan": a past form opens no subject.
        # "seeing someone called Kim": "called" that gives a name is no verb of a subject.
        subject = (
            SUBJECT_VERB.match(_NAMING.sub("", bare))
            and not re.match(r"been\b", bare, re.I)
            and not DROPPED_I_PAST.match(bare)
        )
        dropped = DROPPED_I.match(bare) or _INTO.match(bare)  # "Really into bouldering"
        if not mine and (subject or not dropped):
            # Without an "I", only a sentence whose "I" was dropped before its verb is the
            # user's: "Paris is the capital of France" is about Paris.
            return False
        if BARE_IMPERATIVE.match(said) and not _PAST_FIRST.match(said):
            return False  # "Pull the details out into JSON" (but "Took a job at the UN")
        return self.lasting(said)


# A liking told with its "I'm" dropped.
_INTO = re.compile(r"(?:big\s+|so\s+|very\s+)?into\s+(?!the\b|a\b|it\b|that\b)\w", re.I)
# A name given to what was just named ("a guy called Tom", "a kitten named Pip").
_NAMING = re.compile(r"\s+(?:called|named|nicknamed)\s+[\w'’-]+", re.IGNORECASE)
