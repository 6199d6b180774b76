"""The secret screen by name and by shape, on phrasings in the README's four languages, and
what it must let through: ordinary facts with dates, phone numbers, postcodes and places.

Each case names what must catch it, so a phrasing caught only by luck (a later, broader
check) shows up as a failure of the check meant for it."""

from __future__ import annotations

import pytest

from ctxchat.providers.memory.secret_shapes import SHAPES, shape_of
from ctxchat.providers.memory.secrets import looks_secret, secret_kind, withhold_secrets

# Built at run time so no scanner mistakes the test data for leaked credentials.
OPENAI_LIKE = "sk-" + "proj-" + "A1b2C3d4E5f6G7h8I9j0K1l2"
AWS_LIKE = "AKIA" + "IOSFODNN7EXAMPLE"
SLACK_LIKE = "xoxb-" + "1234567890-abcdefghijkl"
GITHUB_LIKE = "ghp" + "_" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Jh1Gf0EdCb"
JWT_LIKE = "eyJhbGciOiJIUzI1NiJ9" + "." + "eyJzdWIiOiIxMjM0NTY3ODkwIn0" + "." + "abcDEF123ghiJKL456"
PEM_LIKE = "-----BEGIN OPENSSH " + "PRIVATE KEY-----"

PHRASINGS = [
    # English
    ("Remember that my login is alice / Tr0ub4dor&3", "named 'login is'"),
    ("my bank login is alice:Tr0ub4dor&3", "named 'login is'"),
    ("my username: alice", "named 'username'"),
    ("My username is alice and my password is hunter2", "named 'password'"),
    ("my SSN is 078-05-1120", "named 'SSN'"),
    ("my social security number is 078-05-1120", "named 'social security number'"),
    ("My national insurance number is AB 12 34 56 C", "named 'national insurance number'"),
    ("my driver's license number is D1234567", "named 'driver's license number'"),
    ("the door code is 4512", "named 'door code'"),
    ("My GitHub token keeps expiring", "named 'GitHub token'"),
    ("PIN for the garage is 7294", "named 'PIN'"),
    # German
    ("Merk dir: mein Login ist alice / Tr0ub4dor&3", "named 'Login ist'"),
    ("Mein Benutzername ist alice", "named 'Benutzername ist'"),
    ("Mein Passwort ist Sommer2024", "named 'Passwort'"),
    ("Meine Sozialversicherungsnummer ist 12 150485 B 123", "named 'Sozialversicherungsnummer'"),
    ("Meine Steuer-ID ist 12345678901", "named 'Steuer-ID'"),
    ("Meine IBAN ist DE89 3704 0044 0532 0130 00", "named 'IBAN'"),
    ("Meine Geheimzahl ist 1234", "named 'Geheimzahl'"),
    # French
    ("Mon identifiant est alice", "named 'identifiant est'"),
    ("Mes identifiants : alice / Tr0ub4dor&3", "named 'identifiants'"),
    ("mon mot de passe est soleil", "named 'mot de passe'"),
    ("Mon numéro de sécurité sociale est 1 85 05 78 006 084 91", "named 'numéro de sécurité"),
    ("mon code PIN est 0000", "named 'code PIN'"),
    # Spanish
    ("Mi usuario es alice", "named 'usuario es'"),
    ("mi contraseña es gato123", "named 'contraseña'"),
    ("Mi DNI es 12345678Z", "named 'DNI'"),
    ("mi número de la seguridad social es 28 12345678 40", "named 'número de la seguridad"),
    ("mi clave es perro2020", "named 'clave es'"),
    # Shapes alone, no name said
    (OPENAI_LIKE, "key with a known prefix"),
    (f"remember {AWS_LIKE} for later", "key with a known prefix"),
    (SLACK_LIKE, "key with a known prefix"),
    (GITHUB_LIKE, "key with a known prefix"),
    (JWT_LIKE, "JWT"),
    (PEM_LIKE, "named 'PRIVATE KEY'"),
    ("https://alice:s3cret@example.com/repo", "credentials in a URL"),
    ("4111 1111 1111 1111", "card number (Luhn)"),
    ("5555-5555-5555-4444 for the hotel", "card number (Luhn)"),
    ("GB82 WEST 1234 5698 7654 32", "IBAN (mod 97)"),
    ("DE89370400440532013000", "IBAN (mod 97)"),
    ("078-05-1120", "US social security number"),
    ("12 150485 B 123", "German social insurance number"),
    ("AB123456C", "UK National Insurance number"),
    ("12345678Z", "Spanish DNI/NIE (check letter)"),
    ("X1234567L", "Spanish DNI/NIE (check letter)"),
    ("1 85 05 78 006 084 91", "French social security number (key)"),
    ("alice:Tr0ub4dor&3", "user and password pair"),
    ("bob / Sunflower!2024", "user and password pair"),
    ("9f8e7d6c5b4a39281706f5e4d3c2b1a0aa77bb66", "high-entropy token"),
]

