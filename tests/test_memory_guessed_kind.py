"""A statement filed as a job only by its word's ending ("I'm a smoker") and a job said
outright do not retire each other; a guessed job that says it is how things are now does."""

from __future__ import annotations

import pytest
from memorykit import remembered


@pytest.mark.parametrize(
    "turns", [("I'm a smoker.", "I'm a nurse."), ("I'm a nurse.", "I'm a smoker.")]
)
def test_a_guessed_job_and_a_named_one_are_both_kept(turns: tuple[str, str]) -> None:
    said = remembered(*turns)
    assert "smoker" in said
    assert "nurse" in said


def test_a_guessed_job_said_to_hold_now_replaces_the_job() -> None:
    said = remembered("I'm a welder.", "I'm an illustrator now.")
    assert "illustrator" in said
    assert "welder" not in said
