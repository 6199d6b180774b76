"""`ctxchat sessions ...` on real session files, and on a real SQLite history."""

from __future__ import annotations

import json
import re
import sqlite3
import stat
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cli_support import (
    assert_clean_error,
    ctxchat,
    session_documents,
    sessions_dir,
    write_config,
)
from fakeopenai import Error, FakeOpenAI, Text, ToolCalls


def make_session(env: dict[str, str], *lines: str, title: str | None = None) -> str:
    args = ["run", "--lines", "--json"] + (["--title", title] if title else [])
    result = ctxchat(*args, env=env, stdin="".join(f"{line}\n" for line in lines))
    assert result.returncode == 0, result.stderr
    return str(json.loads(result.stdout.splitlines()[0])["session"])


def listed(env: dict[str, str], *args: str) -> list[dict[str, object]]:
    result = ctxchat("sessions", "list", "--json", *args, env=env)
    assert result.returncode == 0, result.stderr
    entries = json.loads(result.stdout)
    assert isinstance(entries, list)
    return entries


def test_list_newest_first_with_limit_and_json(cli_env: dict[str, str]) -> None:
    empty = ctxchat("sessions", "list", env=cli_env)
    assert empty.returncode == 0
    assert empty.stdout == ""
    assert listed(cli_env) == []

    older = make_session(cli_env, "a", "b", title="older one")
    newer = make_session(cli_env, "c")
    entries = listed(cli_env)
    assert [e["id"] for e in entries] == [newer, older]
    assert entries[1]["title"] == "older one"
    assert entries[1]["turns"] == 2
    assert entries[0]["model"] == "fake-model"
    assert set(entries[0]) == {
        "id",
        "title",
        "model",
        "turns",
        "created_at",
        "updated_at",
        "forked_from",
        "role",
        "project",
    }
    assert entries[0]["forked_from"] is None
    assert entries[0]["role"] is None
    assert [e["id"] for e in listed(cli_env, "--limit", "1")] == [newer]

    table = ctxchat("sessions", "list", env=cli_env)
    assert table.returncode == 0
    rows = table.stdout.splitlines()
    assert rows[0].split()[:4] == ["id", "title", "model", "turns"]
    assert rows[1].startswith(newer)
    assert rows[2].startswith(older)
    assert "older one" in rows[2]

    # Resuming an old session makes it the most recently used.
    make_session({**cli_env}, "x")  # a third, newest
    assert ctxchat("run", "-s", older, env=cli_env, stdin="more\n").returncode == 0
    assert listed(cli_env)[0]["id"] == older


