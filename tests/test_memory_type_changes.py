"""A new thing of a type the user keeps one of, named in passing, replaces the stored one of
its type; someone else's, one asked about, or one only planned replaces nothing."""

from __future__ import annotations

import pytest
from memorykit import remembered


@pytest.mark.parametrize(
    ("before", "after", "new", "old"),
    [
        (
            "I drive a Toyota Corolla.",
            "Collected a Kia Niro on Friday!! The garage took the Corolla in part exchange.",
            "niro",
            "corolla",
        ),
        (
            "I'm on a Pixel 7.",
            "my new iphone keeps dropping wifi?? any fix",
            "iphone",
            "pixel",
        ),
        (
            "My laptop is a Dell XPS.",
            "the MacBook Pro arrived this morning and the xps went to my nephew. how do I "
            "set up Time Machine?",
            "macbook",
            "xps",
        ),
        (
            "We host everything on AWS.",
            "Moved us over to Hetzner last week, how do I set up backups there?",
            "hetzner",
            "aws",
        ),
        (
            "I keep my logins in Bitwarden.",
            "switched to Dashlane after the price change, can it import CSV?",
            "dashlane",
            "bitwarden",
        ),
    ],
)
def test_a_new_thing_of_a_held_type_told_in_passing_replaces_the_old_one(
    before: str, after: str, new: str, old: str
) -> None:
    said = remembered(before, after)
    assert new in said
    assert old not in said


@pytest.mark.parametrize(
    "after",
    [
        "my neighbour just bought a Ford Ranger and parks it on my side, what do I say?",
        "My sister got a Kia Niro, is it a good car?",
        "Is a Kia Niro worth the money?",
        "thinking of trading it for a Kia Niro next year",
    ],
)
def test_a_thing_someone_else_has_asked_about_or_planned_replaces_nothing(after: str) -> None:
    assert "corolla" in remembered("I drive a Toyota Corolla.", after)
