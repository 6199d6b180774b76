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

import dataclasses
import re
from collections.abc import Sequence

from .antecedents import with_antecedents
from .categories import category_of
from .change_patterns import (
    ANSWER_CORRECTED,
    CHANGE,
    CORRECTION,
    ENDING,
    LAPSE_SAID,
    LAPSED,
    LIFE_ENDED,
    LOST_ONE,
    NO_MORE,
    SWITCH,
    THAT_UNSAID,
)
from .clause_patterns import (
    NOT_MEANT,
    OF_THE_TALK,
    PASTE_INTRO,
    SHOUTED_PRAISE,
    TASK_VERB,
    TEXT_LABEL,
    WORK_ON,
)
from .facts import Fact
from .lexicon import language_of
from .names_again import refused_name, renamed
from .one_statement import one_statement_each
from .ops import FORGET_ALL, NEWEST, Extraction, Op
from .own_leads import OWN_LEAD, TALK_LEAD, lead_before
from .quantities import recounts
from .reading import Group, clauses, sentences, trim
from .reading_clause import Clauses
from .reading_fixes import STARRED, Corrections, without_the_wrong_value
from .reading_lasting import Lasting
from .reading_requests import Requests
from .reading_short import ShortMessages
from .retyping import retyped
from .run_on import split_after_an_end, split_before_i, split_run_on
from .secrets import screen
from .slots import slot_info
from .style_aspects import style_aspect_of
from .subject_patterns import DROPPED_I, MY_PEOPLE, NAME_INTRO
from .talk_patterns import (
    ALSO,
    MIND_CHANGED,
    NO_THING,
    RENAMED,
    TOLD_YOU_OF,
    VERDICT_FRAME,
)
from .thing_types import named_things, told_as_a_change
from .time_patterns import CHANGE_OF_STATE, WHEN_SAID
from .truecasing import truecased
from .type_changes import new_of_a_type


