"""Idioms that read like a kind a person has and say nothing of it: a dream lived is no
home, speaking up is no language, and a thing that may have happened is not yet so."""

from __future__ import annotations

import pytest
from memorykit import remembered, slots_of


@pytest.mark.parametrize(
    ("said", "kind"),
    [
        ("I'm living my dream running a little bakery.", "home"),
        ("I'm living my best life these days.", "home"),
        ("I use my blog to speak up for people with disabilities.", "language"),
        ("I always speak to my manager first.", "language"),
    ],
)
def test_an_idiom_is_not_the_kind_its_words_suggest(said: str, kind: str) -> None:
    assert kind not in slots_of(said)


@pytest.mark.parametrize(
    ("said", "kind"), [("I'm living in Bath.", "home"), ("I speak Basque.", "language")]
)
def test_the_plain_words_still_say_the_kind(said: str, kind: str) -> None:
    assert slots_of(said) == {kind}


def test_a_thing_that_may_have_happened_is_not_kept() -> None:
    assert "canva" not in remembered("I may have found a job at Canva, fingers crossed.")


def test_what_may_have_been_said_before_is_still_told() -> None:
    assert "vegan" in remembered("I may have mentioned I'm vegan.")


def test_what_is_pointed_at_the_end_of_a_clause_is_named_elsewhere() -> None:
    assert remembered("I want my kids to learn that too.") == ""
    assert "patience" in remembered("I want my kids to learn patience too.")


@pytest.mark.parametrize(
    ("said", "kind"),
    [
        ("I feel like a proper grown-up now.", "likes"),
        ("I'm still dreaming about that lasagne.", "goals"),
        ("I'm running on three hours of sleep.", "hobby"),
        ("I got a photo of the baby this morning.", "possessions"),
    ],
)
def test_a_word_of_a_kind_in_another_sense_is_not_that_kind(said: str, kind: str) -> None:
    assert kind not in slots_of(said)


@pytest.mark.parametrize(
    ("said", "kind"),
    [
        ("I like hiking in the Peak District.", "likes"),
        ("My dream is to open a bakery.", "goals"),
        ("I go running every morning.", "hobby"),
        ("I got a Brompton last year.", "possessions"),
    ],
)
def test_the_same_word_in_its_own_sense_still_says_the_kind(said: str, kind: str) -> None:
    assert kind in slots_of(said)


@pytest.mark.parametrize(
    "said",
    [
        "I speak up for disabled people whenever I can.",
        "I always stand up for my coworkers.",
    ],
)
def test_a_cause_the_user_stands_for_is_a_value(said: str) -> None:
    assert slots_of(said) == {"values"}