def test_show_is_the_readable_conversation(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    fake_openai.enqueue(ToolCalls([("lookup", {"q": 1})]), Text("the **answer**"))
    session_id = make_session(cli_env, "question one", title="shown")

    result = ctxchat("sessions", "show", "shown", env=cli_env)

    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert session_id in out
    assert "shown" in out
    assert "1 turn ·" in out
    assert "you › question one" in out
    assert "lookup" in out
    assert "error: unknown tool" in out
    assert "the **answer**" in out  # not a terminal: plain text, nothing rendered away


def test_export_formats(cli_env: dict[str, str], fake_openai: FakeOpenAI, tmp_path: Path) -> None:
    fake_openai.enqueue(Text("reply one"), Text("reply ```two```"))
    session_id = make_session(cli_env, "ask one", "ask two", title="exported")

    md = ctxchat("sessions", "export", session_id, env=cli_env)
    assert md.returncode == 0, md.stderr
    assert md.stdout.startswith("# exported\n")
    assert "## You\n\nask one" in md.stdout
    assert "## Assistant\n\nreply one" in md.stdout

    jsonl = ctxchat("sessions", "export", "exported", "--format", "jsonl", env=cli_env)
    assert [json.loads(line) for line in jsonl.stdout.splitlines()] == [
        {"role": "user", "content": "ask one"},
        {"role": "assistant", "content": "reply one"},
        {"role": "user", "content": "ask two"},
        {"role": "assistant", "content": "reply ```two```"},
    ]

    target = tmp_path / "out" / "session.json"
    target.parent.mkdir()
    written = ctxchat(
        "sessions", "export", session_id, "-f", "json", "-o", str(target), env=cli_env
    )
    assert written.returncode == 0, written.stderr
    assert written.stdout == ""
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    document = json.loads(target.read_text())
    assert document["id"] == session_id
    assert document["turns"] == 2
    assert [m["role"] for m in document["messages"]] == ["user", "assistant"] * 2
    assert "state" in document
    assert list(target.parent.iterdir()) == [target]  # no temp file left behind


def test_rename_then_resolve_by_title(cli_env: dict[str, str]) -> None:
    session_id = make_session(cli_env, "hello")
    result = ctxchat("sessions", "rename", session_id[:22], "Trip  planning", env=cli_env)
    assert result.returncode == 0, result.stderr
    assert listed(cli_env)[0]["title"] == "Trip planning"
    shown = ctxchat("sessions", "show", "Trip planning", env=cli_env)
    assert shown.returncode == 0
    assert session_id in shown.stdout

    empty = ctxchat("sessions", "rename", session_id, "   ", env=cli_env)
    assert_clean_error(empty, 2, "title cannot be empty")


def test_delete_asks_unless_yes_and_resolves_everything_first(
    cli_env: dict[str, str], ctxchat_home: Path
) -> None:
    first = make_session(cli_env, "one", title="first")
    second = make_session(cli_env, "two", title="second")

    refused = ctxchat("sessions", "delete", first, env=cli_env, stdin="y\n")
    assert_clean_error(refused, 2, "--yes")
    typo = ctxchat("sessions", "delete", first, "no-such", "--yes", env=cli_env)
    assert_clean_error(typo, 2, "no-such")
    assert len(session_documents(ctxchat_home)) == 2

    deleted = ctxchat("sessions", "delete", "first", second[:24], "--yes", env=cli_env)
    assert deleted.returncode == 0, deleted.stderr
    assert deleted.stdout.splitlines() == [f"deleted {first}", f"deleted {second}"]
    assert session_documents(ctxchat_home) == []
    assert listed(cli_env) == []


def _age(home: Path, session_id: str, days: int) -> None:
    path = sessions_dir(home) / f"{session_id}.json"
    document = json.loads(path.read_text())
    document["updated_at"] = (datetime.now(UTC) - timedelta(days=days)).isoformat()
    path.write_text(json.dumps(document))


def test_prune_older_than(cli_env: dict[str, str], ctxchat_home: Path) -> None:
    old = make_session(cli_env, "old")
    recent = make_session(cli_env, "recent")
    _age(ctxchat_home, old, 45)
    _age(ctxchat_home, recent, 3)

    dry = ctxchat("sessions", "prune", "--older-than", "30d", "--dry-run", env=cli_env)
    assert dry.returncode == 0, dry.stderr
    assert old in dry.stdout
    assert recent not in dry.stdout
    assert len(session_documents(ctxchat_home)) == 2

    unconfirmed = ctxchat("sessions", "prune", "--older-than", "30d", env=cli_env)
    assert unconfirmed.returncode == 2
    assert len(session_documents(ctxchat_home)) == 2

    pruned = ctxchat("sessions", "prune", "--older-than", "4w", "--yes", env=cli_env)
    assert pruned.returncode == 0, pruned.stderr
    assert f"deleted {old}" in pruned.stdout
    assert [d["id"] for d in session_documents(ctxchat_home)] == [recent]

    bad = ctxchat("sessions", "prune", "--older-than", "a month", env=cli_env)
    assert_clean_error(bad, 2, "'a month' is not an age")


SQL_CONFIG = """
[[providers]]
type = "sql_history"
source_id = "history"

[[providers]]
type = "audit"
"""


def test_sql_history_rows_go_with_the_session(cli_env: dict[str, str], ctxchat_home: Path) -> None:
    write_config(ctxchat_home, SQL_CONFIG)
    keep = make_session(cli_env, "keep this")
    drop = make_session(cli_env, "drop one", "drop two")
    database = ctxchat_home / "history.sqlite3"

    def rows(table: str, key: str) -> dict[str, int]:
        with sqlite3.connect(database) as conn:
            return dict(conn.execute(f"SELECT {key}, COUNT(*) FROM {table} GROUP BY {key}"))

    assert rows("ctxchat_history", "history_key") == {keep: 2, drop: 4}
    assert only_session_state_has_no_messages(ctxchat_home)

    # The conversation comes from SQL, not from the session file.
    shown = ctxchat("sessions", "show", drop, env=cli_env)
    assert "you › drop two" in shown.stdout
    assert "echo: drop one" in shown.stdout

    deleted = ctxchat("sessions", "delete", drop, "--yes", env=cli_env)
    assert deleted.returncode == 0, deleted.stderr
    assert rows("ctxchat_history", "history_key") == {keep: 2}
    assert rows("ctxchat_audit", "session_key") == {keep: 1}
    assert [d["id"] for d in session_documents(ctxchat_home)] == [keep]


def only_session_state_has_no_messages(home: Path) -> bool:
    return all("messages" not in d["state"].get("history", {}) for d in session_documents(home))


def test_show_audit_renders_each_turn_by_source(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    write_config(ctxchat_home, SQL_CONFIG)
    fake_openai.enqueue(Text("first answer", usage=(30, 2)), Error(400, "rejected"))
    session_id = make_session(cli_env, "first question")
    failed = ctxchat("run", "-s", session_id, env=cli_env, stdin="second question\n")
    assert failed.returncode == 1

    result = ctxchat("sessions", "show", session_id, "--audit", env=cli_env)

    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "turn 1" in out
    assert "ok" in out
    assert "first question" in out
    assert "first answer" in out
    assert "usage: 30 in · 2 out" in out
    assert "turn 2" in out
    assert "FAILED" in out
    assert "rejected" in out
    assert "[history] 2 messages" in out  # what the history provider put in, by source


def test_export_audit_as_markdown_json_and_jsonl(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    write_config(ctxchat_home, SQL_CONFIG)
    fake_openai.enqueue(Text("first answer"), Error(400, "boom"))
    session_id = make_session(cli_env, "first question")
    assert ctxchat("run", "-s", session_id, env=cli_env, stdin="second\n").returncode == 1

    markdown = ctxchat("sessions", "export", session_id, "--audit", env=cli_env)
    assert markdown.returncode == 0, markdown.stderr
    assert "## Turn 1" in markdown.stdout
    assert "## Turn 2" in markdown.stdout
    assert "FAILED" in markdown.stdout
    assert "### Output (not stored)" in markdown.stdout

    as_json = ctxchat("sessions", "export", session_id, "--audit", "-f", "json", env=cli_env)
    records = json.loads(as_json.stdout)["audit"]["audit"]
    assert [r["ok"] for r in records] == [True, False]
    assert records[0]["input"][0]["parts"][0]["text"] == "first question"
    assert "history" in records[1]["context"]

    target = tmp_path / "audit.jsonl"
    written = ctxchat(
        "sessions", "export", session_id, "--audit", "-f", "jsonl", "-o", str(target), env=cli_env
    )
    assert written.returncode == 0, written.stderr
    assert "exported 2 audited turns" in written.stderr
    lines = [json.loads(line) for line in target.read_text().splitlines()]
    assert [(line["source"], line["ok"]) for line in lines] == [("audit", True), ("audit", False)]
    assert oct(target.stat().st_mode & 0o777) == "0o600"
    assert "sk-test-SECRET" not in target.read_text()


def test_show_audit_without_an_audit_provider_says_so(
    cli_env: dict[str, str], ctxchat_home: Path
) -> None:
    write_config(ctxchat_home, '[[providers]]\ntype = "sql_history"\n')
    session_id = make_session(cli_env, "hello")
    result = ctxchat("sessions", "show", session_id, "--audit", env=cli_env)
    assert_clean_error(result, 2, "keeps an audit record", 'type = "audit"')


def test_the_list_and_prune_write_the_last_use_the_same_way(
    cli_env: dict[str, str], ctxchat_home: Path
) -> None:
    old = make_session(cli_env, "old")
    _age(ctxchat_home, old, 45)
    listed = ctxchat("sessions", "list", env=cli_env)
    dry = ctxchat("sessions", "prune", "--older-than", "30d", "--dry-run", env=cli_env)
    assert listed.returncode == dry.returncode == 0, listed.stderr + dry.stderr
    stamp = re.compile(r"\b\d{4}-\d{2}-\d{2} \d{2}:\d{2}\b")
    (row,) = [line for line in listed.stdout.splitlines() if line.startswith(old)]
    (pruned,) = [line for line in dry.stdout.splitlines() if old in line]
    assert stamp.findall(row)[-1] in stamp.findall(pruned)  # last used, written alike
