"""A message typed fast, without apostrophes or capitals, is read as it is read written out:
contractions get their apostrophe back, and a writer who capitalises no names has the words
that are no English word taken for names."""

from __future__ import annotations

import pytest
from memorykit import remembered, slots_of

from ctxchat.providers.memory.retyping import retyped
from ctxchat.providers.memory.truecasing import capitalises_names, truecased


@pytest.mark.parametrize(
    ("typed", "written"),
    [
        ("im a nurse and i dont drive", "I'm a nurse and i don't drive"),
        ("Ive been vegan for years", "I've been vegan for years"),
        ("thats my cat, shes called Mochi", "that's my cat, she's called Mochi"),
        ("id rather not say", "I'd rather not say"),
        ("i think ill start running again", "i think I'll start running again"),
        ("Were in Leeds now.", "We're in Leeds now."),
        ("Its Dana from accounting.", "It's Dana from accounting."),
        ("The names Oriol.", "The name's Oriol."),
        ("sure, lets do it", "sure, let's do it"),
    ],
)
def test_an_english_contraction_typed_without_its_apostrophe_gets_it_back(
    typed: str, written: str
) -> None:
    assert retyped(typed, "en") == written


@pytest.mark.parametrize(
    "typed",
    [
        "I'm ill today.",  # the adjective, not "I'll"
        "I felt ill all week.",
        "Were you there?",  # a question: the verb
        "We were in Paris last year.",
        "my names are hard to spell",  # a plural before no name
        "He lets me borrow his car.",
        "Scan your id at the door.",
    ],
)
def test_a_word_that_reads_as_written_is_left_alone(typed: str) -> None:
    assert retyped(typed, "en") == typed


def test_other_languages_keep_their_own_words() -> None:
    assert retyped("Ich wohne im Norden.", "de") == "Ich wohne im Norden."
    assert retyped("Jadore le jazz et jai un chat.", "fr") == "J'adore le jazz et j'ai un chat."


@pytest.mark.parametrize(
    ("typed", "cased"),
    [
        ("im kwame btw", "im Kwame btw"),
        ("i live in vienna.", "I live in Vienna."),
        ("hey, farah here. i work in logistics.", "hey, Farah here. I work in logistics."),
    ],
)
def test_a_writer_who_capitalises_no_names_has_their_names_capitalised(
    typed: str, cased: str
) -> None:
    assert not capitalises_names(typed)
    assert truecased(typed) == cased
    assert len(truecased(typed)) == len(typed)  # offsets into the message still hold


@pytest.mark.parametrize(
    "typed",
    [
        "me llamo ximena",  # no English: its words are no names
        "i'm pescatarian",  # a word, by its ending, though no list has it
        "i'm grace",  # a name that is also a word stays a word
        "email me at sam@example.com",
    ],
)
def test_words_are_not_made_names(typed: str) -> None:
    capitalised = [w for w in truecased(typed).split() if w[0].isupper()]
    assert capitalised in ([], ["I'm"])


@pytest.mark.parametrize(
    "typed",
    [
        "i live in Vienna and my cat is misty",
        # A writer who capitalises sentences may name no one: their rarer words stay words.
        "Gonna continue my edu and check out career options.",
    ],
)
def test_a_writer_who_uses_capitals_is_taken_at_their_word(typed: str) -> None:
    assert capitalises_names(typed)
    assert truecased(typed) == typed


def test_a_name_and_a_home_typed_in_lower_case_are_remembered() -> None:
    assert "name" in slots_of("hey, im kwame btw")
    said = remembered("i live in vienna.", "scratch that, its graz.").casefold()
    assert "graz" in said
    assert "vienna" not in said


def test_a_request_typed_without_apostrophes_is_still_a_request() -> None:
    said = remembered("My email is sam@example.com.", "Dont remember my email.")
    assert "sam@" not in said
    said = remembered("I drink a lot of coffee.", "Ive given up coffee completely.")
    assert "a lot of coffee" not in said
