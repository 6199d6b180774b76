"""Statements whose thing is not in them: an object named in another sentence ("I adore
it"), a subject pointed at ("songs like this"), a view of the world ("I think that…"), a
"here" that is not a self-introduction. Each keeps nothing; the lasting statements of the
same shapes still are kept."""

from __future__ import annotations

import pytest
from memorykit import remembered


@pytest.mark.parametrize(
    "message",
    [
        "Honestly I adore it and it keeps me going.",
        "Trying to sell it before the move, which is a pain.",
        "Rain is finally here.",
        "I'm here if you need anything.",
        "It'll be cold by then, so pack a scarf.",
        "Songs like this make me think of my grandad.",
        "That sunset is gorgeous to me.",
        "I think that schools should start later.",
        "I know firsthand how this affects small towns.",
    ],
)
def test_a_statement_whose_thing_is_elsewhere_keeps_nothing(message: str) -> None:
    assert remembered(message) == ""


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        ("I know Python inside out.", "python"),
        ("I speak Welsh, I know how hard it is.", "welsh"),
        ("This term I'm teaching chemistry.", "chemistry"),
        ("Marathon runner here.", "marathon"),
        ("I love it here in Porto.", "porto"),
        ("It's tough being a night nurse.", "night nurse"),
        ("It'll be hard as a first-time manager.", "manager"),
        ("My art matters to me. I use it to raise money for shelters.", "shelters"),
        ("My dad's name is Eamon, in case I mention him.", "eamon"),
    ],
)
def test_the_same_shapes_with_their_thing_in_them_are_kept(message: str, kept: str) -> None:
    assert kept in remembered(message)


def test_a_clause_is_not_cut_where_since_says_how_long_it_has_held() -> None:
    assert "since i was a kid and it's still my escape" in remembered(
        "I've been into chess since I was a kid and it's still my escape."
    )


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        ("I met the team, which has been great.", None),
        ("I gave a talk at the library, the first since I moved.", None),
        ("I have had migraines for years, which is rough.", "migraines"),
        ("I've gone by Sasha since I was nine.", "sasha"),
    ],
)
def test_what_lasts_is_said_in_the_main_clause_not_in_what_qualifies_it(
    message: str, kept: str | None
) -> None:
    """An occasion stays one though what follows it says "has been" or "since"."""
    if kept is None:
        assert remembered(message) == ""
    else:
        assert kept in remembered(message)


@pytest.mark.parametrize(
    ("message", "said"),
    [
        ("No worries, Ana! Your patience means so much to me.", "patience"),
        ("Yeah, dogs give us comfort and loyalty, plus we can always rely on them.", "comfort"),
        ("Great to hear, Sam! Sleep's a priority, so make sure you rest up yourself.", "sleep"),
        ("Totally! It's nice we both deal with the same stuff, it keeps us going!", "same stuff"),
    ],
)
def test_talk_to_the_listener_or_about_people_in_general_keeps_nothing(
    message: str, said: str
) -> None:
    assert said not in remembered(message)


@pytest.mark.parametrize(
    "message",
    [
        "Our loved ones give us strength to face anything.",
        "Our little routines give us comfort, don't they.",
        "Here's the quilt. My aim was to show how the seasons change.",
    ],
)
def test_a_saying_about_us_or_a_past_aim_keeps_nothing(message: str) -> None:
    assert remembered(message) == ""


def test_our_own_household_is_still_ours() -> None:
    assert "spaniel" in remembered("Our spaniel keeps us busy on weekends.")


@pytest.mark.parametrize(
    "message",
    [
        "Great shot! I love the snowy rooftops, it looks so peaceful.",
        "I'm after a rug that hides dog hair, any ideas where to look.",
        "Busy Saturday. The twins had a blast at the science fair.",
        "Best of all, my nephews are getting excited about the trip!",
    ],
)
def test_a_thing_at_hand_a_want_of_now_or_an_outing_keeps_nothing(message: str) -> None:
    block = remembered(message)
    assert "rooftops" not in block
    assert "rug" not in block
    assert "science fair" not in block
    assert "excited" not in block
