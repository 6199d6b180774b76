"""Config values that would fail every turn are refused when the config loads; `config
validate` checks without writing anything; `config show` says where each value came from;
a config file has a size limit."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cli_support import assert_clean_error, ctxchat, write_config
from fakeopenai import FakeOpenAI

from ctxchat.config.toml_file import MAX_CONFIG_BYTES

pytest_plugins = ["sqlfixtures"]


@pytest.mark.parametrize(
    ("toml", "fragment"),
    [
        ("[model]\ntimeout = nan", "model.timeout: expected a finite number, got nan"),
        ("[model]\ntimeout = inf", "model.timeout: expected a finite number, got inf"),
        ("[model]\ntemperature = nan", "model.temperature: expected a finite number, got nan"),
        ("[model]\nretries = -1", "model.retries: must be 0 or more, got -1"),
        ("[agent]\ntool_timeout = nan", "agent.tool_timeout: expected a finite number, got nan"),
        ("[agent]\ntool_timeout = -inf", "agent.tool_timeout: expected a finite number"),
        ("[agent]\nmax_tool_rounds = -3", "agent.max_tool_rounds: must be 0 or more, got -3"),
        (
            '[[providers]]\ntype = "sql_history"\nmax_tokens = -5',
            "providers[0].max_tokens: must be 0 or more, got -5",
        ),
    ],
)
def test_non_finite_and_negative_numbers_are_refused(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI, toml: str, fragment: str
) -> None:
    path = write_config(ctxchat_home, toml + "\n")
    for args in (("config", "validate"), ("run", "hello")):
        assert_clean_error(ctxchat(*args, env=cli_env), 2, f"{path}: {fragment}")
    assert fake_openai.chat_requests() == []


def tree(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*")) if root.exists() else []


def test_validate_writes_nothing(cli_env: dict[str, str], tmp_path: Path) -> None:
    home = Path(cli_env["CTXCHAT_HOME"])
    config = tmp_path / "config.toml"
    elsewhere = tmp_path / "not" / "yet" / "history.sqlite3"
    config.write_text(
        '[[providers]]\ntype = "sql_history"\n\n'
        f'[[providers]]\ntype = "audit"\nurl = "sqlite:///{elsewhere}"\n'
    )
    before = tree(tmp_path)

    result = ctxchat("config", "validate", "--config", str(config), env=cli_env)

    assert result.returncode == 0, result.stderr
    assert not home.exists()  # not even the data dir for the default database
    assert tree(tmp_path) == before


def test_validate_reads_an_existing_database_without_upgrading_it(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    assert ctxchat("run", "hello", env=cli_env).returncode == 0  # history.sqlite3 exists now
    write_config(
        ctxchat_home, '[[providers]]\ntype = "sql_history"\n\n[[providers]]\ntype = "audit"\n'
    )
    database = ctxchat_home / "history.sqlite3"
    before = {p.name: p.stat().st_mtime_ns for p in ctxchat_home.glob("history.sqlite3*")}

    result = ctxchat("config", "validate", env=cli_env)

    assert result.returncode == 0, result.stderr
    after = {p.name: p.stat().st_mtime_ns for p in ctxchat_home.glob("history.sqlite3*")}
    assert after == before  # the audit's table is created by the first turn, not here
    assert database.is_file()


@pytest.mark.unmigrated
def test_validate_creates_no_table_on_postgresql(
    cli_env: dict[str, str], ctxchat_home: Path, postgres_url: str
) -> None:
    import sqlalchemy as sa

    write_config(ctxchat_home, f'[storage]\nurl = "{postgres_url}"\n')
    result = ctxchat("config", "validate", env=cli_env)
    assert result.returncode == 0, result.stderr
    engine = sa.create_engine(postgres_url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            assert sa.inspect(conn).get_table_names() == []
    finally:
        engine.dispose()


def test_show_labels_agent_values_by_where_they_came_from(
    cli_env: dict[str, str], ctxchat_home: Path
) -> None:
    write_config(ctxchat_home, "[agent]\nmax_tool_rounds = 3\ntool_timeout = 5.0\n")
    shown = ctxchat("config", "show", "--system", "be brief", env=cli_env)
    assert shown.returncode == 0, shown.stderr
    assert "max_tool_rounds = 3  # file" in shown.stdout
    assert "tool_timeout = 5.0  # file" in shown.stdout
    assert 'instructions = "be brief"  # flag' in shown.stdout


def test_a_config_file_over_the_limit_is_refused(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    path = ctxchat_home / "config.toml"
    os.makedirs(ctxchat_home, exist_ok=True)
    prompt = "x" * MAX_CONFIG_BYTES
    path.write_text(f'[agent]\ninstructions = "{prompt}"\n')
    assert_clean_error(ctxchat("run", "hello", env=cli_env), 2, f"{path}", "over the limit")
    assert fake_openai.chat_requests() == []
