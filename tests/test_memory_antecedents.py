"""Whom "she", "he", "her" and "his" stand for, from the facts said before; and what a new
word about one person or pet replaces of what was said of them."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from memorykit import remembered

from ctxchat.providers.memory.antecedents import with_antecedents
from ctxchat.providers.memory.facts import Fact

T = datetime(2025, 3, 1, tzinfo=UTC)


def facts(*values: str) -> list[Fact]:
    return [Fact(f"F{i}", "family", v, T, T) for i, v in enumerate(values)]


@pytest.mark.parametrize(
    ("known", "said", "read"),
    [
        (["My sister lives in Paris."], "she moved to Berlin", "my sister moved to Berlin"),
        (
            ["Our cat is called Misty."],
            "Her name is Mitsy actually.",
            "My cat's name is Mitsy actually.",
        ),
        (
            ["My brother is a chef.", "My mum is 70."],
            "He quit last month.",
            "My brother quit last month.",
        ),
        (["My son is 7."], "I said 7 but he's 8.", "I said 7 but my son's 8."),
    ],
)
def test_a_pronoun_that_opens_a_clause_is_the_person_said_before(
    known: list[str], said: str, read: str
) -> None:
    assert with_antecedents(said, facts(*known)) == read


@pytest.mark.parametrize(
    "said",
    [
        "I told her about you.",  # an object, not who the clause is about
        "My neighbour Kate is lovely, she moved here in May.",  # the message says who
        "Her dog is huge.",  # someone else's dog, not the sister's
        "He said yes!",  # no man or boy was named before
        "She's so sweet!",  # a moment's delight, perhaps at someone else's
    ],
)
def test_a_pronoun_the_facts_do_not_explain_is_left_alone(said: str) -> None:
    assert with_antecedents(said, facts("My sister lives in Leeds.")) == said


def test_a_change_said_with_a_pronoun_replaces_what_it_changes() -> None:
    said = remembered("My sister lives in Paris.", "My sister is a nurse.", "She moved to Berlin.")
    assert "berlin" in said
    assert "paris" not in said
    assert "nurse" in said


def test_a_pet_renamed_with_a_pronoun_keeps_one_name() -> None:
    said = remembered(
        "My hamster is called Nibbles.", "I said Nibbles but his name is actually Nugget."
    )
    assert "nugget" in said
    assert "nibbles" not in said.replace("i said nibbles", "")


@pytest.mark.parametrize(
    ("first", "second", "kept"),
    [
        ("My sister lives in Rome.", "My sister is a nurse.", "rome"),
        ("My wife is 41.", "She's at work till 6 now.", "41"),
        ("My son is 7.", "My son started piano lessons.", "7"),
    ],
)
def test_a_new_word_of_a_person_keeps_what_was_said_of_another_kind(
    first: str, second: str, kept: str
) -> None:
    """ "My sister is a nurse" retired "My sister lives in Rome": both are about her, and
    they are not of one kind."""
    assert kept in remembered(first, second)
