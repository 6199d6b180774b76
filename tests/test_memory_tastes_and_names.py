"""Tastes and names in other shapes than "I like" and "my name is": the user named by a verb
of naming, whoever does the naming, in the four main languages."""

from __future__ import annotations

import pytest
from memorykit import remembered, slots_of

from ctxchat.providers.memory.statements import extract_rules


@pytest.mark.parametrize(
    "message",
    [
        "Alle im Verein nennen mich Kalle.",
        "Mes collègues m'appellent Zaza.",
        "En el barrio me llaman Nacho.",
        "around here people know me as Gigi",
    ],
)
def test_a_name_others_call_the_user_is_the_users_name(message: str) -> None:
    assert slots_of(message) == {"name"}


@pytest.mark.parametrize(
    "message",
    [
        "I love a long walk by the river after work.",
        "Ich liebe ein kühles Radler nach der Arbeit.",
    ],
)
def test_a_noun_of_time_does_not_make_a_taste_another_kind(message: str) -> None:
    assert slots_of(message) == {"likes"}


@pytest.mark.parametrize(
    ("message", "slot"),
    [
        ("Rien ne vaut une randonnée en montagne.", "likes"),
        ("Nada mejor que una siesta larga.", "likes"),
        ("Nichts geht über frische Brezeln.", "likes"),
        ("Never been much of a museum person.", "dislikes"),
        ("Camping? Never again.", "dislikes"),
    ],
)
def test_a_verdict_with_no_subject_is_the_users_taste(message: str, slot: str) -> None:
    assert slots_of(message) == {slot}


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        ("I'm a midwife btw", "I'm a midwife"),
        ("Not a huge festival person tbh.", "Not a huge festival person"),
        ("Anchovies? never again lol", "Anchovies? never again"),
    ],
)
def test_a_chat_abbreviation_closes_a_clause_without_a_comma(message: str, kept: str) -> None:
    assert [op.value for op in extract_rules(message).ops] == [kept]


@pytest.mark.parametrize(
    "message",
    [
        "it's Ollie, short for Oliver",
        "Ich bin Flo, kurz für Florian.",
        "Ms. Adeyemi is fine, thank you.",
        "Señora Quiroga, por favor.",
        "Herr Lindemann passt.",
    ],
)
def test_a_name_glossed_or_a_title_accepted_is_the_users_name(message: str) -> None:
    assert slots_of(message) == {"name"}


@pytest.mark.parametrize(
    "message",
    ["Give me a paperback over an e-reader any day.", "give me mountains over beaches, hands down"],
)
def test_a_choice_said_as_a_request_for_the_thing_chosen_is_a_taste(message: str) -> None:
    assert slots_of(message) == {"likes"}


@pytest.mark.parametrize(
    "message",
    ["Vous pouvez m'appeler Titou.", "Puedes llamarme Quique.", "Kannst mich gern Jojo nennen."],
)
def test_leave_to_name_the_user_is_the_users_name_in_any_language(message: str) -> None:
    assert slots_of(message) == {"name"}


@pytest.mark.parametrize(
    "message",
    ["Le samedi, c'est toujours marché pour moi.", "Mein Lieblingsort ist der Hafen."],
)
def test_a_word_for_is_is_no_time_zone(message: str) -> None:
    assert "timezone" not in slots_of(message)


@pytest.mark.parametrize(
    "message",
    [
        "What I value most is curiosity.",
        "Fairness matters more than winning to me.",
        "Mir ist Pünktlichkeit am wichtigsten.",
        "Pour moi, la liberté compte plus que tout.",
    ],
)
def test_what_counts_most_to_the_user_is_a_value(message: str) -> None:
    assert slots_of(message) == {"values"}


@pytest.mark.parametrize(
    "message", ["Oat milk over cow's milk, always.", "Podcasts > audiobooks", "Trains over planes."]
)
def test_a_choice_with_its_verb_left_out_is_a_taste(message: str) -> None:
    assert slots_of(message) == {"likes"}


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("Pilates most evenings.", "pilates"),
        ("Park run every Saturday, rain or shine.", "park run"),
        ("Sudoku every morning, without fail.", "sudoku"),
    ],
)
def test_a_habit_with_its_verb_left_out_is_kept(message: str, word: str) -> None:
    assert word in remembered(message)


@pytest.mark.parametrize(
    "message",
    ["Hard pass on that pub quiz tomorrow.", "Rien ne vaut cette soirée, merci encore !"],
)
def test_a_verdict_on_a_thing_pointed_at_is_the_moments(message: str) -> None:
    assert slots_of(message) == set()


@pytest.mark.parametrize("message", ["Everybody calls him Moose.", "Folks call him Big Al lol"])
def test_a_name_someone_else_is_called_by_corrects_nothing(message: str) -> None:
    assert not extract_rules(message).ops


@pytest.mark.parametrize(
    ("message", "slot"),
    [
        ("Pas vraiment fan des escape games.", "dislikes"),
        ("Kein besonders großer Fan von Musicals.", "dislikes"),
        ("No soy nada fan del golf.", "dislikes"),
        ("Je suis grand fan de rugby.", "likes"),
    ],
)
def test_a_fan_said_or_denied_in_other_languages_is_a_taste(message: str, slot: str) -> None:
    assert slots_of(message) == {slot}


@pytest.mark.parametrize(
    "message", ["Really can't beat what a good team can do.", "Nothing beats how calm the sea is."]
)
def test_what_things_do_judged_unbeaten_is_a_saying_not_a_taste(message: str) -> None:
    assert remembered(message) == ""


def test_a_favourite_of_no_named_kind_replaces_the_favourite_it_names() -> None:
    said = remembered("My favourite food is pizza.", "Sushi has overtaken pizza as my favourite.")
    assert "sushi" in said
    assert "favourite food is pizza" not in said


def test_a_favourite_of_no_named_kind_that_names_none_replaces_none() -> None:
    said = remembered("My favourite food is pizza.", "Honestly Radiohead is my favourite.")
    assert "favourite food is pizza" in said
