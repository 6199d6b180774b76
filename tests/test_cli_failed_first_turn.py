"""`sessions list --all` (issue 23, item 4): a first turn that failed leaves no session
file, only its audit row under the session's id; `--all` lists it from that row, as
failed with no turns, and once `prune --orphans` has removed the row it is gone."""

from __future__ import annotations

import json
from pathlib import Path

from cli_support import ctxchat, only_session
from fakeopenai import Error, FakeOpenAI


def failed_id(env: dict[str, str]) -> str:
    dry = ctxchat("sessions", "prune", "--orphans", "--dry-run", env=env)
    assert dry.returncode == 0, dry.stderr
    [line] = dry.stdout.splitlines()
    return line.split()[0]


def test_list_all_shows_a_failed_first_turn_from_its_audit_row_until_pruned(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    assert ctxchat("run", "a first good turn", env=cli_env).returncode == 0
    kept = only_session(ctxchat_home)["id"]
    fake_openai.enqueue(Error(400, "no thanks"))
    assert ctxchat("run", "hello there", env=cli_env).returncode == 1
    failed = failed_id(cli_env)
    assert failed != kept

    plain = ctxchat("sessions", "list", env=cli_env)
    assert plain.returncode == 0, plain.stderr
    assert failed not in plain.stdout  # only sessions with a file

    listed = ctxchat("sessions", "list", "--all", env=cli_env)
    assert listed.returncode == 0, listed.stderr
    header, first, second = listed.stdout.splitlines()
    assert header.split()[:4] == ["id", "title", "model", "turns"]
    assert first.startswith(failed)  # the most recent first
    assert "(failed) hello there" in first
    assert first.split()[-5] == "0"  # turns, before the two dates and times
    assert second.startswith(kept)

    records = json.loads(ctxchat("sessions", "list", "--all", "--json", env=cli_env).stdout)
    by_id = {r["id"]: r for r in records}
    assert by_id[failed]["failed"] is True
    assert by_id[failed]["turns"] == 0
    assert by_id[failed]["title"] == "hello there"
    assert "no thanks" in by_id[failed]["error"]
    assert by_id[kept]["failed"] is False
    assert by_id[kept]["error"] is None

    pruned = ctxchat("sessions", "prune", "--orphans", "--yes", env=cli_env)
    assert pruned.returncode == 0, pruned.stderr
    after = ctxchat("sessions", "list", "--all", "--json", env=cli_env)
    assert [r["id"] for r in json.loads(after.stdout)] == [kept]
