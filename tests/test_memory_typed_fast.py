"""Updates typed the way people chat: no commas, no capitals, a face for a full stop."""

from __future__ import annotations

import pytest
from memorykit import remembered


def test_a_correction_without_its_comma_contrasts_the_value_after_not() -> None:
    # "meant X not Y": the comma before "not" left out, "I" dropped from "I meant".
    memory = remembered("my favourite colour is green", "meant teal not green")
    assert "teal" in memory
    assert "green" not in memory
    memory = remembered("i'm allergic to wasps", "oops i meant bees not wasps")
    assert "bees" in memory
    assert "wasps" not in memory


def test_a_not_after_a_verb_is_no_contrast() -> None:
    memory = remembered("sorry i do not drink milk")
    assert "milk" in memory


def test_a_name_typed_in_lower_case_is_retired_when_it_dies() -> None:
    memory = remembered("my tortoise is called pebble", "pebble died last winter")
    assert "pebble" not in memory


def test_a_pronoun_that_dies_names_no_one() -> None:
    memory = remembered("my goldfish is called bubbles", "she died, so sad")
    assert "bubbles" in memory


def test_a_face_between_two_sentences_ends_the_first() -> None:
    memory = remembered(
        "my parrot is called kiwi", "kiwi passed away 😭 adopted a budgie called sky"
    )
    assert "kiwi" not in memory
    assert "sky" in memory


def test_what_holds_instead_after_a_comma_is_kept_with_its_i_dropped() -> None:
    memory = remembered("i work as a barista", "no longer a barista, studying law now")
    assert "studying law" in memory
    assert "barista" not in memory


def test_an_adverb_before_a_verb_with_its_i_dropped_keeps_the_statement() -> None:
    memory = remembered("i hate mushrooms", "strangely love mushrooms these days")
    assert "love mushrooms" in memory
    assert "hate mushrooms" not in memory


def test_a_name_given_to_the_object_is_no_subject_of_a_dropped_i_verb() -> None:
    # "someone called Alex": "called" names the one just mentioned; the "I" is left out.
    memory = remembered("seeing someone named alex now")
    assert "alex" in memory


def test_a_lapse_typed_without_its_stop_is_a_sentence_of_its_own() -> None:
    """ "Not so much now A back injury…" read whole retracted every word after "not so
    much" (back, injury, swimmer) and kept the running."""
    memory = remembered(
        "I run 40 miles a week.", "Not so much now A back injury turned me into a swimmer"
    )
    assert "swimmer" in memory
    assert "40 miles" not in memory


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("sushi is my jam 🍣 any tips for finding a decent place when I travel?", "sushi"),
        ("Shellfish allergy here 🦐🚫 so what should I order at a tapas bar?", "shellfish"),
        ("I love 🍕 and pasta.", "pasta"),
    ],
)
def test_a_pictograph_before_a_question_ends_the_statement(said: str, kept: str) -> None:
    block = remembered(said)
    assert kept in block
    assert "?" not in block


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("Doing a part-time MBA on weekends at the moment.", "mba"),
        (
            "currently doing an apprenticeship in electrical engineering alongside college.",
            "apprentice",
        ),
        ("Currently sitting in an airport lounge in Doha.", None),
    ],
)
def test_a_sentence_with_its_i_left_out_after_a_word_of_time(said: str, kept: str | None) -> None:
    block = remembered(said)
    assert (kept in block) if kept else "- " not in block
