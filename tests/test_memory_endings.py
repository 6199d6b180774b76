"""How the rules reader hears a change that names what ended: the ended thing is retired, the
words that end it are kept out of what is stored, and a couple as the subject stays one
statement."""

from __future__ import annotations

import pytest
from memorykit import remembered

from ctxchat.providers.memory.quantities import quantities


@pytest.mark.parametrize(
    ("before", "change", "kept", "gone"),
    [
        # A named person going is who went, not what they left.
        (
            "My manager is called Priya.",
            "Priya left the company; my new manager is Tom.",
            "tom",
            "priya",
        ),
        # What something was given for stays, without the old one's name in it.
        (
            "My car is a Toyota Yaris.",
            "Traded the Yaris in for a Subaru Outback.",
            "outback",
            "yaris",
        ),
        # An end said beside the new state, in a sentence with no "I".
        (
            "I mostly code in Java.",
            "These days it's Kotlin for everything, Java is history for me.",
            "kotlin",
            "java",
        ),
    ],
)
def test_an_end_named_beside_a_new_state_retires_the_old_and_keeps_only_the_new(
    before: str, change: str, kept: str, gone: str
) -> None:
    said = remembered(before, change)
    assert kept in said
    assert gone not in said


def test_a_thing_of_the_users_that_ended_is_retired_by_its_noun() -> None:
    said = remembered(
        "I play bass in a covers band.", "I love hiking.", "The band split up last month."
    )
    assert "hiking" in said
    assert "band" not in said


def test_a_plan_called_off_is_retired_and_its_reason_kept() -> None:
    said = remembered(
        "I'm training for a half marathon in April.",
        "Injured my knee, so the half marathon is off.",
    )
    assert "knee" in said
    assert "marathon" not in said


def test_a_couple_as_subject_is_one_statement_that_a_parting_retires() -> None:
    assert "ana" in remembered("My girlfriend Ana and I live together.")
    assert (
        remembered("My girlfriend Ana and I live together.", "Ana and I broke up in October.") == ""
    )


def test_a_name_then_and_i_is_still_two_statements() -> None:
    said = remembered("My name's Tom and I work at a bank.", "Forget where I work.")
    assert "tom" in said
    assert "bank" not in said


def test_ended_up_with_ends_nothing() -> None:
    said = remembered("I work at a tech company.", "We ended up with some awesome sponsors.")
    assert "tech company" in said


def test_a_change_said_outright_in_any_form_replaces_what_was_said_last() -> None:
    said = remembered(
        "Python is what I write all day at work.",
        "Update: I changed teams and it's all Elixir now, so show me Elixir examples from here on.",
    )
    assert "elixir" in said
    assert "python" not in said


def test_the_user_set_to_a_task_by_others_is_the_users_work() -> None:
    said = remembered(
        "I've taught physics at the high school for six years.",
        "Scratch the physics part: this year they've got me teaching biology instead.",
    )
    assert "biology" in said
    assert "physics" not in said


def test_a_job_taken_beside_an_end_is_the_new_job() -> None:
    said = remembered(
        "I'm a photographer.", "I took a staff job at a newspaper, photography is behind me."
    )
    assert "newspaper" in said
    assert "i'm a photographer" not in said


def test_a_thing_stolen_is_a_thing_no_longer_had() -> None:
    block = remembered("I ride a Brompton to work.", "My Brompton got stolen last night.")
    assert "brompton" not in block


def test_aiming_for_something_is_a_goal() -> None:
    assert "goal: i'm aiming for a half marathon" in remembered("I'm aiming for a half marathon.")


def test_what_took_the_ended_things_place_told_as_it_is_kept() -> None:
    block = remembered("I code in Java.", "Quit Java, it's all Rust now.")
    assert "rust" in block
    assert "java." not in block


def test_it_after_an_ending_that_is_no_replacement_is_not_kept() -> None:
    assert "raining" not in remembered("I drive a Ford.", "Sold the car, it's raining now.")


@pytest.mark.parametrize(
    "then",
    [
        "My Trek got stolen last week so now I'm taking the bus.",
        "The Trek was written off in the crash, so I'm walking to work now.",
    ],
)
def test_a_thing_lost_in_the_passive_ends_the_subject_not_what_follows(then: str) -> None:
    before = remembered("I have a Trek road bike.", "I take the bus on rainy days.")
    assert "trek" in before
    block = remembered("I have a Trek road bike.", "I take the bus on rainy days.", then)
    assert "trek" not in block
    assert "bus on rainy days" in block


@pytest.mark.parametrize("said", ["a Mazda CX-5", "an F-150", "the RTX-4090 I got"])
def test_a_model_number_is_no_count(said: str) -> None:
    assert quantities(said) == []


def test_a_named_one_lost_is_retired() -> None:
    block = remembered(
        "My cat Whiskers is 14 and still going strong.",
        "We lost Whiskers in the spring and have just adopted a greyhound called Pepper.",
    )
    assert "still going strong" not in block
    assert "pepper" in block


def test_a_thing_lost_is_not_a_death() -> None:
    assert "keys" not in remembered("I lost my keys again.")
