"""A short correction that gives a value beside the one it contrasts ("XC90, not XC60"):
the stored value is corrected wherever it was kept, whatever else the message says."""

from __future__ import annotations

import pytest
from memorykit import remembered


@pytest.mark.parametrize(
    ("before", "correction", "new", "old"),
    [
        ("I drive a Volvo XC60.", "XC90, not XC60.", "xc90", "xc60"),
        ("My son is called Jake.", "Jack, sorry, not Jake. Fat fingers.", "jack", "jake"),
        (
            "I'm allergic to penicillin.",
            "Not penicillin, it's amoxicillin I react to.",
            "amoxicillin",
            "penicillin",
        ),
        (
            "My dog Biscuit is a beagle.",
            "He's a basset hound, not a beagle, people mix them up.",
            "basset",
            "beagle",
        ),
        ("I work for Google.", "Meant to say DeepMind, not Google proper.", "deepmind", "google"),
        (
            "We have a tabby called Milo.",
            "Milo's actually a ginger, not a tabby.",
            "ginger",
            "tabby",
        ),
        ("I'm from Austria.", "Sorry, Australia! Not Austria.", "australia", "austria"),
    ],
)
def test_the_contrasted_value_is_corrected_where_it_was_kept(
    before: str, correction: str, new: str, old: str
) -> None:
    said = remembered(before, correction)
    assert new in said
    assert old not in said


def test_a_statement_with_a_contrast_is_a_statement() -> None:
    said = remembered("I use Fahrenheit, not Celsius.")
    assert "fahrenheit" in said


@pytest.mark.parametrize(
    "then",
    [
        "it's actually mango I react to.",
        "the allergy panel came back and it's actually mango I react to, the old rash was a "
        "coincidence apparently. smoothie ideas?",
    ],
)
def test_an_allergy_said_to_be_another_one_replaces_it(then: str) -> None:
    block = remembered("I'm allergic to strawberries.", then)
    assert "mango" in block
    assert "strawberr" not in block


def test_an_allergy_told_beside_another_keeps_both() -> None:
    block = remembered("I'm allergic to strawberries.", "I react to mango too.")
    assert "mango" in block
    assert "strawberr" in block


@pytest.mark.parametrize(
    ("before", "then", "new", "old"),
    [
        (
            "I'm vegetarian.",
            "wait actually im vegan not vegetarian, so no eggs either",
            "vegan",
            "vegetarian",
        ),
        ("I'm 43.", "typo earlier, im 34 not 43 lol", "34", "43"),
        (
            "We have a beagle called Rosie.",
            "I misspoke, Rosie's a basset hound not a beagle.",
            "basset",
            "beagle",
        ),
    ],
)
def test_what_a_correction_keeps_leaves_out_the_wrong_value(
    before: str, then: str, new: str, old: str
) -> None:
    block = remembered(before, then)
    assert new in block
    assert old not in block


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("Sorry, I'm not vegetarian, I eat fish.", "not vegetarian"),
        ("Oops, I do not eat pork.", "not eat pork"),
    ],
)
def test_the_not_of_a_corrected_statement_itself_stays(said: str, kept: str) -> None:
    assert kept in remembered(said)


def test_a_contrast_in_a_short_sentence_of_a_longer_message_corrects() -> None:
    block = remembered(
        "My dog is called Biscuit.",
        "lol my phone autocorrected his name, it's Bisou, not Biscuit. he's walking a bit "
        "better today btw, the vet said it was just a sprain",
    )
    assert "bisou" in block
    assert "biscuit" not in block


def test_a_contrast_in_a_request_of_a_longer_message_corrects_nothing() -> None:
    block = remembered(
        "I code in Java at work.",
        "I'm writing a small tool for our team this week. Write the example in Python, not "
        "Java. It should read a CSV file and print the totals per month.",
    )
    assert "java" in block


def test_a_sentence_told_beside_a_correction_is_kept() -> None:
    block = remembered(
        "I'm originally from Cork.", "Sorry, from Kerry originally. Cork is where I studied."
    )
    assert "kerry" in block
    assert "cork is where i studied" in block
    assert "originally from cork" not in block


def test_a_full_name_given_for_a_surname_replaces_only_the_surname() -> None:
    block = remembered("I'm Priya Sharma.", "Sorry, so it's Priya Patel now, not Sharma.")
    assert "i'm priya patel" in block
    assert "sharma" not in block


def test_a_cry_before_a_contrast_is_no_value() -> None:
    block = remembered(
        "I'm doing keto at the moment.", "argh, not keto, I meant paleo. my brain today."
    )
    assert "paleo" in block
    assert "argh" not in block
    assert "keto" not in block


@pytest.mark.parametrize(
    "then",
    [
        "the capital of Australia is Canberra, not Sydney.",
        "Small correction to your answer: the capital of Australia is Canberra, not Sydney.",
        "No no, you got it wrong, it was Canberra that hosted it, not Sydney.",
    ],
)
def test_a_fact_of_the_world_corrected_leaves_the_users_alone(then: str) -> None:
    block = remembered("I live in Sydney.", then)
    assert "i live in sydney" in block
    assert "canberra" not in block


def test_the_user_corrected_beside_the_reply_is_heard() -> None:
    block = remembered("I'm vegetarian.", "You got it wrong, I'm vegan, not vegetarian.")
    assert "vegan" in block
    assert "vegetarian" not in block


def test_a_contrast_before_a_long_aside_in_a_long_message_corrects() -> None:
    block = remembered(
        "I live in Lisbon and want to find weekend hikes nearby.",
        "Looking for beginner trails within an hour of the city, nothing too steep. oh and "
        "it's Porto I live in, not Lisbon, my bad, no idea why I wrote that.",
    )
    assert "porto" in block
    assert "lisbon" not in block


def test_a_contrast_said_for_the_memory_in_a_longer_message_corrects() -> None:
    block = remembered(
        "I work at Deloitte.",
        "Quick fix for your notes: the firm's KPMG, not Deloitte. Must've been half asleep "
        "when I wrote that, long week.",
    )
    assert "kpmg" in block
    assert "deloitte" not in block
