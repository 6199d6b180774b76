"""A number said again as how things are now replaces the number of the earlier fact it is
about, found by what the fact is about, never by another person's or pet's number."""

from __future__ import annotations

import pytest
from memorykit import ops_of, remembered


@pytest.mark.parametrize(
    ("before", "after", "new", "old"),
    [
        # the same one named: a name, or a word for a person or pet of the user's
        ("My son Theo is 9.", "Theo turned ten last week!", "ten", "is 9"),
        ("Our cat Mochi is 2.", "Mochi is 3 now", "3", "is 2"),
        # the same thing counted: the unit or noun after the number
        ("I cycle 80km a week.", "Up to 120km a week now.", "120km", "80km"),
        ("We grow twelve tomato plants.", "Make that fifteen tomato plants.", "fifteen", "twelve"),
        ("I take 50mg of sertraline.", "They raised it to 100mg.", "100mg", "50mg"),
        # "that" of the thing: the newest fact with a number
        ("I have three guitars.", "Make that four, couldn't resist.", "four guitars", "three"),
        # the user's own age, told by a birthday or "turned"
        ("I'm 29.", "Turned 30 on Sunday, send help", "30", "29"),
        ("I'm 51.", "It was my 52nd birthday yesterday.", "52", "51"),
    ],
)
def test_a_number_said_as_now_replaces_the_one_it_is_about(
    before: str, after: str, new: str, old: str
) -> None:
    said = remembered(before, after)
    assert new in said
    assert old not in said


@pytest.mark.parametrize(
    ("before", "after", "kept"),
    [
        ("I'm 38.", "My brother just turned 40!", "i'm 38"),
        ("I'm 38.", "My friend turned 40 yesterday!", "i'm 38"),
        ("My daughter Ava is six.", "Her friend Mia turned seven today.", "ava is six"),
        ("I take 50mg of sertraline.", "Should I raise it to 100mg?", "50mg"),
        ("I have 2 dogs.", "Running 10 minutes late now, sorry", "2 dogs"),
        ("I'm 29.", "If I turned 40 tomorrow I'd panic.", "i'm 29"),
        ("I'm 29.", "My flat is 5 minutes from the station now.", "i'm 29"),
    ],
)
def test_a_number_of_someone_else_or_of_nothing_held_changes_nothing(
    before: str, after: str, kept: str
) -> None:
    assert kept in remembered(before, after)


def test_the_old_number_stays_in_the_facts_history() -> None:
    from memorykit import learn

    facts = learn("I'm on 20mg of citalopram.", "My doctor upped it to 40mg.")
    (fact,) = [f for f in facts.active() if "citalopram" in f.value.casefold()]
    assert "40mg" in fact.value
    assert [p.value for p in fact.history] == ["I'm on 20mg of Citalopram."]


def test_a_statement_of_the_new_number_takes_the_old_facts_place() -> None:
    said = remembered("I have two kids.", "I have three kids now.")
    assert "two kids" not in said
    assert said.count("three kids") == 1


def test_a_recount_is_an_update_op_with_the_new_number() -> None:
    assert ("update", None, "40mg") in ops_of("My doctor upped it to 40mg.")
    assert not ops_of("I ran 5k on Sunday.")


def test_a_number_told_before_a_question_is_said_again() -> None:
    said = remembered(
        "My son Ben is 9.",
        "Ben turned 10 on Saturday and wants a science kit, what would you recommend?",
    )
    assert "10" in said
    assert "is 9" not in said


def test_a_number_inside_the_question_changes_nothing() -> None:
    assert "is 9" in remembered("My son Ben is 9.", "If Ben turned 10, what would you get him?")


def test_the_number_is_the_one_in_the_clause_that_says_now() -> None:
    block = remembered("I have three cats.", "We gave one to my mum, so it's two cats now.")
    assert "two cats" in block
    assert "three" not in block


def test_two_numbers_in_the_clause_that_says_now_change_nothing() -> None:
    block = remembered("I have three cats.", "We gave one away, so two or four cats now.")
    assert "three cats" in block


@pytest.mark.parametrize("before", [(), ("I'm 38.",)])
def test_an_age_told_before_a_question_is_kept(before: tuple[str, ...]) -> None:
    block = remembered(
        *before,
        "Turning 40 next month and weirdly fine about it. What health checks should I book?",
    )
    assert "turning 40" in block
    assert "38" not in block


@pytest.mark.parametrize(
    ("said", "slot"),
    [
        ("As a 34-year-old, is it too late to learn piano?", "age:"),
        ("as a 19 y/o with zero credit history, how do i build some?", "age:"),
        ("My 7-year-old loves Lego, gift ideas?", "family:"),
    ],
)
def test_the_user_described_by_their_age_gives_it(said: str, slot: str) -> None:
    assert slot in remembered(said)
