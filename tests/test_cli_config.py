"""`ctxchat config ...` and `ctxchat providers`."""

from __future__ import annotations

import re
import stat
import tomllib
from pathlib import Path

from cli_support import assert_clean_error, ctxchat, write_config
from conftest import TEST_API_KEY

from ctxchat.defaults import default_config_document


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
    assert tomllib.loads(first) == default_config_document()

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
    env = {**cli_env, "OPENAI_BASE_URL": "http://user:hunter2@127.0.0.1:1/v1"}
    result = ctxchat("config", "show", "--model", "flag-model", env=env)

    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert TEST_API_KEY not in out
    assert "hunter2" not in out
    assert 'api_key = "**** (set)"  # env OPENAI_API_KEY' in out
    assert "***@127.0.0.1:1" in out
    assert 'model = "flag-model"  # flag' in out
    assert "temperature = 0.5  # file" in out
    assert str(ctxchat_home / "config.toml") in out
    assert "# history: provider 'history' (" in out
    assert ") loads it" in out


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
    assert "in_memory_history  (ctxchat.providers.in_memory_history:" in out
    assert re.search(r"max_messages \(an integer[^;]*; default 100\)", out)
    assert "load_messages (a boolean; default true)" in out
    assert "most messages loaded into the context" in out  # the option's help text
