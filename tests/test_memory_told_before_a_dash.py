"""What the user tells before a dash that opens a question is told ("I'm a Sikh and I wear a
turban — any tips…?"), and who the user is lasts whatever a relative clause says happened to
the one they name ("I'm a carer for my dad, who had a stroke two years ago")."""

from __future__ import annotations

import pytest
from memorykit import remembered


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("I'm a Sikh and I wear a turban — any tips for finding cycling helmets that fit?", "sikh"),
        ("I keep chickens - how do I stop foxes getting in?", "chickens"),
        ("I'm a carer for my dad who had a stroke two years ago.", "carer"),
    ],
)
def test_what_is_told_is_kept(message: str, word: str) -> None:
    assert word in remembered(message)


@pytest.mark.parametrize(
    "message",
    [
        "Quick one — how do I boil an egg?",
        "I went to a gig that was amazing last night.",
    ],
)
def test_a_question_or_an_occasion_is_not(message: str) -> None:
    assert remembered(message) == ""
