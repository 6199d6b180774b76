"""Someone the user knows by their trade ("my supplier", "the recruiter"), doing what only a
person does, is the subject, not the user; the user's own work and family still count."""

from __future__ import annotations

import pytest
from memorykit import remembered


@pytest.mark.parametrize(
    "message",
    [
        "My supplier just raised prices 18%.",
        "The recruiter told me the salary band is 90-110k.",
    ],
)
def test_someone_of_a_trade_is_not_the_user(message: str) -> None:
    assert remembered(message) == ""


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("My daughter is a teacher.", "teacher"),
        ("my daily driver is a Pixel 8", "pixel"),
        ("My company went fully remote, so I work from home now.", "home"),
        ("I'm a recruiter in Leeds.", "recruiter"),
    ],
)
def test_the_users_own_still_count(message: str, word: str) -> None:
    assert word in remembered(message)