class _Reader(Requests, ShortMessages, Corrections, Clauses, Lasting):
    def read(self) -> list[Op]:
        text = self.text
        if NOT_MEANT.search(text) or SHOUTED_PRAISE.search(text) or self.brief(text):
            return []
        if self.form():
            return self.ops
        paste = PASTE_INTRO.search(self.message)
        colon = self.message.find(":", paste.start()) if paste is not None else -1
        if colon > 0 and OWN_LEAD.fullmatch(lead_before(self.message, colon)):
            paste = None  # "I need to fix something I said: …", "Quick note: …": the user's
        end = len(text)
        for s_start, _ in sentences(text):
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
        for s_start, s_end in sentences(text[:end]):
            self.sentence(s_start, s_end)
        if THAT_UNSAID.search(text) and any(op.kind == "add" and op.slot for op in self.ops):
            # "Please disregard my earlier statement regarding my vehicle. I drive an Audi
            # Q5, not a Volvo.": what was said is taken back for what is said now
            self.ops = [op for op in self.ops if op.kind != "forget"]
        if any(op.kind == "forget" for op in self.ops):
            # A message about what to forget: its other sentences speak of the memory
            # ("I'd rather that stayed private"), not of the user, unless they say what;
            # and what they say of a kind it forgets is what it asks not to keep ("forget my
            # job, I'm switching careers anyway").
            gone = {
                slot_info(op.slot).category
                for op in self.ops
                if op.kind == "forget" and op.slot not in (None, FORGET_ALL, NEWEST)
            }
            self.ops = [
                op
                for op in self.ops
                if op.kind != "add"
                or (op.slot is not None and slot_info(op.slot).category not in gone)
            ]
        if not self.contrast():
            self.correction()
        elif THAT_UNSAID.search(text):
            # "haha no, ignore that, it's Spanish I speak, not Portuguese": what was said
            # is taken back to be corrected, not forgotten
            self.ops = [op for op in self.ops if op.kind != "forget"]
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
            if self.ops:
                # "it's actually mango I react to": told in words of no kind the tests
                # above heard, a correction's new value retires the one it corrects too
                self.correction()
        if self.ops and all(op.kind == "retract" for op in self.ops):
            self.taken_its_place()
        if not self.ops:
            self.correction(alone=True)
        if not any(op.kind in ("retract", "update", "forget") for op in self.ops):
            self.ops = one_statement_each(self.ops, self.message)
            # "I changed teams and it's all Elixir now": a change said outright replaces
            # what was said last when nothing of its own kind was said before, whichever
            # test heard it.
            self.ops = [
                dataclasses.replace(op, replaces=NEWEST)
                if op.kind == "add" and op.replaces is None and CHANGE.search(op.value)
                else op
                for op in self.ops
            ]
        if ANSWER_CORRECTED.search(self.text) and not self.first_person(self.text):
            # "Small correction to your answer: the capital of Australia is Canberra": the
            # reply was wrong about the world, and nothing of the user's is said
            self.ops = [op for op in self.ops if op.kind == "forget"]
        # "I'd rather you call me Alex than Sasha": the name set aside is no name of theirs
        self.ops = [
            dataclasses.replace(op, value=_SET_ASIDE.sub("", op.value))
            if op.kind == "add" and op.slot == "name"
            else op
            for op in self.ops
        ]
        if CORRECTION.search(self.text) or STARRED.search(self.text):
            # ("*vegan not vegetarian": the star marks a word fixed, and is no part of it)
            self.ops = [
                dataclasses.replace(op, value=without_the_wrong_value(op.value.strip("* ")))
                if op.kind == "add"
                else op
                for op in self.ops
            ]
        return self.ops

    # -- one sentence ----------------------------------------------------------------------
    def sentence(self, start: int, end: int) -> None:
        before = len(self.ops)
        if self.mine_named(start, end) or self.kin_named(start, end):
            return
        lead = TALK_LEAD.match(self.text, start, end)
        if lead is not None and OWN_LEAD.fullmatch(lead["lead"].strip()):
            # "Ah, I need to fix something I said: it's shellfish I'm allergic to": a lead
            # about the talk sets up what follows its colon, which is what is told
            start = lead.end()
        self.read_sentence(start, end)
        said = self.text[start:end]
        named = _PROPER.findall(self.text, 0, start)
        for index, op in enumerate(self.ops[before:], before):
            # "Any winter tips for Tampere? That's where I live.": "that" is what was last
            # named, and is kept with it.
            pointing = op.kind == "add" and op.slot and _POINTING.match(op.value)
            # ("What's Calgary like in winter? Moved here in March.": "here" is the place)
            home_here = op.kind == "add" and op.slot is None and _HOME_HERE.search(op.value)
            if (
                (pointing or home_here)
                and named
                # (a month named is no place: "I moved here in March")
                and not _PROPER.search(WHEN_SAID.sub(" ", op.value), 1)
            ):
                self.ops[index] = dataclasses.replace(
                    op, slot=op.slot or "home", value=f"{named[-1]}: {op.value}"
                )
        made = self.ops[before:]
        if not made:
            # "My landlord in Bilbao won't fix the heating": a remark about someone else
            # still says where the user lives, in a long turn as in a short one.
            self.places_in_passing(start, end, said)
        # "This summer changed my mind.": what was said before, whatever it was, goes.
        if MIND_CHANGED.search(said) and all(
            op.kind == "retract" and op.slot != NEWEST for op in made
        ):
            self.ops.append(Op("retract", NEWEST, "", said))

    def introduced(self, start: int, end: int) -> list[tuple[int, int]]:
        """ "Dana here, allergic to shellfish": a name given, then what the user is without a
        verb, are two statements, so that either can change without the other."""
        said = self.text[start:end]
        comma = said.find(",")
        if (
            comma > 0
            and NAME_INTRO.search(trim(said[:comma], self.lang))
            and self.fragment(trim(said[comma + 1 :], self.lang))
        ):
            return [(start, start + comma), (start + comma + 1, end)]
        return [(start, end)]

    def read_sentence(self, start: int, end: int) -> None:
        said = trim(self.text[start:end], self.lang)
        if not said:
            return
        if self.forget(said) or TOLD_YOU_OF.search(said):
            return
        if LAPSED.fullmatch(said) and LAPSE_SAID.search(said):
            self.ops.append(Op("retract", NEWEST, "", said))  # "Not anymore."
            return
        head = said.partition(",")[0]
        if LAPSED.fullmatch(head) and LAPSE_SAID.search(head):
            self.ops.append(Op("retract", NEWEST, "", said))  # "Not anymore, I retired…"
        if self.imagined(said):
            return
        lapsed = NO_MORE.match(said)
        comma = self.text.find(",", start, end)
        if lapsed is not None and comma > start:
            # "no longer a chef, teaching maths now": after what has ended, a clause with its
            # "I" dropped (a verb's -ing or past form first) says what holds instead; it has
            # a subject of its own, so it is a sentence of its own.
            rest = trim(self.text[comma + 1 : end], self.lang).split()
            head = trim(self.text[start:comma], self.lang)
            ended = NO_MORE.match(head)
            if (
                rest
                and DROPPED_I.fullmatch(rest[0])
                and ended is not None
                and _STILL_ENDED.fullmatch(head, ended.end())
            ):
                self.sentence(start, comma)
                self.sentence(comma + 1, end)
                return
        if lapsed is not None and re.match(r"no\b", said, re.IGNORECASE):
            self.retire(lapsed["old"], bare_ok=False, whole=True)  # "No longer at Lidl."
        for m in RENAMED.finditer(said):
            # "Rocket is now officially Sprout": the old name becomes the new one.
            self.ops.append(Op("update", None, m["new"], said, replaces=m["old"]))
        for m in [*LIFE_ENDED.finditer(said), *LOST_ONE.finditer(said)]:
            # "Sadly Oreo died", "Sam and I split up", "We lost Whiskers in the spring":
            # what was said of them holds no more.
            self.ops.append(Op("retract", None, m["who"], said))
        turn = self.later_request(start, end)
        lasting = self.lang.opens["lasting"]
        if (
            turn is not None
            and not self.opens("request_openers", said)
            # ("Going forward, give me sources": what lasts is said of the request)
            and not (lasting is not None and lasting.fullmatch(self.text[start:turn].strip(" ,")))
        ):
            # "Changed my mind, give me detailed answers": a request after a remark is a
            # request of its own.
            self.sentence(start, turn)
            self.sentence(turn, end)
            return
        question = said.rstrip(" )\"'”»").endswith("?") or self.asks_unmarked(start, end)
        conditional = re.match(
            r"(?:when|whenever|if|every time|each time)\s+(?:you|u)\b", said, re.I
        )
        # "From now on, …", "As a rule …", "A partir de ahora …": a word of lasting opens a
        # standing instruction ("For me, tea beats coffee" is a taste).
        opener = self.lang.opens["lasting"]
        opened = opener.match(said) if opener is not None else None
        lasting_start = (
            _AFTER_A_WORD.match(said, opened.end())
            if opened is not None and opened.group().strip().casefold() != "for me"
            else None
        )
        bare = said[lasting_start.end() :] if lasting_start else said
        request = (
            self.opens("request_openers", bare)
            or conditional is not None
            or (NO_THING.match(bare) is not None and style_aspect_of(bare) is not None)
            or self.verb_me(bare)  # "Pitch me three ideas", "Get me a list"
        )
        if request and VERDICT_FRAME.search(bare) and style_aspect_of(bare) is None:
            # "Give me a paperback over an e-reader any day": a choosing said as a request
            # for the thing chosen is a taste, not a task.
            request = False
        conditional = conditional or (lasting_start if request else None)
        if request or (question and self.has("lasting", said)):
            self.directive(said, start, end, standing=conditional is not None)
            return
        if question:
            lead = self.question_lead(start, end)
            if lead is not None:
                # A lead of no kind a person has only sets the question up ("I have a
                # question about taxes, …"), unless it says the user's thing of a type is a
                # new one ("I'm on Brave these days, how do I import my bookmarks?").
                before = len(self.ops)
                self.sentence(start, lead)
                self.ops[before:] = [
                    op
                    for op in self.ops[before:]
                    if op.kind != "add" or op.slot is not None or _new_thing(op.value)
                ]
            self.indirect(start, end, causal_only=True, told=lead)
            return
        spans = [
            piece
            for c_start, c_end in clauses(self.text, start, end)
            if trim(self.text[c_start:c_end], self.lang)
            for piece in self.introduced(c_start, c_end)
        ]
        about_user = any(self.about_user(trim(self.text[a:b], self.lang)) for a, b in spans)
        # Clauses about one thing stay one statement, in the user's words as written; a
        # clause about something else ("I'm vegetarian and I live in Ghent") is its own.
        groups: list[Group] = []
        first = trim(self.text[spans[0][0] : spans[0][1]], self.lang) if spans else ""
        # "Just got back from the dentist, my mouth is numb": what follows an occasion, of
        # no kind a person has, is how the occasion went.
        story = (
            bool(first)
            and self.episode(first)
            and not (CHANGE_OF_STATE.search(first) or ENDING.search(first))
        )
        for index, (c_start, c_end) in enumerate(spans):
            clause = trim(self.text[c_start:c_end], self.lang)
            if story and index > 0 and not (category_of(clause) or SWITCH.search(clause)):
                continue
            if len(spans) > 1 and LIFE_ENDED.search(clause):
                continue  # "Miso passed away; we adopted Pretzel": Miso is retired, not kept
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
                groups.append(Group(slot, [value], index, c_start, c_end, value != clause))
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
                # "I'm learning Italian now": a thing taken up is one more, not instead
                and not any(TAKEN_UP.search(v) for v in group.values)
            ):
                # "Switched to a Mac": the newest statement about the same thing goes (a
                # single-valued slot supersedes by itself, keeping the old value's history).
                self.ops.append(Op("retract", group.slot, NEWEST, said))
            if len(group.values) == 1:
                value = group.values[0]
            elif group.edited:
                value = ", ".join(v.rstrip(".!") for v in group.values)
            else:  # as written, separators and all
                value = trim(self.message[group.start : group.end], self.lang)
            # A change said outright ("I moved over to marketing") replaces what was said
            # last when nothing of its own kind was said before.
            self.ops.append(Op("add", group.slot, value, said, NEWEST if changed else None))


