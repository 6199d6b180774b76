"""What holds for the moment (a delay, a day off, a mood, an hour of the night, a stay of a
few days, what is about to happen), a wish, a role given to the listener and a request for
ideas keep nothing; the lasting facts beside them stay."""

from __future__ import annotations

import pytest
from memorykit import remembered


@pytest.mark.parametrize(
    "said",
    [
        "my train's delayed 40 mins 😭",
        "It's my day off and I'm doing nothing at all",
        "can't sleep, it's 4am and my brain won't stop",
        "I'm in a foul mood, don't ask",
        "we lost the final. I'm gutted",
        "I'm visiting Porto for 4 days in March.",
        "I'm just about to go into an interview, wish me luck!",
        "i wish my kitchen had more light",
        "you're my grumpy landlord and I'm asking for the deposit back, go",
        "I'd like some ideas for a rainy Sunday with the kids",
        "play my strict piano teacher telling me to practise",
    ],
)
def test_a_moment_a_wish_or_a_role_keeps_nothing(said: str) -> None:
    assert remembered(said) == ""


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("I wish you'd stop using so many emojis.", "emojis"),
        ("I'm sick of my job at the bank.", "bank"),
        ("You're my hero. I'm vegan by the way.", "vegan"),
    ],
)
def test_what_lasts_beside_such_words_is_kept(said: str, kept: str) -> None:
    assert kept in remembered(said)


@pytest.mark.parametrize(
    ("said", "kept"), [("I'm learning Perl.", "perl"), ("I'm studying law at King's.", "law")]
)
def test_a_pursuit_carried_on_is_kept(said: str, kept: str) -> None:
    assert kept in remembered(said)


@pytest.mark.parametrize("said", ["I'm learning a ton.", "I'm learning about tax today."])
def test_learning_of_no_pursuit_named_keeps_nothing(said: str) -> None:
    assert remembered(said) == ""
