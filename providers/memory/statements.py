"""The statement reader: which parts of a message are lasting statements about the user.

One general test, applied clause by clause, instead of a pattern per kind of sentence:

- **Mood.** A question, a condition or an imagined world ("if", "suppose", "pretend"), and a
  request for a task ("explain this step by step") assert nothing. Quoted text and what
  follows a colon that introduces pasted content are someone else's words.
- **Subject.** The user speaks of themselves: a first-person word ("I", "my", "me", or a
  pro-drop verb form such as "vivo"), or a self-introduction fragment ("Paramedic here").
  A clause whose subject is another person ("my coworker…", "she…") is theirs, not the
  user's; the user's family is the user's life and is kept.
- **Time.** A passing state ("I'm exhausted today") is not lasting.

What passes is kept as the user said it, trimmed of fillers, never cut inside a clause: a
clause ends only where a new one begins with its own subject. The category (`categories.py`)
only decides whether the statement supersedes an earlier one.

Standing instructions about replies ("keep it brief, please", "metric units only") are kept
as style when they stand alone or say they last ("from now on", "always"); an instruction
inside a task is part of that task. Changes are read by meaning of the clause, not by cue
phrase: a clause that ends or negates something the user said earlier ("left Shopify",
"Leiden, not Leipzig") retires the facts holding those words; a bare one ("not anymore")
retires the newest fact.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from .categories import category_of, named_as, style_aspect_of
from .clause_patterns import (
    ADVERBS,
    ADVICE,
    AS_A,
    ASIDES,
    BARE_IMPERATIVE,
    BRIEF_LABEL,
    CHANGE,
    CHANGE_OF_STATE,
    CLAUSE_BREAK,
    CORRECTION,
    DATED_END,
    DROPPED_I,
    DROPPED_I_PAST,
    ENDING,
    EPISODE,
    EXCHANGE,
    FAVOURITE,
    FEELING,
    FIELD,
    FINITE,
    HEDGE,
    HOW_LONG,
    IN_PLACE,
    JUDGED_ACTIVITY,
    LAPSE_SAID,
    LAPSED,
    LIFE_ENDED,
    MINE,
    MOMENT,
    MY_PEOPLE,
    NAME_INTRO,
    NO_LONGER,
    NO_MORE,
    NOT_MEANT,
    NOT_X,
    NOT_YET,
    OF_THE_TALK,
    ONGOING,
    OTHER_PEOPLE,
    OWN_RELATIVE,
    PASSING,
    PASTE_INTRO,
    PLAN,
    PLAN_AHEAD,
    QUOTE,
    REACTION,
    REPORTED,
    RESPELT,
    RETRACTED_AS_WRONG,
    SELF_AS_PERSON,
    SELF_INTRO,
    SENTENCE,
    SHOUTED_PRAISE,
    SINCE_CHANGE,
    SOMEONE_ELSE,
    SPELT,
    STANDING_DISLIKE,
    STOP,
    STYLE_SAID,
    STYLE_VERB,
    SUBJECT_VERB,
    SWITCH,
    TASK_VERB,
    TEXT_LABEL,
    THATS_ME,
    TO_YOU,
    USER_SUBJECT,
    WHEN_AHEAD,
    WORD,
    WORK_ON,
    YOURS,
    content_words,
)
from .forget_request import forget_ops
from .lexicon import Compiled, compiled, language_of
from .ops import NEWEST, SPELLING, Extraction, Op
from .remark_patterns import (
    CARE_SAYS,
    DISPOSITION,
    DREAM_TALK,
    HARD_THING,
    IMAGINED,
    JUST_DONE,
    LASTING_DESPITE_PLANS,
    LEFT_FOR,
    OF_REPLIES,
    PRONOUN,
    RESOLVE,
    SPOKEN_LABEL,
    STATE_SLOTS,
    THANKS,
    THINGS_OF_MINE,
    TOLD_AHEAD,
)
from .secrets import screen
from .slots import favourite_slot, slot_info
from .talk_patterns import (
    ALSO,
    GENERIC_NEED,
    HERE_IN,
    HOW_IT_IS,
    LOST_REFERENT,
    MIND_CHANGED,
    MY_ATTRIBUTE,
    NO_THING,
    NOT_DONE_YET,
    NOT_SO,
    OWN_KINDS,
    PAST_OF_A_THING,
    POINTS_BACK,
    RENAMED,
    SUBJECT_NAME,
    TASK_AFTER_COLON,
    TITLE,
    TOPIC_FIRST,
    VALUE_FIRST,
    VERB_ME,
    VERDICT_FRAME,
    WE_SAID,
    WHEN_FIRST,
)


def mask_quotes(text: str) -> str:
    """The text with each quotation blanked out (same length, so offsets still hold). A
    title ("I loved 'Becoming Nicole'") is the user's own word for a thing, not a quotation."""
    return QUOTE.sub(
        lambda m: m.group() if TITLE.fullmatch(m.group()[1:-1]) else " " * len(m.group()), text
    )


