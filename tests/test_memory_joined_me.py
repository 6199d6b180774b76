"""An imperative with the user joined to its verb ("Tutoie-moi") asks for a way of being
answered in French as "talk to me casually" does in English; "this time", in any of the
reader's languages, keeps an instruction to the reply at hand."""

from __future__ import annotations

import pytest
from memorykit import remembered


def test_a_form_of_address_asked_for_is_kept() -> None:
    assert "tutoie" in remembered("Tutoie-moi s'il te plaît.")


@pytest.mark.parametrize(
    "message",
    [
        "Présente-moi la réponse sous forme de tableau cette fois.",
        "Dis-moi comment faire une tarte.",
        "Use a table this time.",
        "Antworte diesmal bitte kurz.",
    ],
)
def test_a_task_or_this_time_only_is_not_kept(message: str) -> None:
    assert remembered(message) == ""
