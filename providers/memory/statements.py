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

from .categories import category_of, style_aspect_of
from .change_patterns import (
    CHANGE,
    ENDING,
    EXCHANGE,
    LAPSE_SAID,
    LAPSED,
    LIFE_ENDED,
    NO_LONGER,
    NO_MORE,
    NOT_X,
    SWITCH,
)
from .clause_patterns import (
    ADVICE,
    FAVOURITE,
    FINITE,
    JUDGED_ACTIVITY,
    NOT_MEANT,
    OF_THE_TALK,
    PASTE_INTRO,
    QUOTE,
    REACTION,
    SHOUTED_PRAISE,
    STYLE_SAID,
    TASK_VERB,
    TEXT_LABEL,
    WORD,
    WORK_ON,
    content_words,
)
from .ops import NEWEST, Extraction, Op
from .reading import Group, clauses, ended_thing, sentences, trim
from .reading_fixes import Corrections
from .reading_requests import Requests
from .reading_short import ShortMessages
from .remark_patterns import (
    CARE_SAYS,
    DISPOSITION,
    DREAM_TALK,
    HARD_THING,
    JUST_DONE,
    LASTING_DESPITE_PLANS,
    LEFT_FOR,
    PRONOUN,
    RESOLVE,
    STATE_SLOTS,
    THANKS,
    THINGS_OF_MINE,
    TOLD_AHEAD,
)
from .secrets import screen
from .slots import slot_info
from .subject_patterns import (
    ADVERBS,
    ASIDES,
    DROPPED_I_PAST,
    MINE,
    MY_PEOPLE,
    NAME_INTRO,
    OTHER_PEOPLE,
    REPORTED,
    SELF_AS_PERSON,
    SELF_INTRO,
    SOMEONE_ELSE,
    TO_YOU,
    USER_SUBJECT,
    YOURS,
)
from .talk_patterns import (
    ALSO,
    HOW_IT_IS,
    LOST_REFERENT,
    MIND_CHANGED,
    NO_THING,
    NOT_DONE_YET,
    NOT_SO,
    PAST_OF_A_THING,
    POINTS_BACK,
    RENAMED,
    VERDICT_FRAME,
    WE_SAID,
    WHEN_FIRST,
)
from .time_patterns import (
    CHANGE_OF_STATE,
    DATED_END,
    EPISODE,
    FEELING,
    HOW_LONG,
    MOMENT,
    ONGOING,
    PASSING,
    PLAN,
    PLAN_AHEAD,
    SINCE_CHANGE,
)


class _Reader(Requests, ShortMessages, Corrections):
    def read(self) -> list[Op]:
        text = self.text
        if NOT_MEANT.search(text) or SHOUTED_PRAISE.search(text) or self.brief(text):
            return []
        if self.form():
            return self.ops
        paste = PASTE_INTRO.search(self.message)
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
        said = trim(self.text[start:end], self.lang)
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
            for c_start, c_end in clauses(self.text, start, end)
            if trim(self.text[c_start:c_end], self.lang)
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
