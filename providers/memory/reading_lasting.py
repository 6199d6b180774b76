"""The statement reader's part for time: whether a statement holds beyond the occasion it
was said on (not a feeling, a plan, a resolve, talk to the listener or one occasion), and
what is one occasion."""

from __future__ import annotations

import re

from .categories import category_of
from .clause_patterns import FAVOURITE, JUDGED_ACTIVITY, QUOTE, REACTION, content_words
from .reading import ReaderBase
from .remark_patterns import (
    DISPOSITION,
    DREAM_TALK,
    HARD_THING,
    JUST_DONE,
    MAYBE_DONE,
    RESOLVE,
    STATE_SLOTS,
    SUBORDINATE,
    THINGS_OF_MINE,
    TOLD_AHEAD,
)
from .subject_patterns import ASIDES, DROPPED_I_PAST, TO_YOU, USER_SUBJECT
from .talk_patterns import (
    BECAUSE_FIRST,
    HOW_IT_IS,
    LOST_REFERENT,
    NOT_DONE_YET,
    OPINION,
    PAST_OF_A_THING,
    POINTED_AT,
    POINTED_AT_THE_END,
    POINTS_BACK,
    WE_SAID,
)
from .time_patterns import (
    CHANGE_OF_STATE,
    DATED,
    EPISODE,
    FEELING,
    HOW_LONG,
    INQUIRY,
    ONGOING,
    PLAN_AHEAD,
    PURSUIT,
    SINCE_A_CHANGE,
    SINCE_CHANGE,
)

# An aim said in the past is what something was for, not what the user aims at now.
AIM_WAS = re.compile(r"\b(?:aim|goal|plan|idea|intention|point)\s+was\s+to\b", re.I)
# "Our friends keep us going": what people of ours do for us all is a saying, not a fact.
OURS_TO_US = re.compile(r"our\s+(?:[\w'-]+\s+){1,2}(?:\w+\s+)?us\b", re.I)


# The user described, then someone or something the description names, described in turn.
_I_AM_WHO = re.compile(
    r"(?P<main>(?:i'm|i am|im)\s+(?:a|an)\s+[^,;]+?),?\s+(?:who|whose|which)\b", re.IGNORECASE
)


class Lasting(ReaderBase):
    """Whether what is said lasts."""

    def lasting(self, clause: str) -> bool:
        """Whether a statement holds beyond the occasion it was said on."""
        category = category_of(clause)
        felt = FEELING.search(clause) or REACTION.search(clause) or JUDGED_ACTIVITY.search(clause)
        # "Blue's my fave, it makes me feel relaxed": a favourite said, then why.
        if felt and not FAVOURITE.search(clause.split(",")[0]):
            return False
        ahead = PLAN_AHEAD.search(clause) and not DISPOSITION.search(clause)
        # (an intention to live or work otherwise is a goal: `slot_of` says so)
        if ahead and self.slot_of(clause) not in TOLD_AHEAD:
            return False
        if category is None and RESOLVE.search(clause) and not DISPOSITION.search(clause):
            return False  # "I won't quit", "I'm gonna make it": resolve, not fact
        if INQUIRY.search(clause) or MAYBE_DONE.search(clause):
            return False  # (and "I may have found a job": not yet so)
        if category is not None and category.slot == "goals" and DREAM_TALK.search(clause):
            return False  # "keep chasing those dreams": a motto, no goal named
        if AIM_WAS.search(clause):
            return False  # "My aim was to show warmth": what one piece of work was for
        # "I'm always here for you, Mel!": said to the listener, by name.
        # (but "I'm in Cardiff, Wales": a place after a place)
        called = re.search(r"(\S+),\s*[A-Z][a-z]+[.!?]*$", clause)
        vocative = called is not None and not called.group(1)[:1].isupper()
        if vocative and category is None:
            return False
        if HARD_THING.match(clause) or PAST_OF_A_THING.match(clause):
            return False  # "Running a business isn't easy", "The energy was motivating"
        # (but what to call the user is said to the listener, in a long turn too)
        named = category is not None and category.slot == "name"
        if TO_YOU.search(ASIDES.sub(" ", clause)) and (
            category is None or (self.chatty and not named)
        ):
            return False  # speaks to the listener: "your words mean a lot to me"
        slot = self.slot_of(clause)
        if slot is None and THINGS_OF_MINE.match(clause):
            # "My code compiles but the tests hang", "my phone keeps autocorrecting": a
            # thing of the user's doing something, of no kind a person has, is the
            # moment's trouble, not who the user is.
            return False
        if HOW_IT_IS.search(clause) or NOT_DONE_YET.search(clause):
            return False  # "I love how uncomplicated it is", "I haven't done pottery yet"
        if OPINION.match(clause):
            return False
        if (
            LOST_REFERENT.search(clause)
            or POINTED_AT.match(clause)
            or POINTED_AT_THE_END.search(clause)
        ):
            return False  # "I adore it", "songs like this…": the thing is elsewhere
        if slot is None and (
            WE_SAID.match(clause) or POINTS_BACK.match(clause) or OURS_TO_US.match(clause)
        ):
            # "we rock as a team!", "I see them once a week": of no kind a person has, said
            # of a group or of something named elsewhere, it is talk.
            return False
        if slot is None:
            # "I'm doing nursing instead" is what holds since a change, not an activity.
            # (but what one is learning or studying is a pursuit: "I'm learning Perl")
            ongoing = ONGOING.match(clause) and not (
                HOW_LONG.search(clause) or SINCE_CHANGE.search(clause) or PURSUIT.match(clause)
            )
            if len(content_words(clause)) < 2 or ongoing:
                # "Yeah", "Been a long road", "I'm staying positive" (but "been learning
                # the cello since May" says how long: it lasts)
                return False
            subject = BECAUSE_FIRST.sub("", clause)  # ("Ever since we moved here from…")
            began = SINCE_A_CHANGE.match(clause) is not None and bool(DATED.search(clause))
            if self.chatty and not (
                began or (HOW_LONG.search(clause) and USER_SUBJECT.match(subject))
            ):
                # In a long turn of a conversation, a remark of no kind a person has (no
                # category) is talk, not something told to be kept; but a state said to
                # have held for so long, or since a change of a date told, lasts.
                return False
        # One occasion, with its "I" or without ("Finished the report at last"); but who the
        # user is stays so whatever happened to the one a relative clause names ("I'm a carer
        # for my dad, who had a stroke two years ago").
        described = _I_AM_WHO.match(clause)
        episode = self.episode(described["main"] if described else clause)
        # An occasion that changed something a person has for good ("got diagnosed with
        # diabetes", "opened my own bakery") is told for what it left behind.
        left_state = category is not None and category.slot in STATE_SLOTS
        # "I loved 'Becoming Nicole'": a feeling about a work named is a taste, not an outing.
        left_state = left_state or (
            category is not None
            and category.slot in ("likes", "dislikes")
            and bool(QUOTE.search(clause))
        )
        # What lasts is said in the main clause: "I gave a talk, the first since coming out"
        # is still one occasion.
        main = SUBORDINATE.split(clause, maxsplit=1)[0]
        return not (episode and not CHANGE_OF_STATE.search(main) and not left_state)

    def episode(self, clause: str) -> bool:
        """One occasion, with its "I" or without ("Finished the report at last")."""
        return bool(
            EPISODE.search(clause)
            or JUST_DONE.match(clause)
            or (DROPPED_I_PAST.match(clause) and self.slot_of(clause) is None)
        )
