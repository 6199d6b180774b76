"""A self-description as the one who does or loves something, said with no verb ("Huge
cricket fan", "Keen cyclist"): who the user is, kept in their words, of whatever kind."""

from __future__ import annotations

import pytest
from memorykit import remembered


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("Massive snooker fan.", "snooker"),
        ("Lifelong birdwatcher.", "birdwatcher"),
        ("Avid knitter.", "knitter"),
        ("Proud owner of a 1972 Beetle.", "beetle"),
    ],
)
def test_one_who_does_or_loves_something_is_the_user(said: str, kept: str) -> None:
    assert kept in remembered(said)


def test_a_day_or_a_thing_described_so_is_not() -> None:
    assert remembered("Huge order for work today.") == ""
    assert remembered("Massive fan of your work!") == ""
