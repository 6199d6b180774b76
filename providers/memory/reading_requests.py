"""The statement reader's part for requests: a standing instruction about replies, a task
(nothing kept), a request to forget, and what a request still tells of the user in passing
("since I'm vegan, …", "…near Grenoble, where I live")."""

from __future__ import annotations

import re

from .categories import (
    category_of,
    named_as,
)
from .change_patterns import ENDING, LIFE_ENDED
from .clause_patterns import (
    QUESTION_TAG,
    STANDING_DISLIKE,
    STYLE_VERB,
    TASK_VERB,
    WORD,
    content_words,
)
from .forget_request import forget_ops
from .lexicon import READ_IN_FULL
from .ops import NEWEST, Op
from .reading import (
    ReaderBase,
    clauses,
    sentences,
    trim,
)
from .remark_patterns import OF_REPLIES
from .style_aspects import style_aspect_of
from .subject_patterns import (
    AS_A,
    AS_A_WITHIN,
    MINE_FIRST,
    MY_PEOPLE,
    NAMED_ME,
    NAMED_MINE,
    OTHER_PEOPLE,
    OWN_RELATIVE,
    THATS_ME,
    THEY_FIRST,
)
from .talk_patterns import (
    GENERIC_NEED,
    HERE_IN,
    MY_ATTRIBUTE,
    MY_PLACE,
    ONE_THING,
    OWN_KINDS,
    TASK_AFTER_COLON,
    THIS_TIME,
    VERB_ME,
    WHAT_I_USE,
)
from .time_patterns import PASSING, momentary

# "my neighbour's dog", "our friends' cat": a thing of someone the user names.
_SOMEONES = re.compile(r"(?:my|our)\s+[\w-]+(?:['’]s|s['’])\s", re.IGNORECASE)
# What joins a polite request to the reason before it: "I have a nut allergy, so please…"
# ("…, so no more bus for me" is no request).
_CONNECTIVE = re.compile(
    r"^(?:and so|so|then|hence|therefore|also|daher|deshalb|dann|donc|alors|du coup|"
    r"así que|entonces|por eso|quindi|allora|então|por isso|dus|daarom)[\s,]+"
    r"(?=please|pls|bitte|s'il te plaît|s'il vous plaît|stp|svp|por favor|per favore|"
    r"alsjeblieft)",
    re.IGNORECASE,
)
# What may join a question to the lead before it: "gluten intolerant, so is this safe?".
_JOINED_QUESTION = re.compile(r"^(?:and so|so|and|but|then|anyway|also|ok|okay)[\s,]+", re.I)
# A home that is not where the user lives.
_NOT_LIVED_IN = re.compile(
    r"\b(?:holidays?|vacations?|summer|second|weekend|investment|buy-to-let|rental|let it out|"
    r"airbnb|retire|retirement|one day|someday|dream)\b",
    re.IGNORECASE,
)
# Where a lead before a question may end: a comma, a semicolon, a dash.
_LEAD_END = re.compile(r"[,;]\s*|\s[-–—]+\s*")
# A question by its opening words alone: a question word or a verb before who is asked,
# then a clause to the sentence's end ("how do I…", "any tips for…", "is there a way…").
_UNMARKED_QUESTION = re.compile(
    # (not "which is why…", "where I live", "when I was…": those open a clause of the lead)
    r"(?:(?:and |so |but )?(?:(?:how|what|where|when|why)\s+(?:do|does|did|should|can|could|"
    r"would|will|is|are)|how\s+(?:to|much|many|long|often)|(?:is|are|can|could|should|"
    r"would|do|does)\s+(?:there|you|i|it|this|that|we))\b|any\s+(?:tips|ideas|advice|"
    r"suggestions|recommendations|thoughts)\b)[^.!]*[.!]*\s*$",
    re.IGNORECASE,
)

# A question asked as what is wanted, with no verb: "desk setup tips for a small flat?"
_ASKED_FOR = re.compile(
    r"^[^,;.!?]*\b(?:tips|ideas|advice|suggestions|recommendations|thoughts|pointers)\b"
    r"[^,;.!?]*\?\s*$",
    re.IGNORECASE,
)

