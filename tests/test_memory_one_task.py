"""A request about the form of a reply that points at one piece of work is that work's,
not a standing preference; one about the form of every reply is kept."""

from __future__ import annotations

import pytest
from memorykit import remembered


@pytest.mark.parametrize(
    "message",
    [
        "Use a table to compare these two phone plans for me.",
        "For this one, give me numbered steps.",
        "In this answer only, skip the intro.",
        "Tell my brother to always back up his laptop, he never does.",
        "My uncle always said: never trust a skinny chef.",
    ],
)
def test_what_is_for_one_task_or_someone_elses_words_is_no_preference(message: str) -> None:
    block = remembered(message)
    assert "reply" not in block
    assert "back up" not in block
    assert "skinny" not in block


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        ("Could you drop the bullet points? Just write plain paragraphs.", "paragraphs"),
        ("Please keep replies short, I read these on my phone.", "short"),
        ("Use tables for comparisons from now on, like this one.", "tables"),
        ("Work nights at a bakery.", "bakery"),
    ],
)
def test_a_standing_request_about_every_reply_is_kept(message: str, kept: str) -> None:
    assert kept in remembered(message)


def test_a_task_asked_with_can_u_sets_no_lasting_style() -> None:
    """ "can u explain quantum computing like im 5" became a standing reply preference: the
    polite opener typed as "can u" hid the task from the test of one task's instruction."""
    assert "- " not in remembered("can u explain quantum computing like im 5")
