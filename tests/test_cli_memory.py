"""User memory end to end: real `ctxchat` processes against the local OpenAI-protocol server,
with the default pipeline (which has the memory provider in it)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_support import assert_clean_error, ctxchat, stored_texts
from fakeopenai import FakeOpenAI
from repl_support import Repls, quit_, turn


def memory_rows(home: Path) -> list[str]:
    database = home / "history.sqlite3"
    if not database.exists():
        return []
    with sqlite3.connect(database) as conn:
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master")}
        rows = (
            [r[0] for r in conn.execute("SELECT fact FROM ctxchat_memory")]
            if ("ctxchat_memory" in tables)
            else []
        )
    conn.close()
    return rows


def system_of(fake_openai: FakeOpenAI) -> str:
    return str(fake_openai.chat_requests()[-1].messages[0]["content"])


def test_remembered_in_one_session_recalled_in_the_next_forgotten_for_real(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    told = ctxchat("run", "--json", "I'm allergic to peanuts.", env=cli_env)
    assert told.returncode == 0, told.stderr
    assert "remembered: allergy: I'm allergic to peanuts." in told.stderr
    first = json.loads(told.stdout)["session"]

    assert ctxchat("run", "What could I bake?", env=cli_env).returncode == 0
    assert "peanuts" in system_of(fake_openai)

    forgot = ctxchat("run", "Forget my allergy.", env=cli_env)
    assert "forgot: allergy: I'm allergic to peanuts." in forgot.stderr
    assert ctxchat("run", "What could I bake?", env=cli_env).returncode == 0
    assert "peanut" not in system_of(fake_openai)
    assert not any("peanut" in row for row in memory_rows(ctxchat_home))
    # Forgetting a memory is not deleting a conversation: what was said is still there.
    assert ("user", "I'm allergic to peanuts.") in stored_texts(cli_env, first)


def test_memory_list_forget_and_export(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    assert (
        ctxchat("run", "I live in Porto and I have a cat named Miso.", env=cli_env).returncode == 0
    )
    listed = ctxchat("memory", "list", "--json", env=cli_env)
    facts = json.loads(listed.stdout)
    assert sorted(f["value"] for f in facts) == ["I have a cat named Miso.", "I live in Porto"]
    table = ctxchat("memory", "list", env=cli_env).stdout
    assert "home" in table
    assert "Porto" in table

    cat = next(f for f in facts if "Miso" in f["value"])
    assert ctxchat("memory", "forget", cat["id"], env=cli_env).stdout == f"forgot {cat['id']}\n"
    assert_clean_error(ctxchat("memory", "forget", cat["id"], env=cli_env), 2, "no remembered")
    exported = ctxchat("memory", "export", "--format", "md", env=cli_env).stdout
    assert "**home**: I live in Porto" in exported
    assert "Miso" not in exported


def test_memory_eval_runs_cases_through_the_provider(
    cli_env: dict[str, str], tmp_path: Path
) -> None:
    cases = tmp_path / "cases.jsonl"
    lines = [
        {"id": "a", "turns": ["I'm a teacher."], "present": ["teacher"], "tags": ["job"]},
        {
            "id": "b",
            "turns": ["What is a teacher?"],
            "present": [],
            "absent": ["teacher"],
            "tags": ["negative"],
        },
        {"id": "c", "turns": ["I'm a chef."], "present": ["astronaut"], "tags": ["job"]},
    ]
    cases.write_text("".join(json.dumps(line) + "\n" for line in lines))
    done = ctxchat("memory", "eval", str(cases), "--json", env=cli_env)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "pass_rate": pytest.approx(2 / 3),
        "by_tag": {"job": 0.5, "negative": 1.0},
        "failed": ["c"],
    }
    shown = ctxchat("memory", "eval", str(cases), "--show-failed", env=cli_env)
    assert shown.returncode == 0, shown.stderr
    assert (
        "c:\n  said: I'm a chef.\n  block - work: I'm a chef.\n  missing: astronaut" in shown.stdout
    )
    detailed = json.loads(
        ctxchat("memory", "eval", str(cases), "--json", "--show-failed", env=cli_env).stdout
    )
    assert [f["id"] for f in detailed["failures"]] == ["c"]
    broken = tmp_path / "broken.jsonl"
    broken.write_text("{not json\n")
    assert_clean_error(ctxchat("memory", "eval", str(broken), env=cli_env), 2, "broken.jsonl:1")


def test_no_memory_recalls_and_learns_nothing(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    assert ctxchat("run", "I live in Quito.", env=cli_env).returncode == 0
    done = ctxchat("run", "--no-memory", "I moved to Lima.", env=cli_env)
    assert "remembered" not in done.stderr
    assert "Quito" not in system_of(fake_openai)
    facts = json.loads(ctxchat("memory", "list", "--json", env=cli_env).stdout)
    assert [f["value"] for f in facts] == ["I live in Quito."]


def test_temp_leaves_nothing_behind(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    done = ctxchat("run", "--temp", "--lines", env=cli_env, stdin="I live in Kyoto.\nsecond\n")
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("temporary chat") == 1
    # The conversation still holds within the run: the second turn saw the first.
    assert [m["content"] for m in fake_openai.chat_requests()[-1].messages[1:]] == [
        "I live in Kyoto.",
        "echo: I live in Kyoto.",
        "second",
    ]
    sessions = ctxchat_home / "sessions"
    assert not sessions.exists() or not any(sessions.iterdir())
    assert not (ctxchat_home / "history.sqlite3").exists()
    assert_clean_error(ctxchat("run", "--temp", "-c", "x", env=cli_env), 2, "--temp")


@pytest.fixture
def repl(cli_env: dict[str, str]) -> Iterator[Repls]:
    repls = Repls(cli_env)
    yield repls
    repls.close()


def test_memory_in_the_repl(repl: Repls, fake_openai: FakeOpenAI) -> None:
    child = repl()
    child.send("I'm vegetarian and I live in Ghent.\r")
    child.expect_exact("remembered: diet: I'm vegetarian")
    child.expect_exact("remembered: home: I live in Ghent.")
    child.expect_exact("tokens ")
    child.send("/memory\r")
    child.expect(r"1\s+diet\s+I'm vegetarian")
    child.send("/memory forget 1\r")
    child.expect_exact("forgot: diet: I'm vegetarian")
    # Numbers are the last listing's until the next: a second forget 1 does not hit Ghent.
    child.send("/memory forget 1\r")
    child.expect_exact("fact 1 of the last listing is forgotten already")
    child.send("/memory why 2\r")
    child.expect_exact("you said: I'm vegetarian and I live in Ghent.")
    child.send("/memory\r")
    child.expect(r"1\s+home\s+I live in Ghent")
    child.send("/memory clear\r")
    child.expect_exact("to go on: /memory clear yes")
    child.send("/memory off\r")
    child.expect_exact("memory off")
    turn(child, "I love tennis.")
    assert "remembered" not in (child.before or "")
    assert "Ghent" not in fake_openai.chat_requests()[-1].messages[0]["content"]
    assert quit_(child) == 0
