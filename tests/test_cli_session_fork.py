"""`ctxchat sessions fork` end to end: the fork has the conversation up to a turn, its own
copy of the history, and the two are independent both ways."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import assert_clean_error, ctxchat, stored_texts, write_config
from fakeopenai import FakeOpenAI

IN_MEMORY = '[[providers]]\ntype = "in_memory_history"\n'


def chat(env: dict[str, str], text: str, session: str | None = None) -> str:
    where = ["--session", session] if session else []
    done = ctxchat("run", "--json", *where, text, env=env)
    assert done.returncode == 0, done.stderr
    return str(json.loads(done.stdout)["session"])


def fork(env: dict[str, str], *args: str) -> str:
    done = ctxchat("sessions", "fork", *args, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout.split(":")[0]


def users(env: dict[str, str], session: str) -> list[str]:
    return [text for role, text in stored_texts(env, session) if role == "user"]


def listed(env: dict[str, str]) -> dict[str, dict[str, object]]:
    done = ctxchat("sessions", "list", "--json", env=env)
    assert done.returncode == 0, done.stderr
    return {e["id"]: e for e in json.loads(done.stdout)}


@pytest.fixture(params=["sql_history", "in_memory_history"])
def env(
    request: pytest.FixtureRequest, cli_env: dict[str, str], ctxchat_home: Path
) -> dict[str, str]:
    if request.param == "in_memory_history":
        write_config(ctxchat_home, IN_MEMORY)
    return cli_env


def test_a_fork_at_a_turn_has_the_conversation_up_to_it(
    env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    source = chat(env, "one")
    chat(env, "two", source)
    chat(env, "three", source)

    forked = fork(env, source, "--at", "2")

    assert users(env, forked) == ["one", "two"]
    entry = listed(env)[forked]
    assert entry["turns"] == 2
    assert entry["forked_from"] == {"session": source, "turn": 2}
    assert listed(env)[source]["forked_from"] is None
    shown = ctxchat("sessions", "show", forked, "--plain", env=env)
    assert f"forked from {source} at turn 2" in shown.stdout


def test_fork_and_original_are_independent_both_ways(
    env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    source = chat(env, "one")
    chat(env, "two", source)
    forked = fork(env, source)
    assert users(env, forked) == ["one", "two"]

    chat(env, "only in the fork", forked)
    chat(env, "only in the original", source)

    assert users(env, source) == ["one", "two", "only in the original"]
    assert users(env, forked) == ["one", "two", "only in the fork"]
    deleted = ctxchat("sessions", "delete", "--yes", source, env=env)
    assert deleted.returncode == 0, deleted.stderr
    assert users(env, forked) == ["one", "two", "only in the fork"]


def test_a_deleted_original_leaves_the_forks_history_searchable(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    source = chat(cli_env, "giraffes are tall")
    forked = fork(cli_env, source)
    ctxchat("sessions", "delete", "--yes", source, env=cli_env)

    done = ctxchat("sessions", "search", "--json", "giraffes", env=cli_env)

    assert {h["session"] for h in json.loads(done.stdout)} == {forked}


@pytest.mark.parametrize("at", ["0", "3"])
def test_a_turn_the_session_does_not_have_is_refused(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, at: str
) -> None:
    source = chat(cli_env, "one")
    chat(cli_env, "two", source)

    done = ctxchat("sessions", "fork", source, "--at", at, env=cli_env)

    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) <= 3  # typer's usage box or our one line
    assert "Traceback" not in done.stderr


def test_an_unknown_session_cannot_be_forked(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    done = ctxchat("sessions", "fork", "NOSUCH", env=cli_env)

    assert_clean_error(done, 2, "NOSUCH")
