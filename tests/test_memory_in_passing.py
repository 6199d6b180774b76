"""What the rules reader hears in passing: where the user lives or works, named inside a
question or a remark about someone else; a name given as "the name's …"; and a pet that is
someone else's."""

from __future__ import annotations

import pytest
from memorykit import remembered


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("What's the best way to get from my flat in Shoreditch to Heathrow?", "shoreditch"),
        (
            "How should I prep for my shift at the fire station after a long weekend?",
            "fire station",
        ),
        ("My landlord in Bilbao won't fix the heating. What are my rights as a tenant?", "bilbao"),
        ("The name's Okonkwo, but Kwo is fine.", "okonkwo"),
    ],
)
def test_a_place_or_name_said_in_passing_is_kept(message: str, word: str) -> None:
    assert word in remembered(message)


@pytest.mark.parametrize(
    "message",
    [
        "My neighbour's dog barks all night, what can I do?",
        "Is my house in order?",
    ],
)
def test_someone_elses_pet_or_a_plain_question_keeps_nothing(message: str) -> None:
    assert remembered(message) == ""


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("Someday I want to open a bookshop café.", "bookshop"),
        ("I'd love to retire in Portugal.", "portugal"),
    ],
)
def test_a_life_aim_is_kept(message: str, word: str) -> None:
    assert word in remembered(message)


def test_a_want_about_a_file_is_no_aim() -> None:
    assert remembered("I want to open the file in vim.") == ""
