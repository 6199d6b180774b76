"""A truth of the world or a motto ("Honesty is the best policy", "Hard work always pays
off") is nobody's fact or taste; a taste said without "I", or a fact of the user's, still is."""

from __future__ import annotations

import pytest
from memorykit import remembered


@pytest.mark.parametrize(
    "message",
    [
        "Honesty is the best policy.",
        "Hard work always pays off in the end.",
        "Kindness costs nothing.",
        "Life is short.",
    ],
)
def test_a_motto_is_not_kept(message: str) -> None:
    assert remembered(message) == ""


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("Nothing beats a good Negroni.", "negroni"),
        ("My patience with cold weather is limited, I live in Oslo.", "oslo"),
        ("weirdly love olives now", "olives"),
        ("Always late, sorry, I work nights at a bakery.", "bakery"),
    ],
)
def test_a_taste_or_a_fact_is_still_kept(message: str, word: str) -> None:
    assert word in remembered(message)