# What may follow a thing said to have ended, within its clause ("not vegan anymore").
_STILL_ENDED = re.compile(r"(?:\s*\b(?:any ?more|for me|now|these days)\b)*\s*", re.I)
# A name, of a place or a thing, past a sentence's first word.
_PROPER = re.compile(r"(?<=[\w,;:]\s)(?-i:[A-Z])[\w'’-]+(?:\s+(?-i:[A-Z])[\w'’-]+)*")
_POINTING = re.compile(r"(?:that's|that is|it's|it is|there's)\s+(?:where|home|my)\b", re.I)
_HOME_HERE = re.compile(
    r"^(?:i\s+|i've\s+|we\s+|we've\s+)?(?:just\s+)?(?:moved|live|living|lived|been living|settled)"
    r"\s+(?:over\s+|out\s+)?here\b",
    re.I,
)


def _new_thing(value: str) -> bool:
    return bool(named_things(value)) and told_as_a_change(value)


# "mittens passed away 😢 got a kitten": in chat a face between two words ends the sentence
# before it, as a full stop would; a face is no word of either sentence. (Other pictures can
# stand for a word: "i ❤️ pizza".)
_FACES_AS_STOPS = re.compile(
    r"(?<=[\w)])[ \t]*[\U0001F600-\U0001F64F\U0001F910-\U0001F92F\U0001F970-\U0001F97F]"
    r"[\U0001F600-\U0001F64F\U0001F910-\U0001F92F\U0001F970-\U0001F97F\U0001F3FB-\U0001F3FF\uFE0F\s]*"
    r"[ \t](?=[^\W\d_])"
)

