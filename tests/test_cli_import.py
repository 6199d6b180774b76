"""`ctxchat import` end to end: real `ctxchat` processes importing sample files of each
format (`import_samples`) into the default pipeline's SQL history, on a SQLite file and
on PostgreSQL (`[storage] url`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pexpect
import pytest
from cli_support import (
    assert_clean_error,
    ctxchat,
    session_documents,
    stored_texts,
    write_config,
)
from fakeopenai import FakeOpenAI, Text
from import_samples import ANSWER, HOME_TOWN, QUESTION, SAMPLES, SECRET, write_sample
from repl_support import Repls

pytest_plugins = ["sqlfixtures"]

WITHHELD = "[secret withheld]"


def configure(home: Path, sql_url: str, extra: str = "") -> None:
    write_config(home, f"[storage]\nurl = {json.dumps(sql_url)}\n{extra}")


def import_json(env: dict[str, str], *args: str) -> dict[str, Any]:
    done = ctxchat("import", *args, "--json", env=env)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert isinstance(found, dict)
    return found


@pytest.mark.parametrize("fmt", sorted(SAMPLES))
def test_each_format_imports_once_with_its_date_title_and_source_and_no_secret(
    fmt: str, cli_env: dict[str, str], ctxchat_home: Path, tmp_path: Path, sql_url: str
) -> None:
    configure(ctxchat_home, sql_url)
    sample = write_sample(fmt, tmp_path / "in")

    dry = import_json(cli_env, fmt, str(sample), "--dry-run")
    assert dry["dry_run"] is True
    assert dry["sessions"] == 1
    assert dry["secrets_masked"] >= 1
    assert dry["tokens_to_embed"] > 0
    assert session_documents(ctxchat_home) == []  # a dry run stores nothing

    done = import_json(cli_env, fmt, str(sample))
    assert (done["sessions"], done["messages"]) == (1, dry["messages"])
    assert done["secrets_masked"] == dry["secrets_masked"]
    [document] = session_documents(ctxchat_home)
    assert document["state"]["import"]["source"] == fmt
    assert document["state"]["import"]["key"]
    assert document["model"] is None  # the source's model is said, the session uses yours
    if fmt != "jsonl":  # a JSONL export has no dates: the file's own time stands for them
        assert document["created_at"].startswith("2024-06-01")
        assert document["updated_at"].startswith("2024-06-01")
    texts = stored_texts(cli_env, document["id"])
    joined = "\n".join(text for _, text in texts)
    assert (texts[0][0], texts[0][1]) == ("user", QUESTION)
    assert ANSWER in joined
    assert HOME_TOWN in joined
    assert SECRET not in json.dumps(document)
    shown = ctxchat("sessions", "export", document["id"], "--format", "json", env=cli_env)
    assert shown.returncode == 0, shown.stderr
    assert SECRET not in shown.stdout  # no copy of it anywhere the session holds
    if fmt in ("llm", "chatgpt", "gptme"):
        assert WITHHELD in joined  # said in the user's own words, masked there

    again = import_json(cli_env, fmt, str(sample))
    assert (again["sessions"], again["already_imported"]) == (0, 1)
    assert len(session_documents(ctxchat_home)) == 1
    assert stored_texts(cli_env, document["id"]) == texts  # nothing added twice

    hits = ctxchat("sessions", "search", "reverse", "list", "--json", env=cli_env)
    assert hits.returncode == 0, hits.stderr
    assert document["id"] in {h["session"] for h in json.loads(hits.stdout)}


def test_an_export_imports_back(
    cli_env: dict[str, str],
    ctxchat_home: Path,
    tmp_path: Path,
    sql_url: str,
    fake_openai: FakeOpenAI,
) -> None:
    configure(ctxchat_home, sql_url)
    fake_openai.enqueue(Text("Paris, since 2019."), Text("Blue."))
    first = ctxchat("run", "--json", "where do I live?", env=cli_env)
    assert first.returncode == 0, first.stderr
    session = json.loads(first.stdout)["session"]
    assert ctxchat("run", "--session", session, "my colour?", env=cli_env).returncode == 0
    exported = tmp_path / "chat.jsonl"
    done = ctxchat("sessions", "export", session, "-o", str(exported), env=cli_env)
    assert done.returncode == 0, done.stderr

    imported = import_json(cli_env, "jsonl", str(exported))
    assert imported["sessions"] == 1
    [new] = [c["session"] for c in imported["conversations"]]
    assert new != session
    assert stored_texts(cli_env, new) == stored_texts(cli_env, session)
    [document] = [d for d in session_documents(ctxchat_home) if d["id"] == new]
    assert document["title"] == "chat"
    assert document["turns"] == 2


def test_bad_input_is_one_line_and_stores_nothing(
    cli_env: dict[str, str], ctxchat_home: Path, tmp_path: Path, sql_url: str
) -> None:
    configure(ctxchat_home, sql_url)
    good = write_sample("chatgpt", tmp_path / "in")
    assert_clean_error(
        ctxchat("import", "chatgtp", str(good), env=cli_env),
        2,
        "unknown import format 'chatgtp'",
        "did you mean 'chatgpt'",
    )
    assert_clean_error(
        ctxchat("import", "chatgpt", str(tmp_path / "missing.json"), env=cli_env),
        2,
        "missing.json: cannot be read",
    )
    # A file whose second conversation is damaged: the first is not imported either.
    conversations = json.loads(good.read_text("utf-8"))
    damaged = tmp_path / "damaged.json"
    damaged.write_text(json.dumps([conversations[0], {"title": "x"}]), encoding="utf-8")
    assert_clean_error(
        ctxchat("import", "chatgpt", str(damaged), env=cli_env),
        2,
        "conversation 2 is not a ChatGPT conversation",
    )
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"role": "user", "content": "hi"}\n{"role": \n', encoding="utf-8")
    assert_clean_error(
        ctxchat("import", "jsonl", str(broken), env=cli_env), 2, "broken.jsonl:2: not JSON"
    )
    assert session_documents(ctxchat_home) == []
    assert import_json(cli_env, "chatgpt", str(good))["sessions"] == 1  # nothing half-kept


def test_learn_shows_what_it_would_keep_and_keeps_it_when_told(
    cli_env: dict[str, str], ctxchat_home: Path, tmp_path: Path, sql_url: str
) -> None:
    configure(ctxchat_home, sql_url)
    sample = write_sample("claude-code", tmp_path / "in")

    refused = ctxchat("import", "claude-code", str(sample), "--learn", env=cli_env)
    assert_clean_error(refused, 2, "--learn asks before remembering anything")
    assert session_documents(ctxchat_home) == []

    dry = import_json(cli_env, "claude-code", str(sample), "--learn", "--dry-run")
    assert any("Ghent" in line for line in dry["would_learn"])
    assert _facts(cli_env) == []

    done = ctxchat("import", "claude-code", str(sample), "--learn", "--yes", env=cli_env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith("\nremembered: home: I live in Ghent.\n")
    [fact] = _facts(cli_env)
    assert "Ghent" in fact["value"]
    [document] = session_documents(ctxchat_home)
    assert fact["provenance"]["session_id"] == document["id"]


def test_learn_leaves_what_memory_holds_now(
    cli_env: dict[str, str],
    ctxchat_home: Path,
    tmp_path: Path,
    sql_url: str,
    fake_openai: FakeOpenAI,
) -> None:
    configure(ctxchat_home, sql_url)
    fake_openai.enqueue(Text("Noted."))
    assert ctxchat("run", "I live in Berlin.", env=cli_env).returncode == 0
    sample = write_sample("gptme", tmp_path / "in")
    done = ctxchat("import", "gptme", str(sample), "--learn", "--yes", env=cli_env)
    assert done.returncode == 0, done.stderr
    assert [f["value"] for f in _facts(cli_env)] == ["I live in Berlin."]


def test_embed_makes_vectors_for_the_imported_messages_only_when_asked(
    cli_env: dict[str, str],
    ctxchat_home: Path,
    tmp_path: Path,
    sql_url: str,
    fake_openai: FakeOpenAI,
) -> None:
    configure(ctxchat_home, sql_url, '\n[embeddings]\nmodel = "fake-embed"\n')
    sample = write_sample("llm", tmp_path / "in")
    dry = import_json(cli_env, "llm", str(sample), "--dry-run", "--embed")
    assert "embedded" not in dry
    assert fake_openai.embedding_requests() == []
    done = import_json(cli_env, "llm", str(sample), "--embed")
    assert done["embedded"] == done["messages"] == 4
    embedded = [t for r in fake_openai.embedding_requests() for t in r.body["input"]]
    assert QUESTION in embedded
    assert not any(SECRET in t for t in embedded)  # masked before anything left


def test_embed_without_an_embeddings_table_is_refused_before_storing(
    cli_env: dict[str, str], ctxchat_home: Path, tmp_path: Path, sql_url: str
) -> None:
    configure(ctxchat_home, sql_url)
    sample = write_sample("llm", tmp_path / "in")
    done = ctxchat("import", "llm", str(sample), "--embed", env=cli_env)
    assert_clean_error(done, 2, "--embed needs an [embeddings] table")
    assert session_documents(ctxchat_home) == []


def _facts(env: dict[str, str]) -> list[dict[str, Any]]:
    listed = ctxchat("memory", "list", "--json", env=env)
    assert listed.returncode == 0, listed.stderr
    found = json.loads(listed.stdout)
    assert isinstance(found, list)
    return found


def test_imported_rows_are_the_importing_users_own(
    cli_env: dict[str, str], ctxchat_home: Path, tmp_path: Path, sql_url: str
) -> None:
    configure(ctxchat_home, sql_url)
    ann = {**cli_env, "CTXCHAT_USER": "ann"}
    sample = write_sample("codex", tmp_path / "in")
    assert import_json(ann, "codex", str(sample))["sessions"] == 1

    def found(env: dict[str, str]) -> list[str]:
        hits = ctxchat("sessions", "search", "reverse", "list", "--json", env=env)
        assert hits.returncode == 0, hits.stderr
        return [h["session"] for h in json.loads(hits.stdout)]

    assert len(found(ann)) >= 1
    assert found({**cli_env, "CTXCHAT_USER": "bob"}) == []  # search reads only your rows


def test_a_history_kept_in_the_session_file_takes_an_import_too(
    cli_env: dict[str, str], ctxchat_home: Path, tmp_path: Path
) -> None:
    # No memory in this pipeline: the screen is still memory's, found by its provider type.
    write_config(ctxchat_home, '[[providers]]\ntype = "in_memory_history"\n')
    sample = write_sample("chatgpt", tmp_path / "in")
    done = import_json(cli_env, "chatgpt", str(sample))
    assert (done["sessions"], done["secrets_masked"]) == (1, 1)
    [document] = session_documents(ctxchat_home)
    assert SECRET not in json.dumps(document)
    assert stored_texts(cli_env, document["id"])[:2] == [("user", QUESTION), ("assistant", ANSWER)]
    assert import_json(cli_env, "chatgpt", str(sample))["already_imported"] == 1


def test_an_imported_session_goes_on_with_your_model_and_its_whole_history(
    cli_env: dict[str, str],
    ctxchat_home: Path,
    tmp_path: Path,
    sql_url: str,
    fake_openai: FakeOpenAI,
) -> None:
    configure(ctxchat_home, sql_url)
    sample = write_sample("claude-code", tmp_path / "in")
    [conversation] = import_json(cli_env, "claude-code", str(sample))["conversations"]
    session = conversation["session"]
    shown = ctxchat("sessions", "show", session, env=cli_env)
    assert shown.returncode == 0, shown.stderr
    assert "imported from claude-code (9f1c2d3e-" in shown.stdout
    assert "claude-sonnet-4-20250514" in shown.stdout

    fake_openai.enqueue(Text("Sorted too: sorted(xs, reverse=True)."))
    done = ctxchat("run", "--session", session, "and sorted descending?", env=cli_env)
    assert done.returncode == 0, done.stderr
    [request] = fake_openai.chat_requests()
    assert request.model == "fake-model"
    sent = request.messages
    assert [m["role"] for m in sent[1:]] == [
        "user",
        "assistant",
        "tool",
        "assistant",
        "user",
        "user",
    ]
    assert sent[1]["content"] == QUESTION
    assert sent[2]["tool_calls"][0]["function"]["name"] == "Bash"
    assert sent[3]["tool_call_id"] == sent[2]["tool_calls"][0]["id"]
    assert SECRET not in json.dumps(sent)
    assert sent[-1]["content"] == "and sorted descending?"


def test_learn_on_a_terminal_asks_and_can_be_asked_again(
    cli_env: dict[str, str], ctxchat_home: Path, tmp_path: Path, sqlite_url: str
) -> None:
    configure(ctxchat_home, sqlite_url)
    sample = str(write_sample("chatgpt", tmp_path / "in"))
    repls = Repls(cli_env)
    try:
        child = repls.spawn("import", "chatgpt", sample, "--learn")
        child.expect_exact("would remember: home: I live in Ghent.")
        child.expect_exact("Remember these 1?")
        child.send("n\r")
        child.expect_exact("memory: nothing remembered")
        child.expect(pexpect.EOF)
        assert _facts(cli_env) == []

        # Imported already, the conversation can still be learnt from.
        child = repls.spawn("import", "chatgpt", sample, "--learn")
        child.expect_exact("1 already imported")
        child.expect_exact("Remember these 1?")
        child.send("y\r")
        child.expect_exact("remembered: home: I live in Ghent.")
        child.expect(pexpect.EOF)
    finally:
        repls.close()
    [fact] = _facts(cli_env)
    [document] = session_documents(ctxchat_home)
    assert fact["provenance"]["session_id"] == document["id"]
    stored_ids = {m["id"] for m in _session_messages(cli_env, document["id"])}
    assert fact["provenance"]["message_id"] in stored_ids  # the message as stored


def _session_messages(env: dict[str, str], session_id: str) -> list[dict[str, Any]]:
    shown = ctxchat("sessions", "export", session_id, "--format", "json", env=env)
    assert shown.returncode == 0, shown.stderr
    messages = json.loads(shown.stdout)["messages"]
    assert isinstance(messages, list)
    return messages
