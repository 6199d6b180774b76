"""A message typed without full stops is read sentence by sentence where its capitals show
that a new sentence starts, and only where reading it whole told nothing or missed a
request."""

from __future__ import annotations

import pytest
from memorykit import ops_of, remembered

from ctxchat.providers.memory.run_on import split_run_on


@pytest.mark.parametrize(
    ("typed", "split"),
    [
        (
            "Started pottery classes last month The teacher says I am a natural",
            "Started pottery classes last month. The teacher says I am a natural",
        ),
        ("forget my address Don't keep it", "forget my address. Don't keep it"),
        ("sorry about that It's been a week", "sorry about that. It's been a week"),
    ],
)
def test_a_capitalised_word_after_a_lower_case_one_starts_a_sentence(
    typed: str, split: str
) -> None:
    assert split_run_on(typed) == split


@pytest.mark.parametrize(
    "typed",
    [
        "I love hiking. My dog comes along",  # the writer uses stops: theirs are the breaks
        "we adopted a puppy and named him Max",  # a word that is a name as well
        "my son Will starts school soon",
        "we stayed at The Grand for a week",  # after a word that cannot end a sentence
        "it's all Elixir at work now",
        "the town I grew up in is tiny",  # "I" opens clauses as often as sentences
        "if I were rich Id sail round the world",
        "so tired today",
    ],
)
def test_no_sentence_starts_where_the_capital_means_something_else(typed: str) -> None:
    assert split_run_on(typed) is None


def test_a_run_on_message_that_told_nothing_whole_is_read_by_its_sentences() -> None:
    said = remembered("Started pottery classes last month The teacher says I am a natural")
    assert "pottery classes" in said
    assert "teacher" not in said  # the teacher's verdict is not the user's fact


def test_a_run_on_message_read_whole_is_not_cut() -> None:
    typed = "I mainly write Rust these days"
    assert split_run_on(typed) == "I mainly write. Rust these days"  # a break it might take
    assert ("add", "tech", typed) in ops_of(typed)


def test_a_request_heard_only_in_the_split_is_obeyed() -> None:
    for request in ("Honestly my employer is private Delete it", "That was personal Wipe it"):
        said = remembered("I work at Initech.", request).casefold()
        assert "initech" not in said
        assert "private" not in said


def test_i_after_a_word_that_ends_a_clause_starts_a_sentence() -> None:
    block = remembered("I work at Google.", "not at google anymore im at meta now")
    assert "meta" in block
    assert "google" not in block


def test_i_inside_a_sentence_starts_none() -> None:
    assert split_run_on("the city I love most is Rome") is None


def test_now_that_opens_a_clause_ends_none() -> None:
    assert split_run_on("and now I write code at a startup") is None


def test_a_verb_after_what_ended_starts_a_clause() -> None:
    assert split_run_on("sold the honda got a tesla last week") == (
        "sold the honda, got a tesla last week"
    )
    block = remembered("I play tennis on Sundays.", "gave up tennis doing pilates instead")
    assert "pilates" in block
    assert "tennis on sundays" not in block
