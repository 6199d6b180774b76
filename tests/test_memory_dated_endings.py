"""An ending said with its date retires the thing that ended, never what else was said of
that date."""

from __future__ import annotations

from memorykit import ops_of, remembered


def test_the_date_of_an_ending_retires_nothing_of_its_own() -> None:
    said = remembered("My birthday is in May.", "I work at Google.", "I left Google in May.")
    assert "birthday is in may" in said
    assert "google" not in said
    assert ("retract", None, "May") not in ops_of("I left Google in May.")


def test_a_part_of_the_day_that_names_the_thing_is_kept() -> None:
    assert ("retract", None, "morning") in ops_of("Gave up my morning runs.")
