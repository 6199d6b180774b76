"""Several things said together with no "I": each is kept, and two of a kind that holds one
value are that one value."""

from __future__ import annotations

import pytest
from memorykit import remembered


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        ("egg-free, soy-free, and not big on anything fried", ["egg-free", "soy-free"]),
        (
            "sugar-free, meat-free, and a huge fan of long walks",
            ["sugar-free", "meat-free", "walks"],
        ),
    ],
)
def test_foods_left_out_said_together_are_one_diet(message: str, kept: list[str]) -> None:
    block = remembered(message)
    assert all(word in block for word in kept), block


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        ("Doing an evening pottery course on Tuesdays at the moment.", "pottery"),
        ("Running a small vintage shop in Hove.", "vintage shop"),
    ],
)
def test_a_statement_in_ing_with_its_i_left_out_is_kept(message: str, kept: str) -> None:
    assert kept in remembered(message)


def test_what_the_user_drives_is_forgotten_with_the_car() -> None:
    assert "skoda" not in remembered(
        "Driving a Skoda Octavia these days.", "Forget what car I have."
    )


def test_a_part_played_in_this_game_is_not_the_users() -> None:
    assert remembered("Playing a smuggler from Marseille in this game.") == ""


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        ("Freelance illustrator, mostly picture books and the odd album cover.", "album cover"),
        ("Two old tortoises, Hector and Maud, both older than me.", "hector and maud"),
    ],
)
def test_a_self_description_and_what_narrows_it_are_one_statement(message: str, kept: str) -> None:
    assert kept in remembered(message)


@pytest.mark.parametrize(
    "message", ["Waiting for the plumber, bored stiff.", "Three tickets for Friday, two adults."]
)
def test_a_list_of_the_moment_keeps_nothing(message: str) -> None:
    assert remembered(message) == ""
