"""Forgetting by what a fact is about, and requests to forget said as "don't keep" in any of
its forms: a fact kept in the user's words is of every kind its words hold, the place said
beside another fact goes with the home, and "but remember …" spares what it names."""

from __future__ import annotations

from memorykit import remembered


def test_forgetting_a_kind_reaches_a_fact_whose_words_hold_it() -> None:
    # The statement is read as work first ("I own a …"), and is also a thing owned.
    said = remembered("I own a 2009 Skoda Fabia.", "I like tea.", "Forget about my car.")
    assert "tea" in said
    assert "skoda" not in said


def test_forgetting_the_home_drops_the_place_said_with_another_fact() -> None:
    said = remembered("I'm a plumber in Swindon.", "Forget where I live, please.")
    assert "swindon" not in said
    assert "plumber" in said


def test_but_remember_spares_what_it_names() -> None:
    said = remembered(
        "I'm Aziz and I work at Ocado in Hatfield.", "Drop my job, but remember my name."
    )
    assert "aziz" in said
    assert "ocado" not in said


def test_any_negated_verb_of_keeping_asks_to_forget() -> None:
    for request in (
        "You don't have to remember my job.",
        "Don't hang onto my job.",
        "Stop tracking where I work.",
        "I'd rather you didn't hold onto my job.",
    ):
        said = remembered("I work as a welder.", "I like tea.", request)
        assert "welder" not in said, request
        assert "tea" in said, request
        # The request itself is no fact about the user.
        assert said.count("\n- ") == 1, request


def test_the_user_not_keeping_something_is_no_request() -> None:
    said = remembered("I live in Hull.", "We don't keep pets at home.")
    assert "hull" in said


def test_let_the_thing_go_and_not_in_your_memory_ask_to_forget() -> None:
    assert "darts" not in remembered("I play darts.", "You can let the darts thing go.")
    assert "pottery" not in remembered(
        "I do pottery.", "My pottery doesn't need to be in your memory."
    )
    # Letting someone go somewhere asks nothing of the memory.
    assert "darts" in remembered("I play darts.", "Let the dog go out.")


def test_im_called_gives_the_name() -> None:
    said = remembered("I'm called Ilse.", "Please unsave my name.")
    assert "ilse" not in said
