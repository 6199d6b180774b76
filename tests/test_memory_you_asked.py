"""What the user tells before a question put by its subject alone ("…, you know any good
routes?", "…, tu as une recette ?") is told, as before one with a question word."""

from __future__ import annotations

import pytest
from memorykit import remembered


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("Je suis intolérante au gluten, tu as une recette de crêpes sans gluten ?", "gluten"),
        ("I'm a keen cyclist, you know any good routes near Bath?", "cyclist"),
    ],
)
def test_the_lead_before_the_question_is_kept(message: str, word: str) -> None:
    assert word in remembered(message)


def test_the_question_itself_is_not() -> None:
    assert "routes" not in remembered("I'm a keen cyclist, you know any good routes near Bath?")
