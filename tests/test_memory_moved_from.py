"""A change said as "from the old one to the new" ("moved from Barclays to HSBC"): the old
one is retired and the new one is of the same kind, whatever the verb says on its own; and a
thing of the user's given a new value ("changed my major to …") is what holds since."""

from __future__ import annotations

from memorykit import remembered


def test_from_the_old_to_the_new_keeps_the_old_ones_kind() -> None:
    said = remembered("I work at Tesco.", "I moved from Tesco to Sainsbury's in March.")
    assert "tesco" not in said
    assert "work: i moved to sainsbury's" in said


def test_a_move_from_a_home_is_a_new_home() -> None:
    said = remembered("I live in Preston.", "We moved from Preston to Lancaster.")
    assert "preston" not in said
    assert "home: we moved to lancaster" in said


def test_a_thing_of_the_users_given_a_new_value_lasts() -> None:
    said = remembered("I changed my course to geology.")
    assert "geology" in said
