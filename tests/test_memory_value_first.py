"""A value said bare beside words of a mistake corrects the newest fact, however unlike the
old value it is; the talk about the mistake is not kept, and a filler said with an apology
corrects nothing."""

from __future__ import annotations

import pytest
from memorykit import remembered


@pytest.mark.parametrize(
    ("before", "after", "new", "old"),
    [
        (
            "Thor, my beagle, barks at the postman.",
            "Loki. Sorry. Norse gods, I mix them up.",
            "loki",
            "thor",
        ),
        (
            "My cat Basil sleeps all day.",
            "My bad, it's Sage. Herb names, easy to swap.",
            "sage",
            "basil",
        ),
        ("My second language is Hindi.", "Marathi, my mistake.", "marathi", "hindi"),
        ("I'm a vegetarian these days.", "ugh vegan* 🙃 typing too fast", "vegan", "vegetarian"),
        (
            "Big Lakers fan here.",
            "Clippers. Typed the wrong team, embarrassing.",
            "clippers",
            "lakers",
        ),
    ],
)
def test_a_bare_value_beside_a_mistake_replaces_the_value_it_corrects(
    before: str, after: str, new: str, old: str
) -> None:
    said = remembered(before, after)
    assert new in said
    assert old not in said
    for apology in ("sorry", "mistake", "wrong"):
        assert apology not in said


@pytest.mark.parametrize("after", ["Great, sorry about the long question.", "Right. Sorry!"])
def test_a_filler_said_with_an_apology_corrects_nothing(after: str) -> None:
    assert "i live in leeds." in remembered("I live in Leeds.", after)


@pytest.mark.parametrize(
    ("before", "after", "new", "old"),
    [
        ("I'm studying at Durham.", "hold on, it's York.", "york", "durham"),
        (
            "I'm a nurse at Leeds General.",
            "It's St. James's I work at, not Leeds General.",
            "st. james's",
            "general",
        ),
    ],
)
def test_a_value_said_after_stopping_or_after_a_title_corrects_the_fact(
    before: str, after: str, new: str, old: str
) -> None:
    said = remembered(before, after)
    assert new in said
    assert old not in said


@pytest.mark.parametrize("after", ["wait, it's Monday.", "oh wait, it's Christmas!"])
def test_a_day_said_after_stopping_corrects_nothing(after: str) -> None:
    assert "i live in leeds." in remembered("I live in Leeds.", after)


def test_a_job_guessed_by_its_ending_at_the_same_place_replaces_the_job() -> None:
    said = remembered("I'm a software engineer at an insurer.", "I'm a QA tester at the insurer.")
    assert "qa tester" in said
    assert "software engineer" not in said


def test_a_job_guessed_by_its_ending_elsewhere_leaves_the_job() -> None:
    assert "i work at a bank." in remembered("I work at a bank.", "I'm a smoker.")


@pytest.mark.parametrize(
    ("before", "after", "new", "old"),
    [
        (
            "I drive a Renault Clio.",
            "Renault? no, Dacia. Same group, I mix them up.",
            "dacia",
            "renault",
        ),
        (
            "My hometown team is Leeds United.",
            "did I say Leeds? I meant Hull. Hull City.",
            "hull",
            "leeds",
        ),
        ("I'm learning Perl at night.", "Python, I meant. Not Perl. Much nicer.", "python", "perl"),
        ("I'm 31.", "ok I lied, I'm 35 not 31. vanity.", "35", "31"),
    ],
)
def test_the_value_corrected_is_named_back_or_after_not(
    before: str, after: str, new: str, old: str
) -> None:
    said = remembered(before, after)
    assert new in said
    assert old not in said


def test_a_question_and_a_reply_word_correct_nothing() -> None:
    said = remembered("I live in Leeds.", "Really? I'm vegan too!")
    assert "leeds" in said
    assert "vegan" in said


@pytest.mark.parametrize(
    ("before", "after", "kept"),
    [
        (
            "I rent a flat in Braga.",
            "We might move to Faro next year if the job comes through.",
            "braga",
        ),
        (
            "I drive a Honda Jazz.",
            "Got a Ford Ranger rental for the camping trip, any tips?",
            "jazz",
        ),
    ],
)
def test_a_move_that_may_happen_or_a_rental_leaves_what_holds(
    before: str, after: str, kept: str
) -> None:
    assert kept in remembered(before, after)


@pytest.mark.parametrize(
    ("before", "after", "new", "old"),
    [
        ("My son is 7.", "9, not 7.", "9", "7"),
        (
            "I weigh 90 kg and want to lose 10 by summer.",
            "ugh 80, not 90. scale math at 6am.",
            "80",
            "90",
        ),
    ],
)
def test_a_number_for_a_number_corrects_it(before: str, after: str, new: str, old: str) -> None:
    said = remembered(before, after)
    assert new in said
    assert f" {old} " not in said.replace(".", " ")


@pytest.mark.parametrize(
    ("before", "after", "new", "old"),
    [
        (
            "My wife Clara's birthday is next week, gift ideas?",
            "omg Claire. her name is Claire.",
            "claire's",
            "clara",
        ),
        (
            "My toddler Hugo won't nap, help",
            "Hector. his name is Hector. so tired",
            "hector",
            "hugo",
        ),
    ],
)
def test_a_name_said_bare_then_said_again_as_the_name_corrects_it(
    before: str, after: str, new: str, old: str
) -> None:
    said = remembered(before, after)
    assert new in said
    assert old not in said
