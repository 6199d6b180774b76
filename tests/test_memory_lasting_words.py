"""Words that say an instruction lasts ("from here on", "going forward") make a wish about
the replies a reply style, whatever verb asks it; alone, they say nothing."""

from __future__ import annotations

import pytest
from memorykit import remembered, slots_of


@pytest.mark.parametrize(
    ("said", "kind"),
    [
        ("I'd like detailed explanations with worked examples from here on.", "reply_length"),
        ("I'd appreciate a formal tone going forward.", "reply_tone"),
    ],
)
def test_a_wish_about_replies_said_to_last_is_a_reply_style(said: str, kind: str) -> None:
    assert kind in slots_of(said)


def test_a_wish_for_one_answer_is_no_reply_style() -> None:
    assert remembered("I'd like a detailed explanation of photosynthesis.") == ""


def test_a_word_of_lasting_alone_is_kept_as_nothing() -> None:
    assert "going forward" not in remembered("Going forward, I'll be working from home more.")
