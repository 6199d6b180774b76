"""In a long, chatty turn, a lasting fact is often told beside the day's news: in a fronted
"since" clause, or with how long it has held. It is kept; the day's news is not."""

from __future__ import annotations

import pytest
from memorykit import remembered

_CHAT = " Anyway, the bus was late again and I got soaked waiting for it. How was your week?"


@pytest.mark.parametrize(
    ("turn", "kept"),
    [
        (
            "Ever since we moved here from Halifax three years back, I still can't get used "
            "to the humidity." + _CHAT,
            "halifax",
        ),
        (
            "Since I got diagnosed with lupus back in college I've mostly learned to pace "
            "myself, but this week was rough." + _CHAT,
            "lupus",
        ),
        (
            "Went to the new bakery and they had nothing gluten-free. Since I got diagnosed "
            "with coeliac back in school I've mostly gotten used to it, but it still stings a "
            "bit when everyone's eating cake in front of you lol." + _CHAT,
            "coeliac",
        ),
        (
            "I've been doing judo every Tuesday night for about eight years now and tonight I "
            "finally got my brown belt!" + _CHAT,
            "judo",
        ),
    ],
)
def test_a_lasting_fact_told_beside_the_days_news_is_kept(turn: str, kept: str) -> None:
    said = remembered(turn)
    assert kept in said
    assert "soaked" not in said


def test_a_since_clause_without_a_date_is_not_kept_in_a_long_turn() -> None:
    turn = "Ever since I started that podcast you recommended, my commute flies by." + _CHAT
    assert "podcast" not in remembered(turn)
