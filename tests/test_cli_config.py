"""`ctxchat config ...` and `ctxchat providers`."""

from __future__ import annotations

import json
import re
import stat
import tomllib
from pathlib import Path

import pytest
from cli_support import assert_clean_error, ctxchat, write_config
from conftest import TEST_API_KEY
from fakeopenai import FakeOpenAI

from ctxchat.config.defaults import DEFAULT_PIPELINE


def test_path_follows_home_env_and_flag(
    cli_env: dict[str, str], ctxchat_home: Path, tmp_path: Path
) -> None:
    assert ctxchat("config", "path", env=cli_env).stdout == f"{ctxchat_home / 'config.toml'}\n"
    named = tmp_path / "elsewhere.toml"
    env = {**cli_env, "CTXCHAT_CONFIG": str(named)}
    assert ctxchat("config", "path", env=env).stdout == f"{named}\n"
    flag = ctxchat("config", "path", "--config", str(tmp_path / "flag.toml"), env=env)
    assert flag.stdout == f"{tmp_path / 'flag.toml'}\n"


def test_init_writes_the_default_document_once(cli_env: dict[str, str], ctxchat_home: Path) -> None:
    result = ctxchat("config", "init", env=cli_env)
    assert result.returncode == 0, result.stderr
    path = ctxchat_home / "config.toml"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    first = path.read_text()
    written = tomllib.loads(first)
    assert written["providers"] == [
        {"type": type_name, "source_id": source_id, **options}
        for type_name, source_id, options in DEFAULT_PIPELINE
    ]
    assert written["model"] == {}  # no model named: the endpoint's own, or gpt-4o-mini

    path.write_text(first + "\n# my edit\n")
    again = ctxchat("config", "init", env=cli_env)
    assert_clean_error(again, 2, "already exists", "--force")
    assert path.read_text().endswith("# my edit\n")

    forced = ctxchat("config", "init", "--force", env=cli_env)
    assert forced.returncode == 0
    assert path.read_text() == first

    # What init writes is a config `run` accepts.
    assert ctxchat("config", "validate", env=cli_env).returncode == 0


def test_show_masks_secrets_and_names_origins(cli_env: dict[str, str], ctxchat_home: Path) -> None:
    write_config(ctxchat_home, "[model]\ntemperature = 0.5\n")
    env = {**cli_env, "OPENAI_BASE_URL": "http://127.0.0.1:1/v1?key=hunter2"}
    result = ctxchat("config", "show", "--model", "flag-model", env=env)

    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert TEST_API_KEY not in out
    assert "hunter2" not in out
    assert 'api_key = "**** (set)"  # env OPENAI_API_KEY' in out
    assert "127.0.0.1:1/v1?key=***" in out
    assert 'model = "flag-model"  # flag' in out
    assert "temperature = 0.5  # file" in out
    assert str(ctxchat_home / "config.toml") in out
    assert "# history: provider 'history' (" in out
    assert ") loads it" in out


def test_show_lists_the_embeddings_endpoint_with_origins(
    cli_env: dict[str, str], ctxchat_home: Path
) -> None:
    write_config(ctxchat_home, '[embeddings]\nmodel = "nomic-embed-text"\n')
    shown = ctxchat("config", "show", env=cli_env)
    assert shown.returncode == 0, shown.stderr
    table = shown.stdout.split("[embeddings]\n", 1)[1].split("\n\n", 1)[0]
    assert 'model = "nomic-embed-text"  # file' in table
    assert "# base_url: not set" in table


def test_show_says_when_an_in_session_history_is_added(
    cli_env: dict[str, str], ctxchat_home: Path
) -> None:
    write_config(
        ctxchat_home,
        '[[providers]]\ntype = "in_memory_history"\nsource_id = "log"\nload_messages = false\n',
    )
    result = ctxchat("config", "show", env=cli_env)
    assert result.returncode == 0, result.stderr
    assert "no configured provider loads it" in result.stdout
    assert "load_messages = false  # set" in result.stdout


def test_validate(cli_env: dict[str, str], ctxchat_home: Path, tmp_path: Path) -> None:
    ok = ctxchat("config", "validate", env=cli_env)
    assert ok.returncode == 0
    assert ok.stdout.startswith("ok")

    good = tmp_path / "good.toml"
    good.write_text('[model]\nmodel = "m"\n')
    named = ctxchat("config", "validate", str(good), env=cli_env)
    assert named.returncode == 0
    assert str(good) in named.stdout

    bad = tmp_path / "bad.toml"
    bad.write_text("[agent]\nmax_tool_rounds = 0\n")
    assert_clean_error(ctxchat("config", "validate", str(bad), env=cli_env), 2, "max_tool_rounds")


