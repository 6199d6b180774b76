"""A thing moved to another time, or a preference said again in other words, replaces the
fact that named it, whatever kind of fact that was."""

from __future__ import annotations

from memorykit import remembered


def test_a_habit_moved_to_another_day_retires_the_old_day() -> None:
    block = remembered(
        "I go swimming every Tuesday morning.", "Moved my swim to Thursday evenings."
    )
    assert "thursday" in block
    assert "tuesday" not in block


def test_a_schedule_change_of_something_else_keeps_the_habit() -> None:
    block = remembered("I go swimming every Tuesday morning.", "Moved my dentist to Thursday.")
    assert "tuesday" in block


def test_a_preference_changed_in_other_words_retires_the_one_it_names() -> None:
    block = remembered(
        "I prefer aisle seats.", "Window seats for me from now on, I sleep on flights."
    )
    assert "window" in block
    assert "aisle" not in block


def test_a_noun_that_names_nothing_in_particular_ties_no_two_facts() -> None:
    block = remembered(
        "I volunteer with homeless people on Sundays.",
        "Now I'm passionate about creating a safe place for people to grow.",
    )
    assert "homeless" in block


def test_moving_back_home_to_a_place_is_a_new_home() -> None:
    block = remembered("I live in Sydney.", "Packed up and moved back home to Auckland.")
    assert "home: packed up and moved back home to auckland" in block
    assert "sydney" not in block
