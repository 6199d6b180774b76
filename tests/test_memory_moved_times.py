"""A thing moved to another time replaces the fact that gave its old time, whatever kind
of fact that was."""

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