def test_providers_lists_types_options_and_defaults(cli_env: dict[str, str]) -> None:
    result = ctxchat("providers", env=cli_env)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "in_memory_history  (ctxchat.providers.history.in_memory:" in out
    assert re.search(r"max_messages \(an integer[^;]*; default 100\)", out)
    assert "load_messages (a boolean; default true)" in out
    assert "most messages loaded into the context" in out  # the option's help text


@pytest.mark.parametrize(
    ("base_url", "problem"),
    [
        ("127.0.0.1:1/v1", "'127.0.0.1:1/v1' is not an http:// or https:// URL (it has no scheme"),
        ("ftp://x", "'ftp://x' is not an http:// or https:// URL (its scheme is 'ftp'"),
        ("http://[bad", "'http://[bad' is not a valid URL"),
        ("http:///v1", "'http:///v1' names no host"),
    ],
)
def test_a_bad_base_url_is_a_config_error_before_any_request(
    cli_env: dict[str, str],
    ctxchat_home: Path,
    fake_openai: FakeOpenAI,
    base_url: str,
    problem: str,
) -> None:
    flag = ctxchat("run", "--base-url", base_url, "hello", env=cli_env)
    assert_clean_error(flag, 2, f"error: --base-url: {problem}")  # named where it was set

    env = {**cli_env, "OPENAI_BASE_URL": base_url}
    assert_clean_error(ctxchat("run", "hello", env=env), 2, f"error: OPENAI_BASE_URL: {problem}")

    path = write_config(ctxchat_home, f"[model]\nbase_url = {json.dumps(base_url)}\n")
    validated = ctxchat("config", "validate", env={**cli_env, "OPENAI_BASE_URL": ""})
    assert_clean_error(validated, 2, f"{path}: model.base_url: {problem}")
    assert fake_openai.chat_requests() == []


def test_show_masks_query_values_in_urls(cli_env: dict[str, str], ctxchat_home: Path) -> None:
    write_config(
        ctxchat_home,
        '[[providers]]\ntype = "sql_history"\n'
        'url = "postgresql+psycopg://me:hunter2@db/chat?password=qsecret2"\n',
    )
    env = {**cli_env, "OPENAI_BASE_URL": "http://127.0.0.1:1/v1?key=qsecret"}
    result = ctxchat("config", "show", env=env)

    assert result.returncode == 0, result.stderr
    for secret in ("qsecret", "hunter2"):
        assert secret not in result.stdout
    assert 'base_url = "http://127.0.0.1:1/v1?key=***"' in result.stdout
    assert "postgresql+psycopg://***@db/chat?password=***" in result.stdout


@pytest.mark.parametrize(
    ("toml", "fragments"),
    [
        ('[model]\nmodel = ""\n', ["model.model: must name a model"]),
        (
            '[[providers]]\ntype = "in_memory_history"\nsource_id = "my history"\n',
            ["providers[0].source_id: 'my history' may hold only letters, digits"],
        ),
        (
            '[[providers]]\ntype = "in_memory_history"\nmax_messages = "5"\n',
            ["providers[0].max_messages: expected an integer"],
        ),
        (
            '[[providers]]\ntype = "sql_history"\nurl = "mysql://nope/db"\n',
            [
                "providers[0] ('sql_history'): database mysql://nope/db:",
                "driver is not installed",
            ],
        ),
    ],
)
def test_validate_names_the_file_and_key_path(
    cli_env: dict[str, str], ctxchat_home: Path, toml: str, fragments: list[str]
) -> None:
    path = write_config(ctxchat_home, toml)
    result = ctxchat("config", "validate", env=cli_env)
    line = assert_clean_error(result, 2, *fragments)
    assert line.startswith(f"ctxchat: error: {path}: "), line


def test_validate_checks_sqlite_databases_without_creating_them(
    cli_env: dict[str, str], ctxchat_home: Path, tmp_path: Path
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    database = blocker / "sub" / "history.sqlite3"
    path = write_config(
        ctxchat_home, f'[[providers]]\ntype = "audit"\nurl = "sqlite:///{database}"\n'
    )
    result = ctxchat("config", "validate", env=cli_env)
    assert_clean_error(
        result, 2, f"{path}: providers[0] ('audit'): database sqlite:///{database}: cannot write"
    )

    good = tmp_path / "fine" / "history.sqlite3"
    write_config(ctxchat_home, f'[[providers]]\ntype = "audit"\nurl = "sqlite:///{good}"\n')
    assert ctxchat("config", "validate", env=cli_env).returncode == 0
    assert not good.parent.exists()  # validating writes nothing


def test_a_provider_failing_on_its_config_exits_as_a_config_error(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    write_config(ctxchat_home, '[[providers]]\ntype = "sql_history"\nurl = "mysql://nope/db"\n')
    result = ctxchat("run", "hello", env=cli_env)
    assert_clean_error(
        result, 2, "provider 'sql_history' failed in before_run: database mysql://nope/db:"
    )
    assert fake_openai.chat_requests() == []
