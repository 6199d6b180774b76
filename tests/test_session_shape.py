"""Session files that are valid JSON of the wrong shape are unreadable like corrupt ones:
moved aside when opened, left out (with a warning) when listed, never a crash; and the SQL
history and audit rows of a session whose file is gone are found and removed by
`sessions prune --orphans`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_support import assert_clean_error, ctxchat, session_documents, sessions_dir, write_config
from fakeopenai import FakeOpenAI

from ctxchat.core.session import Session, SessionFormatError

pytest_plugins = ["sqlfixtures"]

SQL_CONFIG = """
[[providers]]
type = "sql_history"
source_id = "history"

[[providers]]
type = "audit"
"""

WRONG_SHAPES: list[tuple[str, Any, str]] = [
    ("title", {"a": 1}, "'title' must be a string or null, not an object"),
    ("model", ["gpt"], "'model' must be a string or null, not an array"),
    ("turns", "3", "'turns' must be a whole number, 0 or more, not a string"),
    ("turns", -1, "'turns' must be a whole number, 0 or more, not a number"),
    ("turns", True, "'turns' must be a whole number, 0 or more, not a boolean"),
    ("updated_at", 5, "'updated_at' must be a time (ISO 8601 string), not a number"),
    ("created_at", "yesterday", "'created_at' is not a time: 'yesterday'"),
    ("state", [], "'state' must be an object, not an array"),
    ("state", {"history": "x"}, "'state' of provider 'history' must be an object, not a string"),
    ("id", None, "'id' must be a non-empty string, not null"),
]


@pytest.mark.parametrize(("field", "value", "message"), WRONG_SHAPES)
def test_the_whole_document_is_checked(field: str, value: Any, message: str) -> None:
    document = Session(title="t").to_dict()
    document[field] = value
    with pytest.raises(SessionFormatError) as caught:
        Session.from_dict(document)
    assert str(caught.value) == message


def make(env: dict[str, str], title: str) -> str:
    result = ctxchat("run", "--json", "--title", title, f"about {title}", env=env)
    assert result.returncode == 0, result.stderr
    return str(json.loads(result.stdout)["session"])


def spoil(home: Path, session_id: str, field: str, value: Any) -> Path:
    path = sessions_dir(home) / f"{session_id}.json"
    document = json.loads(path.read_text())
    document[field] = value
    path.write_text(json.dumps(document))
    return path


@pytest.mark.parametrize(("field", "value", "message"), WRONG_SHAPES[:2] + WRONG_SHAPES[8:9])
def test_a_wrong_shape_never_fails_a_list_and_is_moved_aside_when_opened(
    cli_env: dict[str, str],
    ctxchat_home: Path,
    fake_openai: FakeOpenAI,
    field: str,
    value: Any,
    message: str,
) -> None:
    good = make(cli_env, "good")
    bad = make(cli_env, "bad")
    assert ctxchat("sessions", "list", env=cli_env).returncode == 0  # both indexed
    spoiled = spoil(ctxchat_home, bad, field, value)

    for args in (("sessions", "list"), ("sessions", "list", "--json")):
        listed = ctxchat(*args, env=cli_env)
        assert listed.returncode == 0, listed.stderr
        assert good in listed.stdout
        assert bad not in listed.stdout
        assert f"session {bad} is left out" in listed.stderr
        assert message in listed.stderr

    requests = len(fake_openai.chat_requests())
    for args in (
        ("run", "--session", bad, "more"),
        ("sessions", "show", bad),
        ("sessions", "export", bad),
        ("sessions", "delete", "--yes", bad),
    ):
        there = spoiled.exists()
        result = ctxchat(*args, env=cli_env)
        if there:
            assert_clean_error(result, 2, "unreadable", message, "moved aside")
        else:
            assert_clean_error(result, 2, f"'{bad}'")  # gone: moved aside by the first
    assert len(fake_openai.chat_requests()) == requests
    assert len(list(sessions_dir(ctxchat_home).glob(f"{bad}.json.corrupt-*"))) == 1
    assert [d["id"] for d in session_documents(ctxchat_home)] == [good]


def rows(url: str, table: str, column: str) -> dict[str, int]:
    import sqlalchemy as sa

    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            found = conn.execute(
                sa.text(f"SELECT {column}, count(*) FROM {table} GROUP BY {column}")
            )
            return {str(key): int(count) for key, count in found}
    finally:
        engine.dispose()


def test_prune_orphans_removes_the_rows_of_sessions_whose_file_is_gone(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI, sql_url: str
) -> None:
    write_config(ctxchat_home, f'[storage]\nurl = "{sql_url}"\n' + SQL_CONFIG)
    kept = make(cli_env, "kept")
    spoiled = make(cli_env, "spoiled")
    deleted = make(cli_env, "deleted by hand")
    shared = make(cli_env, "shares kept's history")
    spoil(ctxchat_home, shared, "state", {"history": {"history_key": kept}})
    spoil(ctxchat_home, spoiled, "title", {"a": 1})
    assert ctxchat("sessions", "show", spoiled, env=cli_env).returncode == 2  # moved aside
    (sessions_dir(ctxchat_home) / f"{deleted}.json").unlink()

    dry = ctxchat("sessions", "prune", "--orphans", "--dry-run", env=cli_env)

    assert dry.returncode == 0, dry.stderr
    assert sorted(line.split()[0] for line in dry.stdout.splitlines()) == sorted([spoiled, deleted])
    assert f"{deleted}  history: 2 records, audit: 1 record" in dry.stdout
    assert "(dry run)" in dry.stderr
    assert rows(sql_url, "ctxchat_history", "history_key")[deleted] == 2

    unconfirmed = ctxchat("sessions", "prune", "--orphans", env=cli_env)
    assert_clean_error(unconfirmed, 2, "not confirmed")
    pruned = ctxchat("sessions", "prune", "--orphans", "--yes", env=cli_env)
    assert pruned.returncode == 0, pruned.stderr
    assert f"removed {deleted}" in pruned.stdout

    history = rows(sql_url, "ctxchat_history", "history_key")
    audit = rows(sql_url, "ctxchat_audit", "session_key")
    assert set(history) == {kept, shared}  # shared's own rows: still its session's
    assert set(audit) == {kept, shared}
    again = ctxchat("sessions", "prune", "--orphans", "--dry-run", env=cli_env)
    assert (again.returncode, again.stdout) == (0, "")
    assert "nothing to prune" in again.stderr


def test_prune_needs_one_of_its_choices(cli_env: dict[str, str]) -> None:
    assert_clean_error(ctxchat("sessions", "prune", env=cli_env), 2, "--older-than", "--orphans")
    both = ctxchat("sessions", "prune", "--orphans", "--older-than", "3d", env=cli_env)
    assert_clean_error(both, 2, "give one")


def test_a_session_from_a_newer_ctxchat_is_left_out_of_a_list_and_kept(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    newer = make(cli_env, "newer")
    path = spoil(ctxchat_home, newer, "version", 99)

    listed = ctxchat("sessions", "list", env=cli_env)

    assert listed.returncode == 0, listed.stderr
    assert f"session {newer} is left out: " in listed.stderr
    assert "upgrade ctxchat to open it" in listed.stderr
    assert "moves it aside" not in listed.stderr
    assert path.exists()
