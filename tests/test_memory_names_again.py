"""A name said again as the one to use replaces the stored name, in the stored words."""

from __future__ import annotations

import pytest
from memorykit import remembered


@pytest.mark.parametrize(
    ("said", "then", "old", "new"),
    [
        ("Call me Rob.", "Actually I prefer Robert, Rob feels too casual.", "rob.", "robert"),
        (
            "You can call me Liz.",
            "Elizabeth, please. Liz was my school nickname.",
            "liz.",
            "elizabeth",
        ),
        ("I'm Kate.", "Actually, Katherine is better.", "kate", "katherine"),
    ],
)
def test_a_form_of_the_name_chosen_replaces_it(said: str, then: str, old: str, new: str) -> None:
    block = remembered(said, then)
    assert new in block
    assert old not in block
    assert block.count("- ") == 1


@pytest.mark.parametrize(
    "then",
    [
        "Please use British spelling.",  # a capital that is no name
        "My daughter Sophie prefers pasta, please.",  # someone else's
        "Paris is better for the trip, actually.",  # a place, no form of the name
        "Is Robert a better name, do you think?",  # a question
    ],
)
def test_another_capital_leaves_the_name(then: str) -> None:
    assert "call me rob." in remembered("Call me Rob.", then)


def test_a_name_typed_in_lower_case_is_said_again_too() -> None:
    block = remembered("call me rob.", "actually i prefer robert, rob feels too casual.")
    assert "robert" in block
    assert block.count("- ") == 1


def test_a_name_asked_for_in_a_long_turn_replaces_the_old() -> None:
    block = remembered(
        "You can call me Jamie.",
        "Actually I'd rather you call me James from now on, I'm using you for work emails "
        "and it feels more professional. Can you draft a polite follow-up to a client?",
    )
    assert "james" in block
    assert "jamie" not in block


def test_a_spelling_corrected_before_a_request_corrects_the_name() -> None:
    block = remembered(
        "My name is Mohammed.",
        "typo earlier, it's Muhammad with a u, thats how its spelled on my passport. "
        "can you help me fill in this visa form?",
    )
    assert "muhammad" in block
    assert "mohammed" not in block


def test_a_name_gone_by_now_replaces_the_old() -> None:
    block = remembered("Call me Alex.", "I'm going by Sam these days.")
    assert "sam" in block
    assert "alex" not in block


def test_going_by_a_word_in_lower_case_names_no_one() -> None:
    assert "alex" in remembered("Call me Alex.", "I'm going by train to work these days.")


def test_a_full_name_given_with_work_keeps_both() -> None:
    block = remembered("I'm Sarah Thompson, I run a small bakery.")
    assert "sarah thompson" in block
    assert "bakery" in block


@pytest.mark.parametrize(
    ("then", "new"),
    [
        ("Please don't call me Mimi anymore, it's a bit too cutesy. Miriam, please.", "miriam"),
        ("Stop calling me Mimi, it's Miriam.", "miriam"),
    ],
)
def test_a_name_refused_gives_way_to_the_one_chosen(then: str, new: str) -> None:
    block = remembered("You can call me Mimi.", then)
    assert new in block
    assert "mimi" not in block


def test_a_name_refused_alone_leaves_no_name() -> None:
    block = remembered("Call me Mike.", "Don't call me Mike.")
    assert "mike" not in block


def test_refusing_another_name_keeps_the_stored_one() -> None:
    block = remembered("Call me Mike.", "Please don't call me Mimi anymore.")
    assert "call me mike" in block
    assert "mimi" not in block


def test_what_is_said_after_a_forgotten_name_goes_with_it() -> None:
    block = remembered("call me Jazzy, all my mates do", "please forget Jazzy")
    assert "mates" not in block


@pytest.mark.parametrize(
    "then", ["I'd rather you call me Alex than Sasha.", "Call me Alex instead of Sasha, please."]
)
def test_a_name_set_aside_for_another_is_not_kept(then: str) -> None:
    block = remembered("Friends call me Sasha.", then)
    assert "alex" in block
    assert "sasha" not in block


def test_a_name_chosen_after_a_change_of_mind_replaces_the_old_one() -> None:
    said = remembered(
        "I'm Margaret, but you can call me Maggie.", "Changed my mind, go with Greta."
    )
    assert "greta" in said
    assert "maggie" not in said


def test_what_to_call_the_user_is_kept_beside_a_task() -> None:
    said = remembered("Please address me as Dr. Adeyemi. I'd like a summary of statins.")
    assert "adeyemi" in said