# Any other pictograph ends a sentence only before a question: "sushi is my jam 🍣 any tips
# for…?" (but "I love 🍕 and pasta": a pictograph may stand for a word), and so does a dash ("I'm
# a Sikh and I wear a turban — any tips for helmets that fit?").
_THINGS_BEFORE_A_QUESTION = re.compile(
    r"(?<=[\w)])(?:[ \t]*[\U0001F300-\U0001FAFF\u2600-\u27BF][\U0001F300-\U0001FAFF\u2600-\u27BF"
    r"\U0001F3FB-\U0001F3FF\uFE0F\u200D\s]*[ \t]|[ \t]*[—–][ \t]*|[ \t]+-[ \t]+)"
    r"(?=(?i:so\s+)?(?i:any|how|what|which|where|"
    r"when|why|who|can|could|should|would|is|are|do|does|tips|ideas|recommendations)\b)"
)

# What a person tells to be kept fits in a few sentences; past this a message is a document
# (a megabyte piped in), and reading all of it would hold the prompt for seconds.
MAX_READ = 10_000


def extract_rules(message: str, known: Sequence[Fact] = ()) -> Extraction:
    """The operations one user message proposes, secrets screened out. `known`: the facts
    learnt before it, which say whom a "she" or "his" stands for (`antecedents`)."""
    if not message.strip():
        return Extraction()
    message = with_antecedents(message, known)
    if len(message) > MAX_READ:
        head = message[:MAX_READ]
        end = max(head.rfind(mark) for mark in ".!?\n")
        message = head[: end + 1] if end > 0 else head
    category_of.cache_clear()
    # Capitals first, so that "names declan" is "name's Declan" once "declan" is a name. The
    # names stay capitalised in what is stored: a later "typo, it's Graz" corrects the name
    # it finds by its capital, as for a message written with capitals.
    language = language_of(message)
    if language != "en":
        return screen(_Reader(retyped(message, language)).read())
    message = _THINGS_BEFORE_A_QUESTION.sub(". ", _FACES_AS_STOPS.sub(". ", message))
    message = retyped(truecased(message), language)
    found = _Reader(message).read()
    # The split is read only when the whole told nothing, or the split heard a request the
    # whole did not ("…where I work Please forget it"). Split always, or whenever the split
    # read more, "I mainly write Rust these days, some Go at work" lost its languages to the
    # break before "Go" (dev2's tuned part 303 -> 296 and 302 of 311 as written).
    if (split := split_run_on(message)) is not None:
        again = _Reader(split).read()
        told = {op.kind for op in found}
        lapsed = any(op.kind == "retract" and op.slot == NEWEST for op in again)
        bare_lapse = lapsed and not any(op.slot == NEWEST for op in found)
        # ("Not so much now A back injury…": "not so much" alone is a lapse of its own, and
        # read whole it ended every word after it)
        # ("not at google anymore im at meta now", "sold the honda got a tesla": a split
        # the capitals did not mark hears what took the old one's place)
        ran_on = (split_before_i(split) and len(again) > len(found)) or (
            split_after_an_end(split, message) and bool(again)
        )
        if not found or {op.kind for op in again} - told - {"add"} or bare_lapse or ran_on:
            found = again
    refused = refused_name(message)
    if refused is not None:
        # "Please don't call me Mimi anymore": no name to keep, but one to leave
        found = [op for op in found if not (op.kind == "add" and op.slot == "name")]
    named = any(op.slot == "name" for op in found)
    chosen = renamed(message, known) if known and not named else []
    if chosen:
        # "Actually I prefer Robert": the name said again, not a liking of Robert
        name = chosen[0].value
        found = [op for op in found if not (op.kind == "add" and name in op.value)]
        found = [*found, *chosen]
    elif refused is not None:
        found = [*found, Op("retract", None, refused, message)]
    if known:
        found = [*found, *new_of_a_type(message, known, found)]
    return screen(_with_recounts(found, message))


