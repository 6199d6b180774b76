"""An instruction that says it lasts ("Going forward…", "as a rule…", "whenever you…") is how
the user wants to be answered, whatever it is about; one for a single task, a question,
advice, or an instruction for someone else is not."""

from __future__ import annotations

import pytest
from memorykit import learn, remembered

from ctxchat.providers.memory.recall import render_recall


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("Going forward, give me sources or links when you state facts.", "sources"),
        ("Never use the word delve again.", "delve"),
        ("From now on, keep it short.", "short"),
    ],
)
def test_a_standing_instruction_of_any_aspect_is_kept(message: str, word: str) -> None:
    block = render_recall(learn(message).active())
    assert word in block.casefold()
    assert "reply" in block.casefold()  # as a way of replying, not a fact about the user


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("Tell my son to always wear a helmet, he never listens to me.", "helmet"),
        ("always check the forecast before hiking, the mountains dont care", "forecast"),
        ("Going forward, is it worth learning Rust?", "rust"),
        ("Show me when you can!", "show"),
    ],
)
def test_advice_or_a_question_is_not_an_instruction_about_replies(message: str, word: str) -> None:
    assert word not in remembered(message)
