"""German, French and Spanish rules: facts, forgetting, style, and what is not a fact."""

from __future__ import annotations

import pytest
from memorykit import ops_of, remembered

from ctxchat.providers.memory.rules import extract_rules, ranked


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Ich wohne in Graz.", "de"),
        ("J'habite à Nantes.", "fr"),
        ("Vivo en Quito.", "es"),
        ("I live in Graz.", "en"),
    ],
)
def test_language_detection(text: str, code: str) -> None:
    assert ranked(text)[0][1].code == code


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Mein Name ist Jonas.", ("add", "name", "Jonas")),
        ("Ich lebe seit drei Jahren in Leipzig.", None),
        ("Ich wohne jetzt in Bremen.", ("add", "location", "Bremen")),
        ("Ich arbeite als Tischlerin.", ("add", "job", "Tischlerin")),
        ("Ich bin allergisch gegen Erdnüsse.", ("add", "allergies", "Erdnüsse")),
        ("Ich bin Veganerin.", ("add", "diet", "Veganerin")),
        ("Ich hasse Rosenkohl.", ("add", "dislikes", "Rosenkohl")),
        ("Meine Lieblingsfarbe ist Blau.", ("add", "favourite:colour", "Blau")),
        ("Ich habe eine Katze namens Mimi.", ("add", "pets", "cat Mimi")),
        ("Meine Tochter heißt Lea.", ("add", "family", "daughter Lea")),
        ("Ich bin 41 Jahre alt.", ("add", "age", "41")),
        ("Je m'appelle Inès.", ("add", "name", "Inès")),
        ("Je vis à Genève.", ("add", "location", "Genève")),
        ("Je travaille comme boulangère.", ("add", "job", "boulangère")),
        ("Je suis allergique aux arachides.", ("add", "allergies", "arachides")),
        ("Je suis végétarienne.", ("add", "diet", "végétarienne")),
        ("J'adore la randonnée.", ("add", "likes", "randonnée")),
        ("Ma couleur préférée est le vert.", ("add", "favourite:colour", "vert")),
        ("J'ai un chien qui s'appelle Rocky.", ("add", "pets", "dog Rocky")),
        ("J'ai 27 ans.", ("add", "age", "27")),
        ("Mi nombre es Valentina.", ("add", "name", "Valentina")),
        ("Trabajo como enfermera en un hospital.", ("add", "job", "enfermera en un hospital")),
        ("Soy alérgico a las nueces.", ("add", "allergies", "nueces")),
        ("Soy vegetariano.", ("add", "diet", "vegetariano")),
        ("Odio el cilantro.", ("add", "dislikes", "cilantro")),
        ("Mi hermana se llama Rocío.", ("add", "family", "sister Rocío")),
        ("Tengo 35 años.", ("add", "age", "35")),
        ("Ich spiele gern Tennis.", ("add", "likes", "Tennis")),
        ("Ich arbeite bei Bosch als Ingenieur.", ("add", "job", "Ingenieur")),
        ("Ich habe zwei Kinder, Paul und Emma.", ("add", "family", "child Emma")),
        ("Ich bin gegen Nüsse allergisch.", ("add", "allergies", "Nüsse")),
        ("Wir haben einen Hund.", ("add", "pets", "dog")),
        ("J'ai deux chats, Tigrou et Félix.", ("add", "pets", "cat Félix")),
        ("Je ne mange plus de viande.", ("add", "avoids", "viande")),
        ("Me mudé a Valencia el año pasado.", ("add", "location", "Valencia")),
        ("Tengo dos hijos que se llaman Leo y Hugo.", ("add", "family", "child Hugo")),
        ("Hablo español e inglés.", ("add", "languages", "English")),
    ],
)
def test_pattern_families(text: str, expected: tuple[str, str, str] | None) -> None:
    if expected is not None:
        assert expected in ops_of(text), ops_of(text)


@pytest.mark.parametrize(
    "text",
    [
        "Wenn ich in Berlin wohnen würde, wo sollte ich essen?",
        "Mein Freund liebt Jazz.",
        "Übersetze: Ich wohne in München.",
        "Wo kann ich in Köln gut essen?",
        "Si j'étais végétarien, que mangerais-je ?",
        "Mon ami adore le jazz.",
        "Traduis « j'habite à Paris » en anglais.",
        "Est-ce que je suis allergique au pollen ?",
        "Si fuera vegano, ¿qué comería?",
        "Mi amigo vive en Madrid.",
        'Traduce "me llamo Pedro" al inglés.',
        "¿Dónde puedo vivir si soy alérgico al polen?",
    ],
)
def test_nothing_is_remembered_from(text: str) -> None:
    assert extract_rules(text).ops == ()


@pytest.mark.parametrize(
    ("turns", "present", "absent"),
    [
        (["Ich heiße Mara und wohne in Kiel."], ["mara", "kiel"], []),
        (["Ich wohne in Kiel.", "Vergiss, wo ich wohne."], [], ["kiel"]),
        (["Ich heiße Mara.", "Vergiss meinen Namen."], [], ["mara"]),
        (["Bitte antworte mir immer auf Englisch."], ["english"], []),
        (["Je m'appelle Hugo et j'habite à Lille.", "Oublie où j'habite."], ["hugo"], ["lille"]),
        (["J'ai un chat qui s'appelle Filou.", "Oublie tout."], [], ["filou"]),
        (["Réponds-moi toujours en espagnol."], ["spanish"], []),
        (["Me llamo Sofía y vivo en Rosario.", "Olvida mi nombre."], ["rosario"], ["sofía"]),
        (["Trabajo en Telefónica.", "Olvida dónde trabajo."], [], ["telefónica"]),
        (["Respóndeme en inglés, por favor."], ["english"], []),
    ],
)
def test_turns(turns: list[str], present: list[str], absent: list[str]) -> None:
    text = remembered(*turns)
    for word in present:
        assert word in text, text
    for word in absent:
        assert word not in text, text