ORDINARY = [
    "I live in Berlin",
    "Ich wohne in München",
    "J'habite à Saint-Étienne",
    "Vivo en San Sebastián",
    "I moved to Castrop-Rauxel last year",
    "My birthday is 1990-05-12",
    "Mein Geburtstag ist am 12.05.1990",
    "Mon anniversaire est le 05/12/1990",
    "Call me on 555-123-4567",
    "my phone number is 555-0142",
    "My number is +49 170 1234 5678",
    "Mon numéro est le +33 6 12 34 56 78",
    "Mi teléfono es +34 612 34 56 78",
    "My office line is (555) 123-4567",
    "My postcode is 10115",
    "I live at SW1A 1AA",
    "I work on the login team",
    "My login shell is zsh",
    "I collect enamel pins",
    "I use Python 3.11 on Ubuntu 24.04",
    "Meeting at 10:30 every Monday",
    "I drive a BMW X5",
    "My flight LH1234 leaves on 2024-05-12",
    "My order number is 112-3456789-1234567",
    "I'm a software engineer at a fintech startup",
    "state-of-the-art-machine-learning-pipelines",
    "Ich arbeite bei der Deutschen Bahn",
    "Ich bin nie in Paris gewesen",
    "Je suis végétarien depuis 2015",
    "Me encanta la paella sin marisco",
    "I mix paint at a ratio of 3:1",
    "I have 2 kids aged 7 and 9",
    "Donaudampfschifffahrtsgesellschaftskapitän",
    "I was born in 1985 in Lyon",
    "card 4111 1111 1111 1112",  # fails Luhn
    "GB82 WEST 1234 5698 7654 33",  # fails mod 97
    "12345678A",  # a DNI's shape with the wrong letter
    "Proofread this: 'Detective Harlow had never trusted the sea.'",
]


@pytest.mark.parametrize(("text", "caught_by"), PHRASINGS)
def test_each_phrasing_is_caught_by_the_check_meant_for_it(text: str, caught_by: str) -> None:
    kind = secret_kind(text)
    assert kind is not None, text
    assert kind.startswith(caught_by)


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_facts_pass(text: str) -> None:
    assert secret_kind(text) is None, secret_kind(text)
    assert not looks_secret(text)


def test_every_shape_is_exercised() -> None:
    """A shape no phrasing reaches is a check nothing tests."""
    assert {shape_of(text) for text, _ in PHRASINGS} >= {name for name, _ in SHAPES}


@pytest.mark.parametrize(("text", "caught_by"), PHRASINGS)
def test_withholding_leaves_no_secret_value(text: str, caught_by: str) -> None:
    withheld = withhold_secrets(text)
    assert "[secret withheld]" in withheld
    assert shape_of(withheld) is None


@pytest.mark.parametrize("text", ORDINARY)
def test_withholding_leaves_ordinary_text_alone(text: str) -> None:
    assert withhold_secrets(text) == text


def test_withholding_keeps_the_rest_of_the_sentence() -> None:
    text = "The user said my SSN is 078-05-1120. They live in Leeds."
    assert (
        withhold_secrets(text) == "The user said my SSN is [secret withheld]. They live in Leeds."
    )
