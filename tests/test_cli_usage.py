"""`ctxchat usage` and `/cost` end to end: real `ctxchat` processes, the local test server
as the model (reporting usage, or not), the default pipeline's SQL history on a SQLite file
and on PostgreSQL (`[storage] url`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cli_support import assert_clean_error, assert_clean_errors, ctxchat, write_config
from fakeopenai import FakeOpenAI, Text
from repl_support import PROMPT, Repls, seen, turn

pytest_plugins = ["sqlfixtures"]

PRICES = '[prices."fake-model"]\ninput = 2.0\noutput = 8.0\n'


def configure(home: Path, sql_url: str, extra: str = "") -> None:
    write_config(home, f"[storage]\nurl = {json.dumps(sql_url)}\n\n{PRICES}{extra}")


def chat(env: dict[str, str], text: str, *flags: str) -> str:
    done = ctxchat("run", "--json", *flags, text, env=env)
    assert done.returncode == 0, done.stderr
    return str(json.loads(done.stdout).get("session"))


def usage(env: dict[str, str], *args: str) -> dict[str, Any]:
    done = ctxchat("usage", "--json", *args, env=env)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert isinstance(found, dict)
    return found


def test_usage_sums_and_prices_each_stored_turn(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI, sql_url: str
) -> None:
    configure(ctxchat_home, sql_url)
    fake_openai.enqueue(Text("one", usage=(1000, 100)), Text("two", usage=(3000, 400)))
    first = chat(cli_env, "hello")
    chat(cli_env, "again", "--session", first)

    total = usage(cli_env)["total"]
    assert (total["turns"], total["input_tokens"], total["output_tokens"]) == (2, 4000, 500)
    assert total["cost"] == (4000 * 2.0 + 500 * 8.0) / 1_000_000
    assert total["cost_partial"] is False
    by_session = usage(cli_env, "--by", "session")["groups"]
    assert [(g["key"], g["turns"]) for g in by_session] == [(first, 2)]

    shown = ctxchat("usage", env=cli_env)
    assert shown.returncode == 0, shown.stderr
    assert "fake-model" in shown.stdout
    assert "4,000" in shown.stdout
    assert "0.0120" in shown.stdout


def test_unreported_usage_is_unknown_and_a_temp_chat_writes_nothing(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI, sql_url: str
) -> None:
    configure(ctxchat_home, sql_url)
    fake_openai.enqueue(Text("counted", usage=(50, 5)))
    chat(cli_env, "reported")
    fake_openai.report_usage = False
    chat(cli_env, "not reported")
    fake_openai.report_usage = True
    fake_openai.enqueue(Text("temporary", usage=(7000, 700)))
    done = ctxchat("run", "--temp", "off the record", env=cli_env)
    assert done.returncode == 0, done.stderr

    total = usage(cli_env)["total"]
    assert (total["turns"], total["unknown_turns"]) == (2, 1)
    assert (total["input_tokens"], total["output_tokens"]) == (50, 5)
    assert total["cost_partial"] is True
    shown = ctxchat("usage", env=cli_env).stdout
    assert "1 unknown" in shown
    assert "≥" in shown


def test_deleting_sessions_keeps_their_spend(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI, sql_url: str
) -> None:
    configure(ctxchat_home, sql_url)
    fake_openai.enqueue(Text("a", usage=(10, 1)), Text("b", usage=(20, 2)))
    sessions = [chat(cli_env, "first"), chat(cli_env, "second")]

    for gone in sessions:
        deleted = ctxchat("sessions", "delete", gone, "--yes", env=cli_env)
        assert deleted.returncode == 0, deleted.stderr
    pruned = ctxchat("sessions", "prune", "--orphans", "--yes", env=cli_env)
    assert pruned.returncode == 0, pruned.stderr
    assert json.loads(ctxchat("sessions", "list", "--json", env=cli_env).stdout) == []

    total = usage(cli_env)["total"]
    assert (total["turns"], total["input_tokens"], total["output_tokens"]) == (2, 30, 3)


def test_bad_arguments_and_prices_are_one_line_errors(
    cli_env: dict[str, str], ctxchat_home: Path, sqlite_url: str
) -> None:
    configure(ctxchat_home, sqlite_url)
    assert_clean_error(ctxchat("usage", "--by", "week", env=cli_env), 2, "--by", "week")
    assert_clean_error(ctxchat("usage", "--since", "soon", env=cli_env), 2, "--since", "soon")

    write_config(ctxchat_home, '[prices."fake-model"]\ninput = "cheap"\n')
    checked = ctxchat("config", "validate", env=cli_env)
    lines = assert_clean_errors(checked, 2, 'prices."fake-model".')
    assert [line.split('prices."fake-model".')[1] for line in lines] == [
        "input: expected a number of 0 or more, not 'cheap'",
        "output: missing (the price per million output tokens)",
    ]


def test_cost_in_the_repl_shows_this_session_only(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI, sqlite_url: str
) -> None:
    configure(ctxchat_home, sqlite_url)
    fake_openai.enqueue(Text("elsewhere", usage=(9000, 900)))
    chat(cli_env, "another session")
    fake_openai.enqueue(Text("here", usage=(1234, 56)))
    repls = Repls(cli_env)
    try:
        child = repls()
        turn(child, "hello")
        child.send("/cost\r")
        child.expect_exact("this session")
        child.expect_exact("total")
        child.expect_exact(PROMPT)
        screen = seen(child).rsplit("/cost", 1)[1]
    finally:
        repls.close()
    assert "1,234" in screen
    assert "9,000" not in screen


def test_a_pipeline_without_a_sql_history_says_usage_needs_one(
    cli_env: dict[str, str], ctxchat_home: Path
) -> None:
    write_config(ctxchat_home, '[[providers]]\ntype = "in_memory_history"\nsource_id = "s"\n')
    done = ctxchat("usage", env=cli_env)
    assert_clean_error(done, 1, "no history in this pipeline keeps a usage ledger", "sql_history")