# Words of the conversation itself: an instruction about replies names the user, the
# assistant or what it gives.
_OF_THE_EXCHANGE = re.compile(
    r"\b(?:me|my|i|you|u|your|answers?|repl(?:y|ies)|responses?|examples?|explanations?|"
    r"code|suggestions?|recommendations?|sources?|words?|phrases?|emojis?|emoticons?)\b",
    re.IGNORECASE,
)
# The user as an imperative's object, joined to its verb: "-moi" in French, "-me" after a
# stressed syllable written with its accent in Spanish, "-me" after a hyphen in Portuguese.
_CLITIC_ME = {
    "fr": re.compile(r"[^\W\d_]+-moi\b", re.IGNORECASE),
    "es": re.compile(r"[^\W\d_]*[áéíóú][^\W\d_]*me\b", re.IGNORECASE),
    "pt": re.compile(r"[^\W\d_]+-me\b", re.IGNORECASE),
}
# A question put to the listener by its subject alone, as people type it: "…, you know any
# good ones?", "…, tu as une recette ?", "…, du hast Tipps?", "…, você tem alguma receita?".
_YOU_ASKED = re.compile(r"(?:you|u|tu|t'as|vous|du|ihr|tú|usted|você|voce)\s+\w", re.IGNORECASE)
# A condition on what the assistant does: "when you state facts", "whenever you write
# code" (but "show me when you can!" asks for one thing, at the listener's leisure).
_WHEN_YOU_ANSWER = re.compile(
    r"\bwhen(?:ever)? (?:you|u) (?!can\b|get\b|have\b|are\b|'re\b)\w+", re.IGNORECASE
)
# What points at a text to work on: an instruction about it is a task.
_ON_A_TEXT = re.compile(r"\b(?:this|these|that|those|the following|attached|below)\b", re.I)
FOR_ME = re.compile(r"\bfor me\b", re.I)
# The kinds of thing a person has one of their own of: what "mine" and "ours" can stand for.
KEPT_KINDS = frozenset({"pets", "possessions", "vehicle", "family", "tech"})
# What a person likes or does is theirs: another's tastes are not the user's.
THEIR_TASTES = frozenset({"likes", "dislikes", "hobby", "traits", "values"})
_WORDS = re.compile(r"[^\W\d_][\w'-]*")


