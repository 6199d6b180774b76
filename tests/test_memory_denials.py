"""A clause that only denies what the message retires is not kept beside what it ended;
nor does a request about replies read as one to forget."""

from __future__ import annotations

from memorykit import remembered


def test_the_clause_after_a_denial_is_kept_without_it() -> None:
    block = remembered(
        "My hobby is knitting.", "I don't knit any more, pottery has taken over my weekends."
    )
    assert "pottery has taken over my weekends" in block
    assert "knit" not in block


def test_a_denial_of_what_was_told_leaves_no_fact_of_it() -> None:
    block = remembered("I'm allergic to penicillin.", "Turns out I'm not allergic to penicillin.")
    assert "penicillin" not in block


def test_a_denial_with_nothing_to_end_is_the_fact() -> None:
    assert "not allergic to penicillin" in remembered("I'm not allergic to penicillin.")


def test_a_denial_that_says_more_is_kept_whole() -> None:
    block = remembered("I love running.", "I don't really run anymore since my injury.")
    assert "since my injury" in block
    assert "love running" not in block


def test_a_contrast_with_nothing_told_before_keeps_both_sides() -> None:
    assert "tea not coffee" in remembered("I get up at six, tea not coffee, then a run.")


def test_asking_for_more_detail_from_now_on_is_a_lasting_length_not_a_forgetting() -> None:
    block = remembered(
        "I work as a paralegal.",
        "You can go into more detail from now on, I like thorough answers.",
    )
    assert "paralegal" in block
    assert "thorough answers" in block


def test_a_thing_that_can_go_is_still_forgotten() -> None:
    assert "paralegal" not in remembered("I work as a paralegal.", "The job stuff can go.")
