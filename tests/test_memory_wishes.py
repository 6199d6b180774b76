"""A wish for what is not ("I wish I could…", "ojalá…") tells nothing that holds, in any of
the reader's languages; the same words said plainly are kept."""

from __future__ import annotations

import pytest
from memorykit import remembered


@pytest.mark.parametrize(
    "message",
    [
        "I wish I could speak Japanese fluently.",
        "If only I had a garden, I'd grow tomatoes.",
        "Ich wünschte, ich hätte einen Hund.",
        "Ojalá tuviera un piso en Madrid.",
        "Si seulement j'habitais à la mer.",
    ],
)
def test_a_wish_is_not_a_fact(message: str) -> None:
    assert remembered(message) == ""


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("I speak Japanese fluently.", "japanese"),
        ("Ich habe einen Hund.", "hund"),
        ("I wish you'd keep answers short.", "short"),
    ],
)
def test_the_same_words_said_plainly_are_kept(message: str, word: str) -> None:
    assert word in remembered(message)
