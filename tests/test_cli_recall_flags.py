"""Recall through real `ctxchat` processes on SQLite and PostgreSQL: `run --temp` recalls
nothing (while a plain run recalls the same past message), and `sessions prune` takes the
pruned sessions' vectors with their rows, so hybrid search finds them no more."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cli_support import ctxchat, write_config
from fakeopenai import FakeOpenAI
from historykit import raw_query

from ctxchat.core.paths import sessions_dir
from ctxchat.ranking.recall_block import HEADER

pytest_plugins = ["sqlfixtures"]


def run(env: dict[str, str], *args: str) -> str:
    done = ctxchat("run", "--json", *args, env=env)
    assert done.returncode == 0, done.stderr
    return str(json.loads(done.stdout)["session"])


def recalled(fake: FakeOpenAI) -> list[str]:
    """The recall block of the last request to the model, if any."""
    return [
        str(m["content"])
        for m in fake.chat_requests()[-1].messages
        if str(m.get("content", "")).startswith(HEADER)
    ]


def test_a_temp_run_recalls_nothing(
    sql_url: str, cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    write_config(ctxchat_home, f'[storage]\nurl = "{sql_url}"\n')
    run(cli_env, "I signed up for a pottery class on Tuesdays")

    run(cli_env, "--temp", "when is my pottery class again?")
    assert recalled(fake_openai) == []

    run(cli_env, "when is my pottery class again?")  # the same input, not --temp
    [block] = recalled(fake_openai)
    assert "I signed up for a pottery class on Tuesdays" in block


def test_prune_takes_the_vectors_with_the_rows(
    sql_url: str, cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    write_config(
        ctxchat_home, f'[storage]\nurl = "{sql_url}"\n\n[embeddings]\nmodel = "fake-embed"\n'
    )
    old = run(cli_env, "my pottery class moved to Thursday")
    recent = run(cli_env, "my pottery teacher is called Ines")
    embedded = (
        "SELECT history_key, count(*) FROM ctxchat_history "
        "WHERE embedding IS NOT NULL GROUP BY history_key"
    )
    assert dict(raw_query(sql_url, embedded)) == {old: 2, recent: 2}
    path = sessions_dir(ctxchat_home) / f"{old}.json"
    document = json.loads(path.read_text())
    document["updated_at"] = (datetime.now(UTC) - timedelta(days=45)).isoformat()
    path.write_text(json.dumps(document))

    pruned = ctxchat("sessions", "prune", "--older-than", "30d", "--yes", env=cli_env)

    assert pruned.returncode == 0, pruned.stderr
    assert dict(raw_query(sql_url, embedded)) == {recent: 2}
    found = ctxchat("sessions", "search", "--json", "pottery", env=cli_env)
    assert found.returncode == 0, found.stderr
    assert {hit["session"] for hit in json.loads(found.stdout)} == {recent}
