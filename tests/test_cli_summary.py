"""The summary provider from the command line: every `ctxchat run -c` is a new process,
so a session resumed turn after turn shows that the summary resumes where it stopped; in
the REPL, /compact folds now and /context full shows the summary."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_support import ctxchat, is_fold, write_config
from fakeopenai import FakeOpenAI, RecordedRequest, Reply, Text, echo_reply
from repl_support import Repls, quit_, turn

FOLD_MARK = "You keep a running summary"

CONFIG = """\
[[providers]]
type = "sql_history"
source_id = "history"
max_messages = 4

[[providers]]
type = "summary"
source_id = "summary"
keep_turns = 1
"""


def summarising(fake: FakeOpenAI) -> None:
    counter = iter(range(1, 1000))

    def reply(request: RecordedRequest) -> Reply:
        if is_fold(request):
            return Text(f"SUMMARY-{next(counter)} of the talk about the garden")
        return echo_reply(request)

    fake.default = reply


def user_texts(request: RecordedRequest) -> list[str]:
    return [str(m["content"]) for m in request.messages if m["role"] == "user"]


def test_each_process_resumes_the_summary_where_the_last_one_stopped(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    write_config(ctxchat_home, CONFIG)
    summarising(fake_openai)
    first = ctxchat("run", "q1", env=cli_env)
    assert first.returncode == 0, first.stderr
    for n in range(2, 7):
        done = ctxchat("run", "-c", f"q{n}", env=cli_env)
        assert done.returncode == 0, done.stderr
    folds = [r for r in fake_openai.chat_requests() if is_fold(r)]
    chats = [r for r in fake_openai.chat_requests() if not is_fold(r)]
    # Folds after q3 (q1 fell out; q2 ahead) and after q5 (q3 fell out; q4 ahead).
    assert len(folds) == 2
    second = str(folds[1].messages[1]["content"])
    assert "SUMMARY-1" in second
    assert "user: q3" in second
    assert "user: q4" in second
    assert "user: q1" not in second
    assert "user: q2" not in second
    last = chats[-1]
    assert "SUMMARY-2" in str(last.messages[0]["content"])
    assert user_texts(last) == ["q5", "q6"]


@pytest.fixture
def repl(cli_env: dict[str, str]) -> Iterator[Repls]:
    repls = Repls(cli_env)
    yield repls
    repls.close()


def test_compact_and_context_full_in_the_repl(
    repl: Repls, fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    write_config(ctxchat_home, CONFIG.replace("max_messages = 4", "max_messages = 40"))
    summarising(fake_openai)
    child = repl()
    for n in range(1, 4):
        turn(child, f"q{n}")
    child.send("/compact 1\r")
    child.expect_exact("summarised 4 messages; the summary now reads:")
    child.expect_exact("SUMMARY-1 of the talk about the garden")
    fold = [r for r in fake_openai.chat_requests() if is_fold(r)]
    assert len(fold) == 1
    assert "user: q2" in str(fold[0].messages[1]["content"])
    assert "user: q3" not in str(fold[0].messages[1]["content"])
    turn(child, "q4")
    last = fake_openai.chat_requests()[-1]
    assert user_texts(last) == ["q3", "q4"]
    child.send("/context full\r")
    child.expect_exact("summary:")
    child.expect_exact("Summary of the earlier conversation (4 messages")
    child.expect_exact("SUMMARY-1 of the talk about the garden")
    child.send("/compact 5\r")
    child.expect_exact("nothing to compact")
    assert quit_(child) == 0
