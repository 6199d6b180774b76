"""The pronouns a user goes by are who the user is: kept, and replaced when they change;
pronouns asked about, or a relative's, are not the user's."""

from __future__ import annotations

import pytest
from memorykit import remembered, slots_of


@pytest.mark.parametrize(
    "told",
    ["My pronouns are she/her.", "I use they/them pronouns.", "Mis pronombres son elle."],
)
def test_pronouns_told_are_kept_as_the_users(told: str) -> None:
    assert slots_of(told) == {"pronouns"}


def test_new_pronouns_replace_the_old_ones() -> None:
    said = remembered("My pronouns are he/him.", "My pronouns are they/them now.")
    assert "they/them" in said
    assert "he/him" not in said


@pytest.mark.parametrize(
    "said",
    [
        "What pronouns should I use for a nonbinary character?",
        "My daughter's pronouns are they/them.",
    ],
)
def test_pronouns_asked_about_or_of_someone_else_are_not_the_users(said: str) -> None:
    assert "pronouns" not in slots_of(said)
