"""Corrections and regrets read by their grammar: what a named thing "is" is the value a
correction gives; "Leo's actually 8" gives 8, not "Leo's"; and telling the assistant
something, named only by a question word or a pronoun, is not itself a fact."""

from __future__ import annotations

from memorykit import ops_of, remembered


def test_what_a_named_thing_is_said_to_be_is_the_corrected_value() -> None:
    said = remembered(
        "I work at Initech.", "Oops, got that wrong. The company is Globex, not Initech."
    )
    assert "globex" in said.casefold()
    assert "initech" not in said.casefold()
    assert "company is" not in said.casefold()


def test_a_persons_s_before_actually_is_is_not_the_value() -> None:
    said = remembered("My son Leo is 7.", "Leo's actually 8, I always forget.")
    assert "8" in said
    assert "7" not in said
    assert ("update", "*newest*", "Graz") in ops_of("Graz, actually.")  # a value before the cue


def test_having_told_the_assistant_something_is_no_fact() -> None:
    said = remembered(
        "I work at Initech.", "I should not have told you where I work. Please forget it."
    )
    assert "initech" not in said.casefold()
    assert "told you" not in said.casefold()
    assert "leeds" in remembered("I told you that I live in Leeds.").casefold()


def test_the_voice_asked_for_is_a_reply_tone() -> None:
    assert "reply tone: please talk to me like a friend" in remembered(
        "Please talk to me like a friend, not a textbook."
    )
