"""One database by default: `[storage] url` holds every SQL-backed provider's tables unless
the provider's own `url` names another; with neither, the SQLite file in the data dir.
`config show` says where each provider's database is, and `config.example.toml` says so too.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from cli_support import ctxchat, write_config
from historykit import raw_query, turn

from ctxchat.config.loading import config_from_dict
from ctxchat.core.agent import Agent
from ctxchat.core.options import option_fields
from ctxchat.core.session import Session
from ctxchat.core.settings import StorageSettings
from ctxchat.services.build import build_agent
from ctxchat.storage.sql.store import SqlBacked
from ctxchat.testing import ScriptedModel

pytest_plugins = ["sqlfixtures"]
# Which stores a URL gets is what these tests check: each database starts empty.
pytestmark = pytest.mark.unmigrated
EXAMPLE = Path(__file__).resolve().parent.parent / "config.example.toml"


def agent_from(document: dict[str, Any]) -> Agent:
    """The configured pipeline on a scripted model: where the tables land is all it shows."""
    config = config_from_dict(document, path=None, environ={}, model_overrides={})
    return build_agent(config, model=ScriptedModel())


def stores_in(url: str) -> list[str]:
    found = raw_query(url, "SELECT DISTINCT store FROM ctxchat_migrations ORDER BY store")
    return [str(store) for (store,) in found]


def test_storage_url_holds_the_history_and_the_audit(sql_url: str, ctxchat_home: Path) -> None:
    agent = agent_from(
        {"storage": {"url": sql_url}, "providers": [{"type": "sql_history"}, {"type": "audit"}]},
    )
    turn(agent, Session(), "hello")

    assert raw_query(sql_url, "SELECT COUNT(*) FROM ctxchat_history") == [(2,)]
    assert raw_query(sql_url, "SELECT COUNT(*) FROM ctxchat_audit") == [(1,)]
    assert stores_in(sql_url) == ["attachments", "audit", "history", "usage"]
    assert not (ctxchat_home / "history.sqlite3").exists()


def test_a_provider_own_url_overrides_storage_url(sql_url: str, ctxchat_home: Path) -> None:
    agent = agent_from(
        {
            "storage": {"url": sql_url},
            "providers": [{"type": "sql_history"}, {"type": "audit", "url": "sqlite:///audit.db"}],
        },
    )
    turn(agent, Session(), "hello")

    audit_url = f"sqlite:///{ctxchat_home / 'audit.db'}"  # relative: from the data dir
    assert raw_query(audit_url, "SELECT COUNT(*) FROM ctxchat_audit") == [(1,)]
    assert raw_query(sql_url, "SELECT COUNT(*) FROM ctxchat_history") == [(2,)]
    # Each database holds the stores of the providers that opened it, and no others.
    assert stores_in(sql_url) == ["attachments", "history", "usage"]
    assert stores_in(audit_url) == ["audit"]


def test_with_no_url_anywhere_both_share_history_sqlite3_in_the_data_dir(
    ctxchat_home: Path,
) -> None:
    agent = agent_from({"providers": [{"type": "sql_history"}, {"type": "audit"}]})
    turn(agent, Session(), "hello")

    url = f"sqlite:///{ctxchat_home / 'history.sqlite3'}"
    assert raw_query(url, "SELECT COUNT(*) FROM ctxchat_history") == [(2,)]
    assert raw_query(url, "SELECT COUNT(*) FROM ctxchat_audit") == [(1,)]
    assert stores_in(url) == ["attachments", "audit", "history", "usage"]
    urls = {p.database_url() for p in agent.providers if isinstance(p, SqlBacked)}
    assert urls == {url}


def test_a_relative_storage_url_is_taken_from_the_data_dir(ctxchat_home: Path) -> None:
    agent = agent_from(
        {
            "storage": {"url": "sqlite:///shared/chat.db"},
            "providers": [{"type": "sql_history"}, {"type": "audit"}],
        },
    )
    turn(agent, Session(), "hello")

    url = f"sqlite:///{ctxchat_home / 'shared' / 'chat.db'}"
    assert stores_in(url) == ["attachments", "audit", "history", "usage"]
    assert not (ctxchat_home / "history.sqlite3").exists()


# -- what the docs say ---------------------------------------------------------------------------
def test_the_example_documents_storage_and_what_an_omitted_url_means() -> None:
    text = EXAMPLE.read_text("utf-8")
    assert "storage" in tomllib.loads(text)
    table = text.partition("\n[storage]\n")[2].partition("\n[")[0]
    for field, _ in option_fields(StorageSettings):
        assert re.search(rf"^# {field.name} = ", table, flags=re.MULTILINE), field.name
    for type_name in ("sql_history", "audit"):
        entry = text.partition(f'type = "{type_name}"\n')[2].partition("[[providers]]")[0]
        assert "Omitted = [storage] url" in entry, type_name
    assert "Same database as sql_history" not in text


def test_config_show_names_the_storage_url_and_each_providers_database(
    cli_env: dict[str, str], ctxchat_home: Path
) -> None:
    write_config(
        ctxchat_home,
        '[storage]\nurl = "postgresql://me:hunter2@db.example/chat?sslmode=require"\n'
        '[[providers]]\ntype = "sql_history"\n'
        '[[providers]]\ntype = "audit"\nurl = "sqlite:///audit.db"\n',
    )
    result = ctxchat("config", "show", env=cli_env)

    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "hunter2" not in out
    assert '[storage]\nurl = "postgresql://***@db.example/chat?sslmode=***"  # file\n' in out
    history, audit = out.split("[[providers]]")[1:]
    assert (
        "# database: postgresql+psycopg://me:***@db.example/chat?sslmode=*** (from [storage] url)\n"
    ) in history
    assert f"# database: sqlite:///{ctxchat_home / 'audit.db'} (from its own url)\n" in audit
    assert not (ctxchat_home / "audit.db").exists()  # shown, not opened


def test_config_show_names_the_default_database(
    cli_env: dict[str, str], ctxchat_home: Path
) -> None:
    result = ctxchat("config", "show", env=cli_env)

    assert result.returncode == 0, result.stderr
    assert "[storage]\n# url: not set (SQL-backed providers default to history.sqlite3" in (
        result.stdout
    )
    database = ctxchat_home / "history.sqlite3"
    assert f"# database: sqlite:///{database} (the default)\n" in result.stdout
    assert not database.exists()
