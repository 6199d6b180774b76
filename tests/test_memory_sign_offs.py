"""A greeting, thanks or aside closing a statement ("I'm Gwen, nice to meet you") is no part
of what is stated: the statement is read as if it ended before the comma, in each language."""

from __future__ import annotations

import pytest
from memorykit import remembered


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("I'm Marit, nice to meet you.", "marit"),
        ("This is Osric, by the way.", "osric"),
        ("This is Osric, hi!", "osric"),
        ("I'm Marit, lovely to meet you!", "marit"),
        ("Ich heiße Marit, freut mich.", "marit"),
        ("Je m'appelle Marit, enchantée.", "marit"),
        ("Vivo en Sevilla, gracias.", "sevilla"),
    ],
)
def test_a_sign_off_after_a_statement_is_left_out(said: str, kept: str) -> None:
    block = remembered(said)
    assert kept in block
    for closing in ("meet you", "by the way", "hi!", "freut", "enchant", "gracias"):
        assert closing not in block
