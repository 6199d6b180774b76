"""Secrets are never stored: the op is dropped and the extraction says so, once."""

from __future__ import annotations

import pytest
from memorykit import remembered

from ctxchat.providers.memory.ops import Op
from ctxchat.providers.memory.secrets import looks_secret, screen
from ctxchat.providers.memory.statements import extract_rules

# Test data built at run time so no scanner mistakes it for a leaked credential.
OPENAI_LIKE = "sk-" + "proj" + "A1b2C3d4E5f6G7h8I9j0K1l2"
GITHUB_LIKE = "ghp" + "_" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Jh1Gf0EdCb"
JWT_LIKE = "eyJhbGciOiJIUzI1NiJ9" + "." + "eyJzdWIiOiIxMjM0NTY3ODkwIn0" + "." + "abcDEF123ghiJKL456"


@pytest.mark.parametrize(
    "text",
    [
        "my password is hunter2",
        "My PIN is 4321",
        f"here's my key {OPENAI_LIKE}",
        GITHUB_LIKE,
        JWT_LIKE,
        "card 4111 1111 1111 1111",  # Luhn-valid
        "IBAN GB82 WEST 1234 5698 7654 32",  # mod-97-valid
        "my account number is 12345678",
        "Mein Passwort ist Sommer2024",
        "mon mot de passe est soleil",
        "mi contraseña es gato123",
        "token: 9f8e7d6c5b4a39281706f5e4d3c2b1a0aa77bb66",
    ],
)
def test_looks_secret(text: str) -> None:
    assert looks_secret(text)


@pytest.mark.parametrize(
    "text",
    [
        "I live in Lisbon",
        "my phone number is 555-0142",
        "card 4111 1111 1111 1112",  # fails Luhn
        "GB82 WEST 1234 5698 7654 33",  # fails mod 97
        "I'm a software engineer at a fintech startup",
        "state-of-the-art-machine-learning-pipelines",
    ],
)
def test_ordinary_text_is_not_secret(text: str) -> None:
    assert not looks_secret(text)


@pytest.mark.parametrize(
    "text",
    [
        "My password is correct-horse-battery.",
        "My mum's maiden name is Okonkwo.",
        f"My API key is {OPENAI_LIKE}.",
        "My bank account number is 31926819.",
    ],
)
def test_a_secret_statement_is_dropped_and_flagged(text: str) -> None:
    extraction = extract_rules(text)
    assert extraction.ops == ()
    assert extraction.secret_dropped


def test_the_rest_of_the_message_is_still_learnt() -> None:
    extraction = extract_rules("I live in Leeds. My password is Tr0ub4dor&3.")
    assert [o.value for o in extraction.ops] == ["I live in Leeds."]
    assert extraction.secret_dropped
    assert "tr0ub4dor" not in remembered("I live in Leeds. My password is Tr0ub4dor&3.")


def test_screen_keeps_forget_ops() -> None:
    result = screen([Op("forget", None, "password", "forget my password")])
    assert len(result.ops) == 1
    assert not result.secret_dropped


def test_the_users_own_maiden_name_is_their_name_not_a_security_answer() -> None:
    block = remembered(
        "Hi, I'm Megan Doyle.",
        "fyi I've gone back to my maiden name after the divorce, so it's Megan Kowalski now.",
    )
    assert "kowalski" in block
    assert "doyle" not in block