def _with_recounts(found: list[Op], message: str) -> list[Op]:
    """The numbers the message gives as how things are now (`quantities`), after what the
    reader heard, unless the reader heard a correction or an end of its own in them."""
    if any(op.kind in ("update", "retract", "forget") for op in found):
        return found
    ops = [*found]
    heard = any(op.kind == "add" for op in found)
    for sentence in _SENTENCE_END.split(message):
        counted = recounts(sentence)
        ops.extend(counted)
        kind = category_of(counted[0].evidence) if counted and not heard else None
        if kind is not None and kind.slot == "age":
            # "Turning 40 next month and weirdly fine about it. What health checks…?": the
            # user's age told before a question is kept as told, whether or not one was before
            ops.append(Op("add", "age", counted[0].evidence, sentence))
    return ops


# A name set aside after the one chosen: "… than Sasha", "… instead of Sasha".
_SET_ASIDE = re.compile(
    r",?\s+(?:rather than|instead of|than|over)\s+(?-i:[A-Z])[\w'’-]+(?=\s*[,.;!]|\s*$)"
)
# Taking something up adds it to what the user does: "learning Italian", "took up golf".
TAKEN_UP = re.compile(
    r"\b(?:learning|started|starting|taking up|took up|getting into|got into|picked up|"
    r"began|beginning|trying out|also)\b",
    re.IGNORECASE,
)
_AFTER_A_WORD = re.compile(r"[,\s]+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
