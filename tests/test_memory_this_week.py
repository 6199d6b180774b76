"""A state said to hold this week is for the moment ("I'm on call this week"); a change made
this week is what holds now ("I started a new job this week")."""

from __future__ import annotations

from memorykit import remembered


def test_a_state_for_this_week_is_not_kept() -> None:
    assert remembered("I'm on call this week so replies might be slow") == ""


def test_a_change_made_this_week_is_kept() -> None:
    assert "job" in remembered("I started a new job this week.")
