"""Requests to forget said in forms the reader used to miss or mistake: a plea not to forget,
the user forgotten whole, "all of that except …", and "only keep …"."""

from __future__ import annotations

import pytest
from memorykit import remembered


def test_a_plea_not_to_forget_forgets_nothing() -> None:
    said = remembered("I'm vegan.", "Don't forget me.")
    assert "vegan" in said


def test_forget_me_completely_forgets_everything() -> None:
    assert remembered("I'm Omar.", "I live in Lima.", "Start over, forget me completely.") == ""


def test_all_of_that_except_spares_what_is_named() -> None:
    said = remembered(
        "I'm Lena.", "I'm a lawyer.", "I live in Graz.", "Forget all of that except where I live."
    )
    assert "graz" in said
    assert "lawyer" not in said
    assert "lena" not in said


def test_only_keep_my_name_forgets_the_rest() -> None:
    said = remembered("I'm Hana.", "I'm a dentist.", "Only keep my name, nothing else.")
    assert "hana" in said
    assert "dentist" not in said


def test_only_keep_about_a_reply_forgets_nothing() -> None:
    said = remembered("I'm Hana.", "Only keep answers short.")
    assert "hana" in said


def test_each_kind_named_in_a_forget_request_goes() -> None:
    said = remembered(
        "I have high blood pressure.",
        "I'm Ravi.",
        "I like chess.",
        "Don't store the medical info or my name.",
    )
    assert "chess" in said
    assert "blood pressure" not in said
    assert "ravi" not in said


def test_a_kind_forgotten_spares_what_the_request_keeps() -> None:
    said = remembered(
        "I'm vegetarian.", "I'm allergic to soy.", "Forget my dietary stuff but keep the allergy."
    )
    assert "soy" in said
    assert "vegetarian" not in said


def test_forgetting_studies_takes_what_the_user_studies() -> None:
    said = remembered(
        "I'm studying nursing at Keele.", "I like chess.", "Remove what you know about my studies."
    )
    assert "chess" in said
    assert "nursing" not in said


def test_no_need_to_hold_on_to_and_let_go_of_ask_to_forget() -> None:
    said = remembered("I'm a pharmacist.", "I like tea.", "No need to hold on to my job anymore.")
    assert "tea" in said
    assert "pharmacist" not in said
    assert "tea" not in remembered("I like tea.", "You can let go of the tea thing.")


def test_a_forget_matching_no_word_takes_the_fact_of_the_same_stem_or_start() -> None:
    said = remembered(
        "Huge Potterhead over here.", "I like tea.", "Okay, forget the Harry Potter stuff."
    )
    assert "tea" in said
    assert "potterhead" not in said


def test_a_phrasal_verb_of_clearing_everything_forgets_everything() -> None:
    assert (
        remembered("I'm Dana and I live in Hull.", "Please wipe out everything you've got on me.")
        == ""
    )


@pytest.mark.parametrize(
    "then", ["Forget my job, not my city.", "Forget my job but not where I live."]
)
def test_what_a_forget_is_not_about_stays(then: str) -> None:
    block = remembered("I work at Initech.", "I live in Leeds.", then)
    assert "initech" not in block
    assert "leeds" in block


def test_ignore_that_before_a_contrast_corrects_rather_than_forgets() -> None:
    block = remembered(
        "I speak a bit of Portuguese.",
        "haha no, ignore that, it's Spanish I speak, not Portuguese. mixed them up",
    )
    assert "spanish" in block
    assert "portuguese" not in block


def test_an_earlier_statement_disregarded_for_a_new_one_is_replaced_not_forgotten() -> None:
    block = remembered(
        "For context, I drive a Volvo XC60.",
        "Please disregard my earlier statement regarding my vehicle. I drive an Audi Q5, not "
        "a Volvo. I apologise for any confusion.",
    )
    assert "audi q5" in block
    assert "volvo" not in block
    assert "apologise" not in block


def test_an_earlier_statement_disregarded_alone_is_forgotten() -> None:
    block = remembered(
        "I drive a Volvo XC60.", "Please disregard my earlier statement about my car."
    )
    assert "volvo" not in block


def test_losing_track_of_things_forgets_nothing() -> None:
    block = remembered(
        "I plan my week on Sundays.",
        "I was diagnosed with ADHD last year and I'm still figuring out how to plan my week "
        "without losing track of everything.",
    )
    assert "adhd" in block
    assert "sundays" in block
