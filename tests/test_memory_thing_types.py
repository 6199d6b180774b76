"""A change named by the new thing alone replaces the old thing of the same type: the two
statements share no word, but both name a phone, an editor, an employer's shop."""

from __future__ import annotations

import pytest
from memorykit import remembered

from ctxchat.providers.memory.thing_types import named_things


@pytest.mark.parametrize(
    ("said", "then", "old", "new"),
    [
        ("I mostly code in Java.", "These days it's mostly Kotlin for me.", "java", "kotlin"),
        ("I always fly with easyJet.", "Ryanair is my go-to airline now.", "easyjet", "ryanair"),
        ("I work at Tesco.", "I'm with Sainsbury's now, better hours.", "tesco", "sainsbury"),
        ("I have an Android phone.", "I've gone over to the iPhone side.", "android", "iphone"),
        ("I use VS Code.", "Moved to Neovim and I'm not going back.", "vs code", "neovim"),
        (
            "I'm on a Samsung phone.",
            "Went back to an iPhone, missed iMessage.",
            "samsung",
            "iphone",
        ),
        (
            "We use Slack at work.",
            "Our company moved everything to Microsoft Teams.",
            "slack",
            "teams",
        ),
        ("I bank with Barclays.", "I bank with Monzo now, much better app.", "barclays", "monzo"),
    ],
)
def test_a_new_thing_of_the_same_type_replaces_the_old(
    said: str, then: str, old: str, new: str
) -> None:
    block = remembered(said, then)
    assert new in block
    assert old not in block


@pytest.mark.parametrize(
    ("said", "then"),
    [
        ("I code in Python at work.", "I'm learning Rust now."),  # one more, not instead
        ("I have an iPhone.", "My wife got a Pixel now."),  # hers
        ("I use Firefox.", "I also use Chrome now for work."),
        ("I use VS Code.", "I use Neovim sometimes."),  # no change is said
        ("I use Linux.", "We finally replaced the windows in the kitchen."),  # not the OS
        ("I use Firefox.", "Chrome has a new update now that broke my extension."),  # it acts
        ("I use Linux at home.", "We moved the office to Windows, I'm stuck with it at work."),
        ("I fly British Airways.", "Booked a Ryanair flight for the stag do now, ugh."),  # once
    ],
)
def test_one_more_or_someone_elses_replaces_nothing(said: str, then: str) -> None:
    assert said.casefold().rstrip(".") in remembered(said, then)


def test_a_name_that_is_also_a_common_word_counts_only_capitalised() -> None:
    assert named_things("I go swimming and rust never sleeps") == {}
    assert named_things("dead pixels, two pythons") == {}  # plurals, no names
    assert named_things("Sainsburys") == {"supermarket": {"sainsbury"}}
    assert named_things("Rust and Go") == {"programming language": {"rust"}}
    assert named_things("javascript, not java") == {"programming language": {"javascript", "java"}}


def test_a_return_to_a_thing_is_a_change_and_a_return_to_a_place_a_story() -> None:
    assert "tech: i went back to an iphone" in remembered("I went back to an iPhone.")
    assert "hotel" not in remembered("I went back to my hotel after the talk.")


def test_what_a_company_moved_to_is_no_home() -> None:
    block = remembered("I live in Leeds.", "Our company moved everything to Microsoft Teams.")
    assert "leeds" in block


def test_a_new_thing_told_before_a_question_replaces_the_old() -> None:
    block = remembered("I mostly use Firefox.", "I'm on Brave these days, how do I move my tabs?")
    assert "brave" in block
    assert "firefox" not in block
    # a lead that names no new thing of the user's still only sets its question up
    assert remembered("I have a question about Firefox, is it safe?") == ""


def test_a_question_typed_without_its_mark_is_still_a_question() -> None:
    block = remembered(
        "I drive a Subaru Outback.",
        "my neighbour just bought a Ford F-150 and keeps parking it across my driveway, "
        "how do I bring it up politely",
    )
    assert "subaru" in block
    assert "ford" not in block
    # a clause that only goes on with the lead is no question
    assert "crowds" in remembered("Not a fan of crowds, which is why I skip festivals.")
