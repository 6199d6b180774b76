"""An instruction about the answer, said beside a question or a task of the same message, is
for that answer ("What's the difference between a process and a thread? Keep it short.");
said alone, beside facts, or said to last, it is how the user wants to be answered."""

from __future__ import annotations

import pytest
from memorykit import remembered


def test_an_instruction_beside_a_question_is_for_that_answer() -> None:
    message = "What's the difference between a process and a thread? Keep it short."
    assert remembered(message) == ""


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("Keep it brief, please.", "brief"),
        ("I'm vegan. Keep answers short.", "short"),
        ("Keep answers short from now on. What's a good vegan lasagne?", "short"),
        ("Could you stop with the bullet points? Just write normal paragraphs.", "paragraph"),
    ],
)
def test_an_instruction_alone_or_said_to_last_is_kept(message: str, word: str) -> None:
    assert word in remembered(message)
