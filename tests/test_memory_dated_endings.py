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


def test_an_ending_that_names_no_thing_retires_the_newest_fact_of_its_kind() -> None:
    """ "I got laid off last week" names nothing that ended once its date is out, but its
    clause is about work: the job goes, not the fact said last."""
    said = remembered(
        "I work at Initech as an accountant.", "I love sushi.", "I got laid off last week."
    )
    assert "initech" not in said
    assert "i love sushi" in said


def test_a_bare_ending_of_no_kind_still_retires_the_newest_fact() -> None:
    assert "sushi" not in remembered("I love sushi.", "Not anymore.")


def test_a_phrase_said_to_hold_no_more_is_one_thing_not_each_word() -> None:
    """ "Not a big reader" retired every fact that held "big"."""
    assert "arsenal" in remembered("I'm a big Arsenal fan.", "Not a big reader.")
    assert "night owl" not in remembered("I'm a night owl.", "No longer a night owl.")
    assert "night shifts" in remembered("I work night shifts.", "No longer a night owl.")


def test_what_holds_no_more_is_the_negated_part_not_the_whole_clause() -> None:
    """ "I'm not vegan anymore, still love cheese though" retired "I love cheese": every
    word of the clause was retracted, and the change then took the newest fact for the
    one it replaced, though the diet it ended was in its own slot."""
    said = remembered(
        "I love cheese.", "I'm vegan.", "I'm not vegan anymore, still love cheese though."
    )
    assert "i love cheese" in said
    assert "diet: i'm vegan." not in said
    retracted = {
        o[2] for o in ops_of("I don't drive anymore, the bus is fine.") if o[0] == "retract"
    }
    assert retracted == {"drive"}
