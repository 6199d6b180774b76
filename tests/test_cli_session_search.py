"""`ctxchat sessions search` end to end: real `ctxchat` processes, the local test server as
the model, the default pipeline's SQL history as what is searched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import assert_clean_error, ctxchat, write_config
from fakeopenai import FakeOpenAI, Text, ToolCalls


def chat(env: dict[str, str], text: str, session: str | None = None) -> str:
    """One turn (the server echoes it); the session's id."""
    where = ["--session", session] if session else []
    done = ctxchat("run", "--json", *where, text, env=env)
    assert done.returncode == 0, done.stderr
    return str(json.loads(done.stdout)["session"])


def search(env: dict[str, str], *args: str) -> list[dict[str, object]]:
    done = ctxchat("sessions", "search", "--json", *args, env=env)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert isinstance(found, list)
    return found


def test_a_word_said_in_another_session_is_found_with_its_session(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    first = chat(cli_env, "we picked PostgreSQL for the database")
    chat(cli_env, "lunch plans for friday")
    ctxchat("sessions", "rename", first, "Database choice", env=cli_env)

    hits = search(cli_env, "postgresql")

    # The question and the server's echo of it; the shorter says it more (bm25).
    assert [(h["session"], h["title"], h["role"]) for h in hits] == [
        (first, "Database choice", "user"),
        (first, "Database choice", "assistant"),
    ]
    user = next(h for h in hits if h["role"] == "user")
    assert user["snippet"] == "we picked PostgreSQL for the database"
    start, end = user["highlights"][0]  # type: ignore[index]
    assert user["snippet"][start:end] == "PostgreSQL"  # type: ignore[index]


def test_the_query_is_words_without_quotes(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    session = chat(cli_env, "tips for language learning at home")

    hits = search(cli_env, "language", "learning", "--limit", "1")

    assert [h["session"] for h in hits] == [session]


def test_on_a_pipe_the_matched_words_are_marked(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    fake_openai.enqueue(Text("Sure."))
    session = chat(cli_env, "remember the   blue\n\nkettle")

    done = ctxchat("sessions", "search", "kettle", env=cli_env)

    assert done.returncode == 0, done.stderr
    header, snippet, neighbour = done.stdout.splitlines()
    assert header.startswith(f"{session}  ")
    assert header.endswith('  user  "remember the blue kettle"')
    assert snippet == "    remember the blue **kettle**"
    assert neighbour == "    reply: Sure."


def test_session_and_limit_narrow_the_search(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    one = chat(cli_env, "tea with milk")
    two = chat(cli_env, "tea without sugar")

    assert {h["session"] for h in search(cli_env, "tea", "--session", two)} == {two}
    assert len(search(cli_env, "tea", "--limit", "1")) == 1
    assert {h["session"] for h in search(cli_env, "tea")} == {one, two}


def test_a_deleted_session_is_found_no_more(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    gone = chat(cli_env, "a secret plan about zebras")
    kept = chat(cli_env, "zebras are striped")

    deleted = ctxchat("sessions", "delete", "--yes", gone, env=cli_env)

    assert deleted.returncode == 0, deleted.stderr
    assert {h["session"] for h in search(cli_env, "zebras")} == {kept}


def test_nothing_found_says_so_on_stderr(cli_env: dict[str, str], fake_openai: FakeOpenAI) -> None:
    chat(cli_env, "hello")

    done = ctxchat("sessions", "search", "absent", env=cli_env)

    assert (done.returncode, done.stdout) == (0, "")
    assert done.stderr == "no stored message holds those words\n"


def test_a_query_without_words_is_a_usage_error(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    done = ctxchat("sessions", "search", "?!", env=cli_env)

    assert_clean_error(done, 2, "nothing to search for")


def test_a_pipeline_without_a_sql_history_says_search_needs_one(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    write_config(ctxchat_home, '[[providers]]\ntype = "in_memory_history"\n')

    done = ctxchat("sessions", "search", "anything", env=cli_env)

    assert_clean_error(done, 1, "search reads what a sql_history provider stores")


def test_the_model_looks_up_a_past_session_with_the_search_tool(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    fake_openai.enqueue(Text("Noted: PostgreSQL it is."))
    earlier = chat(cli_env, "we decided the database will be PostgreSQL")
    fake_openai.enqueue(
        ToolCalls([("search_sessions", {"query": "database decided"})]),
        Text("Last week you chose PostgreSQL."),
    )

    done = ctxchat("run", "--json", "what did we decide about the database?", env=cli_env)

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["output"] == "Last week you chose PostgreSQL."
    result = fake_openai.chat_requests()[-1].messages[-1]
    assert result["role"] == "tool"
    header, snippet, neighbour = str(result["content"]).splitlines()[:3]
    assert header.startswith(f"{earlier}  ")
    assert header.endswith('  user  "we decided the database will be PostgreSQL"')
    assert snippet == "    we **decided** the **database** will be PostgreSQL"
    assert neighbour == "    reply: Noted: PostgreSQL it is."  # the answer beside the match


def test_indexing_a_large_old_history_shows_a_bar_on_a_terminal_only(
    cli_env: dict[str, str], ctxchat_home: Path, tmp_path: Path
) -> None:
    import shutil

    import pexpect
    from conftest import ctxchat_executable
    from test_session_search import write_version_2

    from ctxchat.providers.history.index import PROGRESS_FROM

    database = ctxchat_home / "history.sqlite3"
    texts = [f"remark {i} about lunch" for i in range(PROGRESS_FROM)] + ["one on kubernetes"]
    write_version_2(f"sqlite:///{database}", texts)
    copy = tmp_path / "copy.sqlite3"
    shutil.copy(database, copy)

    piped = ctxchat("sessions", "search", "kubernetes", env=cli_env)
    assert piped.returncode == 0, piped.stderr  # no session claims the old rows: no hits
    assert "indexing" not in piped.stderr

    shutil.copy(copy, database)  # the old layout again, for a run on a terminal
    child = pexpect.spawn(
        ctxchat_executable(),
        ["sessions", "search", "kubernetes"],
        env=cli_env,
        encoding="utf-8",
        dimensions=(24, 100),
    )
    child.expect_exact("indexing the history for search")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == piped.returncode


@pytest.mark.parametrize("command", [("sessions", "search", "apple"), ("sessions", "list")])
def test_a_limit_no_database_can_hold_is_a_usage_error(
    cli_env: dict[str, str], command: tuple[str, ...]
) -> None:
    """Issue 21, item 11: it was a database error."""
    result = ctxchat(*command, "--limit", "99999999999999999999", env=cli_env)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.splitlines()) == 1
    assert "--limit" in result.stderr


def test_a_failing_embeddings_endpoint_searches_by_words_and_says_so_once(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    write_config(ctxchat_home, '[embeddings]\nmodel = "fake-embed"\n')
    chat(cli_env, "I signed up for a pottery class on Tuesdays")
    assert fake_openai.embedding_requests()  # hybrid: the turn was embedded
    fake_openai.fail_embeddings_with = 500

    done = ctxchat("sessions", "search", "pottery", "class", env=cli_env)

    assert done.returncode == 0, done.stderr
    assert "Tuesdays" in done.stdout  # found by its words
    said = done.stderr.splitlines()
    assert len(said) == 1, done.stderr
    assert said[0].startswith("ctxchat: warning: search by words only: embeddings from ")


def test_the_search_tool_notes_a_failing_embeddings_endpoint_in_its_result(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    write_config(ctxchat_home, '[embeddings]\nmodel = "fake-embed"\n')
    fake_openai.enqueue(Text("Noted: PostgreSQL it is."))
    chat(cli_env, "we decided the database will be PostgreSQL")
    fake_openai.fail_embeddings_with = 500
    fake_openai.enqueue(
        ToolCalls([("search_sessions", {"query": "database decided"})]),
        Text("Last week you chose PostgreSQL."),
    )

    done = ctxchat("run", "--json", "what did we decide about the database?", env=cli_env)

    assert done.returncode == 0, done.stderr
    result = fake_openai.chat_requests()[-1].messages[-1]
    assert result["role"] == "tool"
    lines = str(result["content"]).splitlines()
    assert lines[0].startswith("note: search by words only: embeddings from ")
    assert [line.startswith("note: ") for line in lines].count(True) == 1
    assert lines[2] == "    we **decided** the **database** will be PostgreSQL"
