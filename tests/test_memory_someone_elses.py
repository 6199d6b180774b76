"""Someone else's clause stays theirs when the user appears only later or as an object: an
"i" in the question after it ("…, what do i put in the card"), or "me" after a preposition
("the guy in the flat above me"). The user as one of the subjects is still the user."""

from __future__ import annotations

import pytest
from memorykit import remembered


@pytest.mark.parametrize(
    "message",
    [
        "my coworker Dana just had twins, what do i put in the card",
        "the guy in the flat above me is a drummer in a metal band",
        "My neighbour is very kind to me, she plays the cello.",
    ],
)
def test_another_persons_clause_is_not_the_users(message: str) -> None:
    assert remembered(message) == ""


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("My friend and I run a bakery in Porto.", "bakery"),
        ("My sister and me share a flat in Leeds.", "leeds"),
    ],
)
def test_the_user_among_the_subjects_is_kept(message: str, word: str) -> None:
    assert word in remembered(message)
