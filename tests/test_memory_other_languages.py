"""The people in a user's life and the requests of a task, in the languages besides English:
someone else's fact is not the user's, a task asked in German or Dutch is no standing
instruction about replies, and spoken German's "ich" may be left out."""

from __future__ import annotations

import pytest
from memorykit import remembered


@pytest.mark.parametrize(
    "message",
    [
        "Mein Kollege wohnt in Potsdam.",
        "Mon patron habite à Grenoble.",
        "Mi jefa es de Rosario.",
        "Il mio capo abita a Verona.",
        "O meu colega mora em Braga.",
        "A minha vizinha tem dois cães.",
        "Mijn baas woont in Zwolle.",
    ],
)
def test_a_coworker_neighbour_or_boss_fact_is_not_the_users(message: str) -> None:
    assert remembered(message) == ""


@pytest.mark.parametrize(
    "message",
    [
        "Kannst du mir sagen, wie man Sauerteig ansetzt?",
        "Kun je een korte brief schrijven aan mijn huisbaas?",
        "Puoi scrivere una breve email al mio capo?",
    ],
)
def test_a_task_asked_in_another_language_is_no_reply_style(message: str) -> None:
    assert "reply" not in remembered(message)


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        ("Sprich mich bitte immer per du an.", "per du"),
        ("Wohne seit letztem Jahr in Innsbruck.", "innsbruck"),
        ("Bin Tischlerin, hauptsächlich Möbelbau.", "tischlerin"),
    ],
)
def test_what_german_says_without_its_ich_or_of_address_is_kept(message: str, kept: str) -> None:
    assert kept in remembered(message)


def test_portuguese_ja_nao_retires_what_it_ends() -> None:
    block = remembered("Adoro jogar ténis.", "Já não jogo ténis.")
    assert "adoro" not in block