class Requests(ReaderBase):
    """Requests: what is kept of a directive, a task or a request to forget."""

    def verb_me(self, said: str) -> bool:
        """An imperative of any verb with the user as its object: "Pitch me three ideas", and
        the pronoun joined to the verb in French, Spanish and Portuguese ("Tutoie-moi",
        "Trátame de tú", "responde-me"). ("No me gusta…" is Spanish for a dislike.)"""
        if self.code == "en":
            return VERB_ME.match(said) is not None
        clitic = _CLITIC_ME.get(self.code)
        return clitic is not None and clitic.match(said) is not None

    def later_request(self, start: int, end: int) -> int | None:
        """Where a request opens after a comma or dash inside the sentence, if one does."""
        if re.match(
            r"\s*(?:when|whenever|if|every time|each time|once|as soon as)\b",
            self.text[start:end],
            re.I,
        ):
            return None  # "When you state a fact, cite a source": one standing directive
        if ONE_THING.match(self.text, start, end):
            return None  # "In this reply only, use bullets": the request and its scope
        # "I'm a teacher in Bristol — can you help me plan a lesson?": a dash sets a request
        # apart as a comma does.
        for m in re.finditer(r"[,;:]\s*|\s[-–—]+\s*", self.text[start:end]):
            at = start + m.end()
            rest = _CONNECTIVE.sub("", self.text[at:end])
            if QUESTION_TAG.fullmatch(rest):
                return None  # "…, don't they?" asks whether what was said holds
            if len(WORD.findall(rest)) >= 2 and (
                self.opens("request_openers", rest) or TASK_VERB.match(rest)
            ):
                return at
        return None

    def asks_unmarked(self, start: int, end: int) -> bool:
        """Whether a sentence typed without its question mark ends in a question: "my
        neighbour parks across my driveway, how do I bring it up politely"."""
        if self.code != "en" or "?" in self.text[start:end]:
            return False
        return any(
            _UNMARKED_QUESTION.match(self.text, m.end(), end)
            for m in _LEAD_END.finditer(self.text, start, end)
        )

    def question_lead(self, start: int, end: int) -> int | None:
        """Where the question of a sentence opens after a lead that tells ("on metformin,
        is ibuprofen ok?", "Tengo celiaquía, ¿qué cervezas…?"): the lead is the asker's
        context, said as a statement of its own ("Is my diet ok, do you think?" has none)."""
        if self.opens("question_openers", self.text[start:end].lstrip("¿¡ ")):
            return None
        for m in _LEAD_END.finditer(self.text, start, end):
            spanish_mark = self.text.startswith("¿", m.end())  # where a question opens
            rest = _JOINED_QUESTION.sub("", self.text[m.end() : end].lstrip("¿¡ "))
            if QUESTION_TAG.fullmatch(rest):
                return None  # "Nurses work long shifts, don't they?" asks if the lead holds
            if len(WORD.findall(self.text, start, m.start())) >= 2 and (
                spanish_mark
                or len(WORD.findall(rest)) <= 3  # "…, suggestions?", "…, quick meal ideas?"
                or _ASKED_FOR.search(rest) is not None  # "…, desk setup tips for a small flat?"
                or self.opens("question_openers", rest)
                or self.opens("request_openers", rest)
                or self.verb_me(rest)
                or _YOU_ASKED.match(rest) is not None
            ):
                return m.end()
        return None

    def forget(self, said: str) -> bool:
        ops = forget_ops(said, self.lang)
        if ops is None:
            return False
        at = self.text.find(said)
        if [op.slot for op in ops] == [NEWEST] and at > 0:
            # "my job... just forget it": "it" is the topic a fragment just before named.
            prior = [self.text[a:b] for a, b in sentences(self.text) if b <= at]
            fragment = prior[-1].strip(" .!…") if prior else ""
            if 0 < len(fragment.split()) <= 5:
                ops = forget_ops(f"{fragment}, {said}", self.lang) or ops
        self.ops.extend(ops)
        return True

    def beside_a_task(self, start: int, end: int) -> bool:
        """Whether another sentence of the message asks a question or sets a task."""
        for a, b in sentences(self.text):
            if b <= start or a >= end:
                other = self.text[a:b].strip()
                if style_aspect_of(other) is not None:
                    continue  # "Could you stop with the bullet points?" asks for a way, too
                if other.rstrip(" )\"'”»").endswith("?") or TASK_VERB.match(other):
                    return True
        return False

    def past_openers(self, said: str) -> str:
        """What a request asks, past its openers ("Could you please use…" -> "use…")."""
        opener = self.lang.opens["request_openers"]
        rest = said
        while opener is not None and (m := opener.match(rest)) and m.end() > 0:
            rest = rest[m.end() :].lstrip(" ,")
        return rest

    def sentence_at(self, start: int, end: int) -> tuple[int, int]:
        """The whole sentence a part of it (from `start`) belongs to."""
        return next(((a, b) for a, b in sentences(self.text) if a <= start < b), (start, end))

    def said_to_last(self, said: str, start: int, end: int, *, standing: bool) -> bool:
        """An instruction with no task or text of its own that says, in words of lasting
        other than "for me", that it holds from now on."""
        if (
            said.rstrip(" .!)").endswith("?")
            or self.introduces_task
            or TASK_AFTER_COLON.search(said)
        ):
            return False
        rest = self.past_openers(said)
        if _ON_A_TEXT.search(rest):
            return False  # "Always summarise the following": a task on a text
        if MY_PEOPLE.search(rest) or OTHER_PEOPLE.search(rest):
            return False  # "Tell my son to always wear a helmet": advice for someone else
        if self.code == "en" and not _OF_THE_EXCHANGE.search(rest):
            return False  # "always check the forecast before hiking": advice, not of replies
        if standing or _WHEN_YOU_ANSWER.search(said):
            return True
        a, b = self.sentence_at(start, end)
        return self.has("lasting", FOR_ME.sub("", self.text[a:b]))

    def directive(self, said: str, start: int, end: int, *, standing: bool) -> None:
        """A request: a standing instruction about replies, or a task (nothing kept)."""
        if not (standing or self.has("lasting", said)) and (
            self.introduces_task or TASK_AFTER_COLON.search(said)
        ):
            self.indirect(start, end)  # "Answer in one word: is Pluto a planet?"
            return
        named = category_of(said)
        being_named = named is not None and named.slot == "name" and "?" not in said
        # "Use a table to compare these laptops for me", "this reply only": pointed at one
        # piece of work, it is for that one ("for me" says whose it is, not for how long).
        one_thing = ONE_THING.search(said) is not None or THIS_TIME.search(said) is not None
        # "What's the difference between a process and a thread? Keep it short.": beside a
        # question or a task of the same message, an instruction is for that one answer.
        # (but what to call the user is for good, whatever is asked beside it)
        one_thing = one_thing or (not being_named and self.beside_a_task(start, end))
        if one_thing and not (standing or self.has("lasting", FOR_ME.sub("", said))):
            self.indirect(start, end)
            return
        if STANDING_DISLIKE.match(said):
            self.ops.append(Op("add", "dislikes", said, said))  # "avoid recommending X"
            return
        aspect = style_aspect_of(said)
        if (aspect is None or self.code not in READ_IN_FULL) and not NAMED_ME.search(said):
            # The aspects' words are those of the four languages read in full: in another
            # one they are other words ("brief" is a letter in Dutch).
            if self.said_to_last(said, start, end, standing=standing):
                # "Going forward, give me sources when you state facts": an instruction that
                # says it lasts is the user's way of being answered, of whatever aspect.
                self.ops.append(Op("add", "reply_style", said, said))
                return
            self.indirect(start, end)
            return
        polite = re.match(
            r"(?:(?:please|pls|plz|(?:can|could|would|will) (?:you|u|ya)|kindly)\b"
            r"[\s,]*)*",
            said,
            re.I,
        )
        verb = said[polite.end() if polite else 0 :]
        # "Give me detailed answers" asks for a kind of reply, not for one piece of work.
        of_replies = OF_REPLIES.match(verb) is not None or (
            re.match(r"write in\b", verb, re.I) is not None  # "write in lowercase", "in Spanish"
        )
        if TASK_VERB.match(verb) and not (standing or of_replies or self.has("lasting", said)):
            self.indirect(start, end)  # "explain the key points step by step": this task's
            return
        rest = self.past_openers(said)
        if being_named:
            # "please call me Bex", "Puedes llamarme Nacho": being named, in any language
            self.ops.append(Op("add", "name", said, said))
            return
        object_first = re.match(
            r"(?:this|that|these|those|the following|the attached|my|it's|our|a|an|some)\b",
            rest,
            re.I,
        )
        worked_on = not STYLE_VERB.match(rest) and re.match(
            r"(?!(?:with|on|in|at|to|for|of|about|using)\b)[\w-]+\s+"
            r"(?:this|that|these|those|the|it|my|our)\b",
            rest,
            re.I,
        )
        if (object_first and not STYLE_VERB.match(verb)) or worked_on or aspect is None:
            self.indirect(start, end)  # "proofread this paragraph": a task on a text
            return
        # A directive about replies with no task in it stands until the user says otherwise.
        self.ops.append(Op("add", aspect.slot, said, said))

    def mine_named(self, start: int, end: int) -> bool:
        """ "A good harness for a ferret? Ours is called Pippin.", "…a senior cat? mine's 16":
        a possessive pronoun as the subject is the user's own one of the thing last named
        before it, and what is said of it is kept with that thing's name."""
        said = trim(self.text[start:end], self.lang)
        if not MINE_FIRST.match(said) or LIFE_ENDED.search(said) or ENDING.search(said):
            return False
        words = [m.group() for m in _WORDS.finditer(self.text, 0, start)]
        for index in range(len(words) - 1, -1, -1):
            # a word, or two that name a kind only together ("guinea pig")
            pair = " ".join(words[max(index - 1, 0) : index + 1])
            for thing in (words[index], pair):
                kind = category_of(thing)
                alone = thing == pair and category_of(words[index - 1]) is not None
                if kind is not None and kind.slot in KEPT_KINDS and not alone:
                    self.ops.append(Op("add", kind.slot, f"{thing}: {said}", said))
                    return True
        return False

    def kin_named(self, start: int, end: int) -> bool:
        """ "Tips for getting my toddler to sleep? She's 2 and her name is Ines.": a sentence
        whose subject is "he" or "she", straight after one that named one of the user's
        people, is about that person, and who the user's family are is kept (not their
        tastes)."""
        said = trim(self.text[start:end], self.lang)
        before = [(a, b) for a, b in sentences(self.text) if b <= start]
        if not before or not THEY_FIRST.match(said) or said.rstrip().endswith("?"):
            return False
        if PASSING.search(said) or momentary(said) or LIFE_ENDED.search(said):
            return False
        taste = category_of(said)
        if taste is not None and taste.slot in THEIR_TASTES:
            return False  # "Gift ideas for my wife? She loves gardening.": hers, not the user's
        people = list(MY_PEOPLE.finditer(self.text, *before[-1]))
        if len(people) != 1:
            return False  # (of two people named, which one is meant is not said)
        person = people[0].group().removesuffix("'s")
        self.ops.append(Op("add", self.slot_of(person) or "family", f"{person}: {said}", said))
        return True

    def places_in_passing(self, start: int, end: int, evidence: str | None = None) -> None:
        """ "my flat in Shoreditch", "my shift at the fire station": where the user lives or
        works, said in passing."""
        for m in MY_PLACE.finditer(self.text, start, end):
            slot = "home" if m["home"] else "work"
            if slot == "home" and _NOT_LIVED_IN.search(self.text, start, end):
                continue  # "we bought a place in Spain for the holidays": a second home
            self.ops.append(Op("add", slot, m.group(), evidence or m.group()))

    def indirect(
        self, start: int, end: int, *, causal_only: bool = False, told: int | None = None
    ) -> None:
        """Inside a request, a clause giving the user's own reason still tells: "since I'm
        vegan, suggest a dinner", "as a diabetic, what can I eat?"."""
        apposed = AS_A.match(self.text, start, end)
        if apposed is not None:
            value = apposed.group("what").strip()
            self.ops.append(Op("add", self.slot_of(value), value, apposed.group()))
        # (in the whole sentence: a request after it, "…, I need breaks", is read apart)
        whole = self.sentence_at(start, end)
        for m in AS_A_WITHIN.finditer(self.text, *whole):
            value = m.group("what").strip()
            if self.slot_of(value) is not None:  # (not "…, as a result, I…")
                self.ops.append(Op("add", self.slot_of(value), value, m.group()))
        for m in MY_PEOPLE.finditer(self.text, start, end):
            person = m.group().removesuffix("'s")
            self.ops.append(Op("add", self.slot_of(person) or "family", person, m.group()))
        people = [m.span() for m in MY_PEOPLE.finditer(self.text, start, end)]
        named_spans: list[tuple[int, int]] = []
        for m in NAMED_MINE.finditer(self.text, start, end):
            # "…walk my greyhound, Misty, each day?": one of the user's, by name, whatever
            # its kind.
            if not any(a <= m.start() < b for a, b in people):
                kind = named_as(m.group())
                self.ops.append(Op("add", kind[0].slot if kind else None, m.group(), m.group()))
                named_spans.append(m.span())
        self.own_relatives(start, end)
        for m in MY_ATTRIBUTE.finditer(self.text, start, end):
            # "…a workout I can do with my bad back": what the user has, named in passing,
            # is kept when it is of a kind a body, a diet or a home has (a condition, a pet).
            if _SOMEONES.match(m.group()) or any(
                a <= m.start() < b for a, b in [*named_spans, *people]
            ):
                # "my neighbour's dog": the neighbour's, not the user's; "my girlfriend went
                # keto": hers
                continue
            named = named_as(m.group())
            if named is not None and named[0].slot in OWN_KINDS:
                thing = named[1]
                if not GENERIC_NEED.fullmatch(thing):
                    self.ops.append(Op("add", named[0].slot, thing, m.group()))
        for m in WHAT_I_USE.finditer(self.text, start, end):
            thing = m["thing"]
            self.ops.append(Op("add", self.slot_of(thing) or "possessions", thing, m.group()))
        self.places_in_passing(start, end)
        for m in HERE_IN.finditer(self.text, start, end):
            self.ops.append(Op("add", "home", m.group(), m.group()))  # "…my landlord here in Leeds"
        for m in THATS_ME.finditer(self.text, start, len(self.text)):
            if m.start() < end:  # "…for a software developer who sits all day? That's me."
                said = m.group("who") or m.group("like") or m.group("as") or m.group("being")
                value = (said or "").strip()
                self.ops.append(Op("add", self.slot_of(value), value, m.group()))
        for c_start, c_end in clauses(self.text, start, end):
            clause = trim(self.text[c_start:c_end], self.lang)
            if told is not None and c_start < told:
                continue  # the lead before the question, read already
            if causal_only and not re.match(
                r"(?:since|because|as|given(?: that)?|seeing as|considering|weil|da|comme|"
                r"puisque|parce que|como|ya que|porque|puesto que|siccome|poiché|visto che|"
                r"já que|omdat|aangezien)\b",
                clause,
                re.I,
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
            # "Did you forget where I live?": the verb alone, with no place, tells nothing.
            told = place or len(content_words(said)) > 1
            if told and self.clause(said, sentence_about_user=True) is not None:
                self.ops.append(Op("add", self.slot_of(value), value, m.group()))
