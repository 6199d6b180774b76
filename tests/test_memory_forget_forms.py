"""Requests to forget said in forms the reader used to miss or mistake: a plea not to forget,
the user forgotten whole, "all of that except …", and "only keep …"."""

from __future__ import annotations

from memorykit import remembered


def test_a_plea_not_to_forget_forgets_nothing() -> None:
    said = remembered("I'm vegan.", "Don't forget me.")
    assert "vegan" in said


def test_forget_me_completely_forgets_everything() -> None:
    assert remembered("I'm Omar.", "I live in Lima.", "Start over, forget me completely.") == ""


def test_all_of_that_except_spares_what_is_named() -> None:
    said = remembered(
        "I'm Lena.", "I'm a lawyer.", "I live in Graz.", "Forget all of that except where I live."
    )
    assert "graz" in said
    assert "lawyer" not in said
    assert "lena" not in said


def test_only_keep_my_name_forgets_the_rest() -> None:
    said = remembered("I'm Hana.", "I'm a dentist.", "Only keep my name, nothing else.")
    assert "hana" in said
    assert "dentist" not in said


def test_only_keep_about_a_reply_forgets_nothing() -> None:
    said = remembered("I'm Hana.", "Only keep answers short.")
    assert "hana" in said