def _sentences(text: str) -> Iterator[tuple[int, int]]:
    for m in SENTENCE.finditer(text):
        if m.group().strip():
            yield m.start(), m.end()


def _clauses(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    at = start
    for m in CLAUSE_BREAK.finditer(text, start, end):
        if len(WORD.findall(text, at, m.start())) <= 1:
            continue  # "Jonas, my son, …": a name before an apposition opens no clause
        if m.start() > at:
            yield at, m.start()
        at = m.end()
    if at < end:
        yield at, end


def _trim(text: str, lang: Compiled) -> str:
    fillers = lang.opens["fillers"]
    text = HEDGE.sub("", text.strip(" \t,;:-–—"))
    while fillers is not None:
        m = fillers.match(text)
        if m is None or m.end() == 0:
            break
        rest = text[m.end() :].lstrip(" ,:!-–—")
        if not rest or rest == text:
            break
        text = rest
    return text.strip(" \t,;-–—")


def ended_thing(part: str) -> str:
    """What a clause says has ended: the object of its verb ("done with British Airways"),
    else its subject ("the Civic's gone"); what it was left for is no part of it."""
    m = ENDING.search(part)
    if m is None:
        return part
    after = part[m.end() :]
    target = after if content_words(after) else part[: m.start()]
    return LEFT_FOR.split(target, maxsplit=1)[0]


@dataclass(slots=True)
class _Group:
    """Neighbouring clauses about one thing: kept as one statement."""

    slot: str | None
    values: list[str]
    index: int
    start: int
    end: int
    edited: bool


class _Reader:
    def __init__(self, message: str) -> None:
        self.message = message
        self.code = language_of(message)
        self.lang = compiled(self.code)
        self.text = mask_quotes(message)
        self.ops: list[Op] = []
        # A turn of over 25 words is conversation more than telling: someone who tells a
        # fact to be kept says it in a sentence or two.
        self.chatty = len(WORD.findall(message)) > 25
        self.introduces_task = False  # a request that opens a text to work on ("Fix this: …")

    def has(self, kind: str, text: str) -> bool:
        pattern = self.lang.search[kind]
        return pattern is not None and pattern.search(text) is not None

    def opens(self, kind: str, text: str) -> bool:
        pattern = self.lang.opens[kind]
        return pattern is not None and pattern.match(text) is not None

    def read(self) -> list[Op]:
        text = self.text
        if NOT_MEANT.search(text) or SHOUTED_PRAISE.search(text) or self.brief(text):
            return []
        if self.form():
            return self.ops
        paste = PASTE_INTRO.search(self.message)
        end = len(text)
        for s_start, _ in _sentences(text):
            intro = WORK_ON.match(text, s_start)
            head = text[s_start : text.index(":", s_start)].strip() if intro else ""
            if intro and (
                self.opens("request_openers", head)
                or TASK_VERB.match(head)
                or TEXT_LABEL.fullmatch(head)
            ):
                end = min(end, text.index(":", s_start))
                self.introduces_task = True
                break
        if paste is not None:
            # What follows is someone else's text, and the sentence introducing it is about
            # that text ("the email says:", "a lyric stuck in my head: '…'").
            cut = max(text.rfind(mark, 0, paste.start()) for mark in ".!?\n")
            end = cut + 1 if cut >= 0 else 0
        for s_start, s_end in _sentences(text[:end]):
            self.sentence(s_start, s_end)
        if any(op.kind == "forget" for op in self.ops):
            # A message about what to forget: its other sentences speak of the memory
            # ("I'd rather that stayed private"), not of the user, unless they say what.
            self.ops = [op for op in self.ops if op.kind != "add" or op.slot is not None]
        self.correction()
        if (
            not self.ops
            and not self.chatty
            and self.code == "en"  # its tests of a dropped "I" are English grammar
            and paste is None
            and end == len(text)
            and text == self.message  # a quotation is someone else's words
            and not OF_THE_TALK.search(text)
        ):
            self.unheard()
        return self.ops

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
        fields = [_trim(self.text[a:b], self.lang).rstrip(" .!") for a, b in _sentences(self.text)]
        labels = [FIELD.match(f) for f in fields if f]
        if not labels or not all(labels) or self.code not in ("en",):
            return False
        if any(m is not None and SPOKEN_LABEL.search(m["label"]) for m in labels):
            return False  # "We went electric: the Civic's gone…" is a sentence, not a field
        if not any(category_of(m["label"]) or self.first_person(m["label"]) for m in labels if m):
            return False
        for m in labels:
            if m is not None:
                value = m.group().strip()
                self.ops.append(Op("add", self.slot_of(value), value, self.message))
        return True

    def unheard(self) -> None:
        """A short message that none of the tests above heard, yet that tells rather than
        asks, is kept in the user's words: people drop the "I" ("Been learning the cello
        since May"), fill in a form ("Job: paramedic. City: Cork.") or give a topic and their
        verdict ("Country music? No thanks."). Every sentence must tell, else the message is
        a question or a task and keeps nothing."""
        spans = list(_sentences(self.text))
        kept: list[str] = []
        topic = ""
        for index, (start, end) in enumerate(spans):
            said = _trim(self.text[start:end], self.lang)
            if not said:
                continue
            bare = said.rstrip(" .!)\"'”»")
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
            if (
                topic
                and len(WORD.findall(bare)) <= 4
                and not self.opens("request_openers", bare)
                and not self.opens("third_person", bare)  # "that's him": said of someone
            ):
                kept.append(f"{topic} {bare}")  # the verdict on a topic: "No thanks."
            elif self.tells(bare):
                kept.append(f"{topic} {bare}" if topic else bare)
            else:
                return
            topic = ""
        for value in kept:
            self.ops.append(Op("add", self.slot_of(value), value, self.message))

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
            or MOMENT.search(said)
            or FEELING.search(said)
            or REACTION.search(said)
            or NOT_YET.search(said)  # a hope or a plan is no fact yet
        ):
            return False
        if PAST_OF_A_THING.match(said):
            return False  # "Lunch was a sad sandwich at my desk": how something went
        mine = self.first_person(said)
        if (SOMEONE_ELSE.match(said) or OTHER_PEOPLE.match(said)) and not SELF_AS_PERSON.search(
            said
        ):
            return False
        if self.opens("third_person", said) and not mine:
            return False  # "It's pouring here", "They're closed on Sundays"
        label = re.match(r"([^:]{1,30}):\s*\S", said)
        if label is not None:
            # A form filled in about oneself: "Job: paramedic", not "Error: refused".
            return mine or category_of(label.group(1)) is not None
        taste = category_of(said)
        if taste is not None and taste.slot in ("likes", "dislikes") and not mine:
            # A verdict with no "I" names its judge by its words: "nothing beats a good
            # Negroni" is the speaker's taste, whatever the grammatical subject.
            return not self.opens("third_person", said) and self.lasting(said)
        # "Been driving trucks for years", "Went vegan": a past form opens no subject.
        subject = (
            SUBJECT_VERB.match(said)
            and not re.match(r"been\b", said, re.I)
            and not DROPPED_I_PAST.match(said)
        )
        if not mine and (subject or not DROPPED_I.match(said)):
            # Without an "I", only a sentence whose "I" was dropped before its verb is the
            # user's: "Paris is the capital of France" is about Paris.
            return False
        if BARE_IMPERATIVE.match(said):
            return False  # "Pull the details out into JSON"
        return self.lasting(said)

    def imagined(self, said: str) -> bool:
        """Pretend, role-play or fiction: nothing in it is the user's."""
        return self.opens("hypothetical", said) or IMAGINED.search(said) is not None

    # -- one sentence ----------------------------------------------------------------------
    def sentence(self, start: int, end: int) -> None:
        before = len(self.ops)
        self.read_sentence(start, end)
        said = self.text[start:end]
        made = self.ops[before:]
        # "This summer changed my mind.": what was said before, whatever it was, goes.
        if MIND_CHANGED.search(said) and all(
            op.kind == "retract" and op.slot != NEWEST for op in made
        ):
            self.ops.append(Op("retract", NEWEST, "", said))

    def read_sentence(self, start: int, end: int) -> None:
        said = _trim(self.text[start:end], self.lang)
        if not said:
            return
        if self.forget(said):
            return
        if LAPSED.fullmatch(said) and LAPSE_SAID.search(said):
            self.ops.append(Op("retract", NEWEST, "", said))  # "Not anymore."
            return
        head = said.partition(",")[0]
        if LAPSED.fullmatch(head) and LAPSE_SAID.search(head):
            self.ops.append(Op("retract", NEWEST, "", said))  # "Not anymore, I retired…"
        if self.imagined(said):
            return
        for m in RENAMED.finditer(said):
            # "Rocket is now officially Sprout": the old name becomes the new one.
            self.ops.append(Op("update", None, m["new"], said, replaces=m["old"]))
        for m in LIFE_ENDED.finditer(said):
            # "Sadly Oreo died", "Sam and I split up": what was said of them holds no more.
            self.ops.append(Op("retract", None, m["who"], said))
        turn = self.later_request(start, end)
        if turn is not None and not self.opens("request_openers", said):
            # "Changed my mind, give me detailed answers": a request after a remark is a
            # request of its own.
            self.sentence(start, turn)
            self.sentence(turn, end)
            return
        question = said.rstrip(" )\"'”»").endswith("?")
        conditional = re.match(
            r"(?:when|whenever|if|every time|each time)\s+(?:you|u)\b", said, re.I
        )
        lasting_start = re.match(
            r"(?:always|never|from now on|going forward|in future)[,\s]+", said, re.I
        )
        bare = said[lasting_start.end() :] if lasting_start else said
        request = (
            self.opens("request_openers", bare)
            or conditional is not None
            or (NO_THING.match(bare) is not None and style_aspect_of(bare) is not None)
            or self.verb_me(bare)  # "Pitch me three ideas", "Get me a list"
        )
        conditional = conditional or (lasting_start if request else None)
        if request or (question and self.has("lasting", said)):
            self.directive(said, start, end, standing=conditional is not None)
            return
        if question:
            self.indirect(start, end, causal_only=True)
            return
        spans = [
            (c_start, c_end)
            for c_start, c_end in _clauses(self.text, start, end)
            if _trim(self.text[c_start:c_end], self.lang)
        ]
        about_user = any(self.about_user(_trim(self.text[a:b], self.lang)) for a, b in spans)
        # Clauses about one thing stay one statement, in the user's words as written; a
        # clause about something else ("I'm vegetarian and I live in Ghent") is its own.
        groups: list[_Group] = []
        first = _trim(self.text[spans[0][0] : spans[0][1]], self.lang) if spans else ""
        # "Just got back from the dentist, my mouth is numb": what follows an occasion, of
        # no kind a person has, is how the occasion went.
        story = (
            bool(first)
            and self.episode(first)
            and not (CHANGE_OF_STATE.search(first) or ENDING.search(first))
        )
        for index, (c_start, c_end) in enumerate(spans):
            clause = _trim(self.text[c_start:c_end], self.lang)
            if story and index > 0 and not (category_of(clause) or SWITCH.search(clause)):
                continue
            judged = self.clause(clause, sentence_about_user=about_user)
            if judged is None:
                continue
            slot, value = judged
            slot = slot or self.slot_of(value)
            last = groups[-1] if groups else None
            # A name given is a statement of its own ("I'm Priya and I'm a vet in Leicester").
            joins = last is not None and last.slot != "name" and slot != "name"
            if (
                last
                and joins
                and last.index == index - 1
                and (slot is None or last.slot in (None, slot))
            ):
                last.slot, last.index, last.end = last.slot or slot, index, c_end
                last.values.append(value)
                last.edited = last.edited or value != clause
            else:
                groups.append(_Group(slot, [value], index, c_start, c_end, value != clause))
        if not groups:
            self.own_relatives(start, end)
        for group in groups:
            switched = any(SWITCH.search(v) for v in group.values)
            changed = any(CHANGE.search(v) for v in group.values)
            person = MY_PEOPLE.match(group.values[0])
            if person is not None and (switched or changed):
                # "My sister moved to Milan": what was said of her goes, nothing else.
                kin = person.group().removesuffix("'s")
                self.ops.append(Op("retract", group.slot, kin, said))
                switched = changed = False
            also = ALSO.search(self.text, start, end) is not None
            if (
                group.slot is not None
                and switched
                and not also
                and slot_info(group.slot).kind == "list"
            ):
                # "Switched to a Mac": the newest statement about the same thing goes (a
                # single-valued slot supersedes by itself, keeping the old value's history).
                self.ops.append(Op("retract", group.slot, NEWEST, said))
            if len(group.values) == 1:
                value = group.values[0]
            elif group.edited:
                value = ", ".join(v.rstrip(".!") for v in group.values)
            else:  # as written, separators and all
                value = _trim(self.message[group.start : group.end], self.lang)
            # A change said outright ("I moved over to marketing") replaces what was said
            # last when nothing of its own kind was said before.
            self.ops.append(Op("add", group.slot, value, said, NEWEST if changed else None))

    def verb_me(self, said: str) -> bool:
        """An English imperative of any verb with the user as its object ("No me gusta…" is
        Spanish for a dislike)."""
        return self.code == "en" and VERB_ME.match(said) is not None

    def later_request(self, start: int, end: int) -> int | None:
        """Where a request opens after a comma inside the sentence, if one does."""
        if re.match(
            r"\s*(?:when|whenever|if|every time|each time|once|as soon as)\b",
            self.text[start:end],
            re.I,
        ):
            return None  # "When you state a fact, cite a source": one standing directive
        for m in re.finditer(r"[,;:]\s*", self.text[start:end]):
            at = start + m.end()
            rest = self.text[at:end]
            if len(WORD.findall(rest)) >= 2 and (
                self.opens("request_openers", rest) or TASK_VERB.match(rest)
            ):
                return at
        return None

    def forget(self, said: str) -> bool:
        ops = forget_ops(said, self.lang)
        if ops is None:
            return False
        self.ops.extend(ops)
        return True

    def directive(self, said: str, start: int, end: int, *, standing: bool) -> None:
        """A request: a standing instruction about replies, or a task (nothing kept)."""
        if not (standing or self.has("lasting", said)) and (
            self.introduces_task or TASK_AFTER_COLON.search(said)
        ):
            self.indirect(start, end)  # "Answer in one word: is Pluto a planet?"
            return
        if STANDING_DISLIKE.match(said):
            self.ops.append(Op("add", "dislikes", said, said))  # "avoid recommending X"
            return
        aspect = style_aspect_of(said)
        if aspect is None:
            self.indirect(start, end)
            return
        polite = re.match(
            r"(?:(?:please|pls|plz|can you|could you|would you|will you|kindly)\b"
            r"[\s,]*)*",
            said,
            re.I,
        )
        verb = said[polite.end() if polite else 0 :]
        # "Give me detailed answers" asks for a kind of reply, not for one piece of work.
        of_replies = OF_REPLIES.match(verb) is not None
        if TASK_VERB.match(verb) and not (standing or of_replies or self.has("lasting", said)):
            self.indirect(start, end)  # "explain the key points step by step": this task's
            return
        opener = self.lang.opens["request_openers"]
        rest = said
        while opener is not None and (m := opener.match(rest)) and m.end() > 0:
            rest = rest[m.end() :].lstrip(" ,")
        named = category_of(said)
        if named is not None and named.slot == "name":
            self.ops.append(Op("add", "name", said, said))  # "please call me Bex"
            return
        object_first = re.match(
            r"(?:this|that|these|those|the following|the attached|my|it's|our|a|an|some)\b",
            rest,
            re.I,
        )
        worked_on = not STYLE_VERB.match(rest) and re.match(
            r"[\w-]+\s+(?:this|that|these|those|the|it|my|our)\b", rest, re.I
        )
        if (object_first and not STYLE_VERB.match(verb)) or worked_on:
            self.indirect(start, end)  # "proofread this paragraph": a task on a text
            return
        # A directive about replies with no task in it stands until the user says otherwise.
        self.ops.append(Op("add", aspect.slot, said, said))

    def indirect(self, start: int, end: int, *, causal_only: bool = False) -> None:
        """Inside a request, a clause giving the user's own reason still tells: "since I'm
        vegan, suggest a dinner", "as a diabetic, what can I eat?"."""
        apposed = AS_A.match(self.text, start, end)
        if apposed is not None:
            value = apposed.group("what").strip()
            self.ops.append(Op("add", self.slot_of(value), value, apposed.group()))
        for m in MY_PEOPLE.finditer(self.text, start, end):
            person = m.group().removesuffix("'s")
            self.ops.append(Op("add", self.slot_of(person) or "family", person, m.group()))
        self.own_relatives(start, end)
        for m in MY_ATTRIBUTE.finditer(self.text, start, end):
            # "…a workout I can do with my bad back": what the user has, named in passing,
            # is kept when it is of a kind a body, a diet or a home has (a condition, a pet).
            named = named_as(m.group())
            if named is not None and named[0].slot in OWN_KINDS:
                thing = named[1]
                if not GENERIC_NEED.fullmatch(thing):
                    self.ops.append(Op("add", named[0].slot, thing, m.group()))
        for m in HERE_IN.finditer(self.text, start, end):
            self.ops.append(Op("add", "home", m.group(), m.group()))  # "…my landlord here in Leeds"
        for m in THATS_ME.finditer(self.text, start, len(self.text)):
            if m.start() < end:  # "…for a software developer who sits all day? That's me."
                value = (m.group("who") or m.group("like") or m.group("as") or "").strip()
                self.ops.append(Op("add", self.slot_of(value), value, m.group()))
        for c_start, c_end in _clauses(self.text, start, end):
            clause = _trim(self.text[c_start:c_end], self.lang)
            if causal_only and not re.match(
                r"(?:since|because|as|given(?: that)?|seeing as|considering)\b", clause, re.I
            ):
                continue
            if apposed is not None and c_start <= apposed.start() + 1:
                continue  # "As a nurse, what shoes…": the apposition is kept, not the question
            request = self.opens("request_openers", clause) or self.verb_me(clause)
            if clause and not request and self.first_person(clause):
                judged = self.clause(clause, sentence_about_user=True)
                if judged is not None:
                    slot = judged[0] or self.slot_of(judged[1])
                    self.ops.append(Op("add", slot, judged[1], clause))

    def own_relatives(self, start: int, end: int) -> None:
        """ "…near Grenoble, where I live?", "…at the hospital where I work as a nurse": a
        relative clause of the user's own, inside a question or a need, still tells."""
        for m in OWN_RELATIVE.finditer(self.text, start, end):
            said = m.group("said").strip(" ,?.!")
            place = m.group("place")
            value = m.group().strip(" ,?.!") if place else said
            if place or self.clause(said, sentence_about_user=True) is not None:
                self.ops.append(Op("add", self.slot_of(value), value, m.group()))

    @staticmethod
    def slot_of(value: str) -> str | None:
        if NAME_INTRO.search(value):
            return "name"
        if IN_PLACE.search(value):
            return "home"
        # "Ezra, my seven-year-old, is…": a name in apposition comes first.
        apposed = re.match(r"[A-Z][\w'-]+,\s+", value)
        subject = MY_PEOPLE.match(value, apposed.end() if apposed else 0)
        if subject is not None:
            # "My sister lives in Galway" is about the sister: it must not move the user.
            found = category_of(subject.group())
            return found.slot if found else "family"
        favourite = FAVOURITE.search(value)
        if favourite is not None:
            thing = favourite.group("thing") or favourite.group("after") or "thing"
            return favourite_slot(
                re.sub(r"\s+(?:now|these days|too|again)$", "", thing, flags=re.I)
            )
        found = category_of(value)
        return found.slot if found else None

    # -- one clause ------------------------------------------------------------------------
    def first_person(self, clause: str) -> bool:
        return self.has("first_person", clause) or self.has("first_person_verbs", clause)

    def about_user(self, clause: str) -> bool:
        clause = WHEN_FIRST.sub("", clause)  # "Last weekend I joined a mentorship program"
        if SELF_INTRO.search(clause) or NAME_INTRO.search(clause):
            return True
        if OTHER_PEOPLE.match(clause) and not SELF_AS_PERSON.search(clause):
            return False
        verbs = self.lang.opens["first_person_verbs"]
        if USER_SUBJECT.match(clause) is not None or (
            verbs is not None
            and verbs.match(re.sub(ADVERBS, "", clause, count=1, flags=re.I)) is not None
        ):
            return True
        # "Sesame sends me to the ER", "home for me is Leith": the user is named further in,
        # which counts when the clause is about something a person has (a category), and its
        # subject is no "it", "they" or "this".
        return (
            MINE.search(clause) is not None
            and not self.opens("third_person", clause)
            and category_of(clause) is not None
        )

    def clause(self, clause: str, *, sentence_about_user: bool) -> tuple[str | None, str] | None:
        """The (slot, words) a clause adds, or None; retirements it implies are queued."""
        if self.asks(clause) or PASSING.search(clause) or MOMENT.search(clause):
            return None
        for m in NOT_SO.finditer(clause):
            # "Turns out I'm not allergic to cats after all": what was said so goes.
            words = [w for w in content_words(m["old"]) if not PRONOUN.fullmatch(w)]
            if len(words) >= 2:
                self.ops.append(Op("retract", None, " ".join(words), clause))
        negated = list(NO_MORE.finditer(clause))
        for m in negated:
            self.retire(m["old"], bare_ok=False)  # "not a barista any more", "no more bus"
        if negated and negated[0].start() == 0:
            return None  # the clause only says what no longer holds
        reported = REPORTED.search(clause) and not CARE_SAYS.search(clause)
        if reported or ADVICE.search(clause):
            return None  # someone's words, or advice and mottos ("never give up on your dreams")
        if PLAN.search(clause) and self.slot_of(clause) not in LASTING_DESPITE_PLANS:
            return None  # "I'm going to a concert tomorrow" (but "I'm vegan and visiting…")
        if (
            YOURS.search(clause)
            and not USER_SUBJECT.match(clause)
            and style_aspect_of(clause) is None  # "no emojis in your replies" is about replies
        ):
            return None  # "tell me about your trip to Crete": the listener's, not the user's
        someone_else = SOMEONE_ELSE.match(clause) or OTHER_PEOPLE.match(clause)
        if someone_else and not SELF_AS_PERSON.search(clause):
            return None
        intro = SELF_INTRO.search(clause) is not None or NAME_INTRO.search(clause) is not None
        if not intro and self.opens("third_person", clause) and not USER_SUBJECT.match(clause):
            return None  # "it made me think…", "they've been there for me": not the user's
        aspect = style_aspect_of(clause)
        # In a long turn, style comes from directives only, never from a remark that
        # happens to say "step" or "response".
        style = (
            aspect is not None
            and not self.chatty
            and not REACTION.search(THANKS.sub("", clause))  # "…, thanks" is politeness
            and STYLE_SAID.search(clause) is not None
        )
        # "Spring all the way", "Virgin only from now on": a verdict in a frame of choosing,
        # with no subject, names its judge by its words.
        verdict = (
            VERDICT_FRAME.search(clause) is not None
            and not self.opens("third_person", clause)
            and not someone_else
        )
        if not (sentence_about_user or style or verdict or self.fragment(clause)):
            return None
        exchanged = False
        if ENDING.search(clause):
            parts = [p for p in re.split(r",\s*|\s+and\s+|:\s+", clause) if p.strip()]
            ending = [p for p in parts if ENDING.search(p)]
            for part in list(ending):
                exchange = EXCHANGE.search(part)
                if exchange is not None:
                    # "Traded the Golf in for a Tesla": the Golf goes, the Tesla stays.
                    self.retire(exchange["old"])
                    ending.remove(part)
                    exchanged = True
                    continue
                self.retire(ended_thing(part))
                if LEFT_FOR.search(part):
                    # "left the terminal job for one at the university": the new one stays.
                    ending.remove(part)
                    exchanged = True
            # "Quit smoking two years ago": the end, dated, is itself what lasts.
            dated = DATED_END.search(clause) is not None
            # "the Civic's gone and there's a Kia in the drive": what is said beside the end
            # is what holds now.
            beside = any(
                content_words(p) and not NO_LONGER.search(p) and not self.opens("third_person", p)
                for p in parts
                if p not in ending
            )
            told = exchanged or dated or beside or self.still_tells(clause)
            if not (told or NOT_X.search(clause)):
                return None
            clause = ", ".join(p for p in parts if dated or p not in ending) or clause
        for m in NOT_X.finditer(clause):
            self.retire(m.group("old"), bare_ok=False)
        value = NOT_X.sub("", clause).strip(" ,")
        if NO_LONGER.search(value):
            self.retire(value, bare_ok=False)
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

    def lasting(self, clause: str) -> bool:
        """Whether a statement holds beyond the occasion it was said on."""
        category = category_of(clause)
        felt = FEELING.search(clause) or REACTION.search(clause) or JUDGED_ACTIVITY.search(clause)
        # "Blue's my fave, it makes me feel relaxed": a favourite said, then why.
        if felt and not FAVOURITE.search(clause.split(",")[0]):
            return False
        ahead = PLAN_AHEAD.search(clause) and not DISPOSITION.search(clause)
        if ahead and (category is None or category.slot not in TOLD_AHEAD):
            return False
        if category is None and RESOLVE.search(clause) and not DISPOSITION.search(clause):
            return False  # "I won't quit", "I'm gonna make it": resolve, not fact
        if category is not None and category.slot == "goals" and DREAM_TALK.search(clause):
            return False  # "keep chasing those dreams": a motto, no goal named
        # "I'm always here for you, Mel!": said to the listener, by name.
        # (but "I'm in Cardiff, Wales": a place after a place)
        called = re.search(r"(\S+),\s*[A-Z][a-z]+[.!?]*$", clause)
        vocative = called is not None and not called.group(1)[:1].isupper()
        if vocative and category is None:
            return False
        if HARD_THING.match(clause) or PAST_OF_A_THING.match(clause):
            return False  # "Running a business isn't easy", "The energy was motivating"
        if TO_YOU.search(ASIDES.sub(" ", clause)) and (category is None or self.chatty):
            return False  # speaks to the listener: "your words mean a lot to me"
        slot = self.slot_of(clause)
        if slot is None and THINGS_OF_MINE.match(clause):
            # "My code compiles but the tests hang", "my phone keeps autocorrecting": a
            # thing of the user's doing something, of no kind a person has, is the
            # moment's trouble, not who the user is.
            return False
        if HOW_IT_IS.search(clause) or NOT_DONE_YET.search(clause):
            return False  # "I love how uncomplicated it is", "I haven't done pottery yet"
        if slot is None and (
            WE_SAID.match(clause) or LOST_REFERENT.search(clause) or POINTS_BACK.match(clause)
        ):
            # "we rock as a team!", "I see them once a week": of no kind a person has, said
            # of a group or of something named elsewhere, it is talk.
            return False
        if slot is None:
            # "I'm doing nursing instead" is what holds since a change, not an activity.
            ongoing = ONGOING.match(clause) and not (
                HOW_LONG.search(clause) or SINCE_CHANGE.search(clause)
            )
            if len(content_words(clause)) < 2 or ongoing:
                # "Yeah", "Been a long road", "I'm staying positive" (but "been learning
                # the cello since May" says how long: it lasts)
                return False
            if self.chatty and not (HOW_LONG.search(clause) and USER_SUBJECT.match(clause)):
                # In a long turn of a conversation, a remark of no kind a person has (no
                # category) is talk, not something told to be kept.
                return False
        # One occasion, with its "I" or without ("Finished the report at last").
        episode = self.episode(clause)
        # An occasion that changed something a person has for good ("got diagnosed with
        # diabetes", "opened my own bakery") is told for what it left behind.
        left_state = category is not None and category.slot in STATE_SLOTS
        # "I loved 'Becoming Nicole'": a feeling about a work named is a taste, not an outing.
        left_state = left_state or (
            category is not None
            and category.slot in ("likes", "dislikes")
            and bool(QUOTE.search(clause))
        )
        return not (episode and not CHANGE_OF_STATE.search(clause) and not left_state)

    def episode(self, clause: str) -> bool:
        """One occasion, with its "I" or without ("Finished the report at last")."""
        return bool(
            EPISODE.search(clause)
            or JUST_DONE.match(clause)
            or (DROPPED_I_PAST.match(clause) and self.slot_of(clause) is None)
        )

    def asks(self, clause: str) -> bool:
        """A question without its question mark: "how do i profile a slow function"."""
        opener = self.lang.opens["question_openers"]
        if opener is None:
            return False
        m = opener.match(clause)
        if m is None:
            return False
        nxt = clause[m.end() :].split()[:1]
        return bool(nxt) and nxt[0].casefold() in {
            "do", "does", "did", "is", "are", "can", "could", "should", "would", "will",
            "i", "you", "we", "much", "many", "long", "often",
        }  # fmt: skip

    def fragment(self, clause: str) -> bool:
        """A verbless self-description ("Pescatarian here", "gluten free") counts as the
        user's only in a short message that is nothing but that; its consequence may follow
        ("Epileptic, so flashing lights are a no")."""
        clause = re.split(r",\s*(?:so|which|hence|and so)\b", clause, maxsplit=1)[0]
        found = category_of(clause)
        slot = found.slot if found else self.slot_of(clause)
        return (
            slot is not None
            and not FINITE.search(clause)
            and len(WORD.findall(clause)) <= 8
            and len(WORD.findall(self.message)) <= 14
            and not self.has("third_person", clause)
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

    def retire(self, text: str, *, bare_ok: bool = True) -> None:
        words = [w for w in content_words(text) if not w.isdigit() and not PRONOUN.fullmatch(w)]
        if not words:
            if bare_ok:
                self.ops.append(Op("retract", NEWEST, "", self.message))
            return
        for word in words:
            self.ops.append(Op("retract", None, word, text))

    def correction(self) -> None:
        """ "Oops, typo: 26", "Correction: it's Ayla": a short message that says something
        was wrong and gives a value corrects the newest fact where it is most alike."""
        if not CORRECTION.search(self.text) or len(WORD.findall(self.text)) > 16:
            return
        if any(op.kind == "add" and op.slot is not None for op in self.ops):
            # It says something of its own ("Sorry, I'm actually vegan"). A single-valued
            # slot supersedes by itself; in a list, "Correction: it's pecans I'm allergic
            # to" takes the place of the newest item of its own kind.
            if not RETRACTED_AS_WRONG.search(self.text):
                return
            for op in list(self.ops):
                if op.kind == "add" and op.slot and slot_info(op.slot).kind == "list":
                    self.ops.insert(self.ops.index(op), Op("retract", op.slot, NEWEST, op.evidence))
            return
        wrong = RESPELT.search(self.text) or RETRACTED_AS_WRONG.search(self.text)
        if any(op.kind == "add" for op in self.ops) and not wrong:
            return
        named = [m.group("old").strip() for m in NOT_X.finditer(self.text)]
        text = NOT_X.sub("", self.text)
        # "*Deloitte": the chat habit of starring a fixed word puts the value first, as
        # does "Four, actually".
        starred = text.lstrip().startswith("*") or VALUE_FIRST.match(text) is not None
        words = WORD.findall(text)
        values = [
            w for i, w in enumerate(words)
            if (w[0].isupper() and (i > 0 or starred) and (len(w) > 2 or w.istitle())
                and w.casefold() not in STOP)
            or w.isdigit()
        ]  # fmt: skip
        # "it's actually Blade Runner": a name of several capitalised words is one value.
        values = _runs(text, values)
        values = [v for v in values if not CORRECTION.fullmatch(v)]
        # "I misspoke, Theo is 9": a name said as the subject is who the value is about.
        said_of = {m["who"] for m in SUBJECT_NAME.finditer(text)}
        values = [v for v in values if v not in said_of] or values
        if not values:
            return
        self.ops = [op for op in self.ops if op.slot != NEWEST and op.kind != "add"]
        if named:
            # "ze heet Snoes, niet Pluis": the old value is named, whatever it looks like.
            self.ops = [op for op in self.ops if op.kind != "retract"]
            self.ops.append(Op("update", None, values[0], self.message, replaces=named[0]))
        else:
            respelt = SPELLING if SPELT.search(self.text) else ""
            self.ops.append(Op("update", NEWEST, values[0], self.message, replaces=respelt))


# What a person tells to be kept fits in a few sentences; past this a message is a document
# (a megabyte piped in), and reading all of it would hold the prompt for seconds.
MAX_READ = 10_000


def extract_rules(message: str) -> Extraction:
    """The operations one user message proposes, secrets screened out."""
    if not message.strip():
        return Extraction()
    if len(message) > MAX_READ:
        head = message[:MAX_READ]
        end = max(head.rfind(mark) for mark in ".!?\n")
        message = head[: end + 1] if end > 0 else head
    return screen(_Reader(message).read())


def _runs(text: str, values: list[str]) -> list[str]:
    """The values, with those that stand side by side in the text joined ("Blade Runner")."""
    runs: list[str] = []
    for value in values:
        joined = f"{runs[-1]} {value}" if runs else ""
        if runs and not value.isdigit() and re.search(rf"\b{re.escape(joined)}\b", text):
            runs[-1] = joined
        else:
            runs.append(value)
    return runs
