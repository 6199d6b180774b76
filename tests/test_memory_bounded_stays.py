"""A stay with its end in sight ("in Lisbon for a conference", "back Thursday", "for the
weekend") is the moment's, not where the user lives, works or who their family is."""

from __future__ import annotations

import pytest
from memorykit import remembered


@pytest.mark.parametrize(
    "said",
    [
        "I'm in Valencia for a wedding.",
        "Seeing my cousin in Truro for the weekend.",
        "On a business trip to Oslo, back Friday.",
        "I'm at a hotel in Bruges until Sunday.",
    ],
)
def test_a_stay_with_its_end_in_sight_is_not_kept(said: str) -> None:
    assert remembered(said) == ""


def test_a_change_dated_to_this_week_still_lasts() -> None:
    assert "secondary school" in remembered("My daughter started secondary school this week.")
