"""Preferences and aims said in shapes other than "I like" or "I want": a form of reply that
suits the user, a request to write in a form, an aim named with no owner."""

from __future__ import annotations

import pytest

from tests.memorykit import remembered


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        ("A warm, informal tone suits me best.", "informal"),
        ("Short paragraphs work for me, nothing denser.", "paragraphs"),
        ("pls write in lowercase, caps look like yelling", "lowercase"),
        ("The long-term goal is to open a bakery.", "bakery"),
        ("The dream is to retire somewhere near the sea.", "retire"),
    ],
)
def test_a_preference_or_aim_said_without_i_is_kept(message: str, kept: str) -> None:
    assert kept in remembered(message)


@pytest.mark.parametrize(
    "message",
    [
        "The plan is to meet at six and grab dinner.",
        "Write in the style of a pirate: a note to my team about lunch.",
    ],
)
def test_an_evenings_plan_or_a_writing_task_is_not(message: str) -> None:
    assert remembered(message) == ""
