"""Preferences and aims said in shapes other than "I like" or "I want": a form of reply that
suits the user, a request to write in a form, an aim named with no owner."""

from __future__ import annotations

import pytest
from memorykit import remembered


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


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        (
            "Thanks, Jo. Running clears my head, like nothing else does, honestly, every time. "
            "I want to live simply and help others do the same.",
            "live simply",
        ),
    ],
)
def test_an_aim_to_live_otherwise_in_a_long_turn_is_a_goal(message: str, kept: str) -> None:
    assert kept in remembered(message)


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        ("I'm the only IT person at a small charity.", "it person"),
        ("Tough week. I taught my last class this year.", "last class"),
    ],
)
def test_an_it_or_a_this_that_names_its_thing_is_no_lost_one(message: str, kept: str) -> None:
    assert kept in remembered(message)


def test_a_resolve_about_a_thing_named_elsewhere_keeps_nothing() -> None:
    assert remembered("Tough week. I'm gonna make this work!") == ""


@pytest.mark.parametrize(
    ("message", "name"),
    [
        ("It's Dom btw, short for Dominika", "dom"),
        ("I'm Kat, short for Katarzyna.", "kat"),
    ],
)
def test_a_name_with_an_aside_after_it_is_the_users_name(message: str, name: str) -> None:
    block = remembered(message)
    assert "- name: " in block
    assert name in block
