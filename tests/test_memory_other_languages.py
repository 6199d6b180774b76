"""The people in a user's life and the requests of a task, in the languages besides English:
someone else's fact is not the user's, a task asked in German or Dutch is no standing
instruction about replies, and spoken German's "ich" may be left out."""

from __future__ import annotations

import pytest
from memorykit import learn, remembered, slots_of


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


@pytest.mark.parametrize(
    ("said", "pet", "other"),
    [
        ("J'ai un lapin nommé Caramel et je travaille chez Michelin.", "caramel", "michelin"),
        ("Trabajo en Iberia y tengo un loro que se llama Kiko.", "kiko", "iberia"),
    ],
)
def test_a_pet_named_in_another_language_is_a_statement_of_its_own(
    said: str, pet: str, other: str
) -> None:
    facts = [f.value.casefold() for f in learn(said).active()]
    assert len(facts) == 2
    assert any(pet in f and other not in f for f in facts)


@pytest.mark.parametrize(
    "said",
    [
        "Mi suegra es vegetariana y viene a cenar el sábado.",
        "Ma belle-mère est végétarienne.",
        "Meine Schwiegermutter ist Vegetarierin.",
    ],
)
def test_kin_by_marriage_in_another_language_are_not_the_user(said: str) -> None:
    assert slots_of(said) == {"family"}


def test_every_morning_in_german_is_a_habit_and_tomorrow_is_not() -> None:
    assert "schwimmen" in remembered("Ich gehe jeden Morgen schwimmen.")
    assert "rom" not in remembered("Morgen fliege ich nach Rom.")


@pytest.mark.parametrize(
    ("before", "after", "new", "old"),
    [
        (
            "Mein Kater heißt Moritz.",
            "Ups, die Autokorrektur – er heißt natürlich Mauritz!",
            "mauritz",
            "moritz",
        ),
        (
            "Mi hermano se llama Pablo.",
            "Disculpa, me equivoqué: mi hermano se llama Pedro.",
            "pedro",
            "pablo",
        ),
    ],
)
def test_a_correction_owned_in_another_language_replaces_the_value(
    before: str, after: str, new: str, old: str
) -> None:
    said = remembered(before, after)
    assert new in said
    assert old not in said


def test_a_task_asked_in_brazilian_portuguese_keeps_nothing() -> None:
    said = "Escreve uma mensagem de aniversário pro meu chefe, o Ricardo, que é doente pelo Vasco."
    assert "vasco" not in remembered(said)
