"""Secrets stay out of everything shown or stored: a database password however it is
spelled (`/`, `#`, `?` in it), an API key a server echoes back, credentials in a base URL.

URLs are read as the library that uses them reads them (SQLAlchemy, httpx), and a known
secret is scrubbed from any text before it is printed, traced or written to the audit."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from cli_support import (
    assert_clean_error,
    assert_clean_errors,
    ctxchat,
    session_documents,
    write_config,
)
from conftest import TEST_API_KEY
from fakeopenai import Error, FakeOpenAI, Text

from ctxchat.core.redact import (
    mask_password,
    mask_url,
    remember_secret,
    scrub_password,
    scrub_secrets,
)

PASSWORDS = ["Sl/ash-PW9", "ha#sh-PW9", "que?ry-PW9", "all/#?-of-PW9", "pct%2Fenc-PW9"]
AUDITED = """
[model]
retries = 0

[[providers]]
type = "sql_history"
source_id = "history"
{url}

[[providers]]
type = "audit"
"""


@pytest.mark.parametrize("password", PASSWORDS)
def test_database_urls_are_masked_as_sqlalchemy_reads_them(password: str) -> None:
    url = f"postgresql+psycopg://me:{password}@db.example:5432/chat?sslmode=require"
    assert mask_password(url) == "postgresql+psycopg://me:***@db.example:5432/chat?sslmode=***"
    assert mask_url(url) == "postgresql+psycopg://***@db.example:5432/chat?sslmode=***"
    driver_says = f"cannot log in as me with {password} (or {password.replace('%2F', '/')})"
    assert scrub_password(url, driver_says) == "cannot log in as me with *** (or ***)"


def test_a_remembered_secret_is_scrubbed_from_any_text() -> None:
    remember_secret("sk-live-0123456789")
    remember_secret("ab")  # too short to scrub without garbling every message
    text = "HTTP 400: Incorrect API key provided: sk-live-0123456789 (ab)"
    assert scrub_secrets(text) == "HTTP 400: Incorrect API key provided: *** (ab)"
    assert scrub_secrets("see https://u:p/w@host/x") == "see https://u:***@host/x"
    assert scrub_secrets("see https://tok3n@host/x") == "see https://***@host/x"


@pytest.mark.parametrize("password", PASSWORDS[:3])
def test_a_password_never_reaches_config_show_validate_errors_or_tracebacks(
    cli_env: dict[str, str], ctxchat_home: Path, password: str
) -> None:
    url = f"postgresql+psycopg://me:{password}@127.0.0.1:1/chat"
    write_config(ctxchat_home, f'[storage]\nurl = "{url}"\n')

    shown = ctxchat("config", "show", env=cli_env)
    assert shown.returncode == 0, shown.stderr
    assert "postgresql+psycopg://me:***@127.0.0.1:1/chat" in shown.stdout
    validated = ctxchat("config", "validate", env=cli_env)
    assert_clean_errors(validated, 1, "me:***@127.0.0.1:1/chat")
    traced = ctxchat("config", "validate", env={**cli_env, "CTXCHAT_DEBUG": "1"})
    assert "Traceback" in traced.stderr
    for result in (shown, validated, traced):
        assert password not in result.stdout + result.stderr
        assert password.split("-")[0] not in result.stdout + result.stderr


def test_a_password_with_an_unencoded_at_is_refused_without_showing_it(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    # SQLAlchemy would take "ss-Tail9@127.0.0.1" for the host, and the driver quote it.
    write_config(
        ctxchat_home, '[storage]\nurl = "postgresql+psycopg://me:p@ss-Tail9@127.0.0.1/db"\n'
    )
    for args in (("run", "hello"), ("config", "validate"), ("config", "show")):
        result = ctxchat(*args, env=cli_env)
        for line in assert_clean_errors(result, 2, "holds an '@'", "%40"):
            assert "ss-Tail9" not in line
            assert "p@ss" not in line
    assert fake_openai.chat_requests() == []


def test_a_failed_turn_stores_its_error_without_the_password(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    password = "Sl/ash-PW9"
    url = f'url = "postgresql+psycopg://me:{password}@127.0.0.1:1/chat"'
    write_config(ctxchat_home, AUDITED.format(url=url))  # the audit stays in SQLite

    failed = ctxchat("run", "hello", env=cli_env)

    assert_clean_error(failed, 1, "me:***@127.0.0.1:1/chat")
    (error,) = audit_errors(ctxchat_home)
    assert "me:***@127.0.0.1:1/chat" in error
    assert password not in error
    assert "Sl/ash" not in error


def audit_errors(home: Path) -> list[str]:
    with sqlite3.connect(home / "history.sqlite3") as conn:
        rows = conn.execute("SELECT error, record FROM ctxchat_audit ORDER BY seq").fetchall()
    conn.close()
    for error, record in rows:
        assert json.loads(record)["error"] == error
    return [str(error) for error, _ in rows if error is not None]


@pytest.mark.parametrize("status", [400, 422, 500, 503])
def test_a_key_echoed_by_the_server_is_never_shown_or_stored(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI, status: int
) -> None:
    write_config(ctxchat_home, AUDITED.format(url=""))
    fake_openai.enqueue(Text("fine"), Error(status, f"Incorrect API key provided: {TEST_API_KEY}."))
    assert ctxchat("run", "--title", "t", "first", env=cli_env).returncode == 0

    failed = ctxchat("run", "-c", "second", env=cli_env)

    line = assert_clean_error(failed, 1, f"HTTP {status}", "Incorrect API key provided: ***")
    assert TEST_API_KEY not in line
    fake_openai.enqueue(Error(status, f"Incorrect API key provided: {TEST_API_KEY}."))
    traced = ctxchat("run", "-c", "third", env={**cli_env, "CTXCHAT_DEBUG": "1"})
    assert "Traceback" in traced.stderr  # the openai exception's chain, its body quoted...
    assert TEST_API_KEY not in traced.stderr  # ...without the key
    for error in audit_errors(ctxchat_home):
        assert "Incorrect API key provided: ***" in error
        assert TEST_API_KEY not in error
    for args in (
        ("sessions", "show", "t", "--audit"),
        ("sessions", "export", "t", "--audit", "-f", "md"),
        ("sessions", "export", "t", "--audit", "-f", "json"),
    ):
        shown = ctxchat(*args, env=cli_env)
        assert shown.returncode == 0, shown.stderr
        assert "Incorrect API key provided: ***" in shown.stdout
        assert TEST_API_KEY not in shown.stdout


def test_a_base_url_with_credentials_is_refused(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    base = fake_openai.base_url.replace("http://", "http://me:hunter2@")
    for result, source in (
        (ctxchat("run", "--base-url", base, "hello", env=cli_env), "--base-url: "),
        (ctxchat("run", "hello", env={**cli_env, "OPENAI_BASE_URL": base}), "OPENAI_BASE_URL: "),
    ):
        line = assert_clean_error(result, 2, source, "OPENAI_API_KEY")  # named where set
        assert "hunter2" not in line
    assert fake_openai.chat_requests() == []
    assert session_documents(ctxchat_home) == []
