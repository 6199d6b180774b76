"""The summary's fold runs in the background of the REPL (a real pseudo-terminal against
the local OpenAI-protocol server): the prompt is back while it runs; an input that comes
before it ends waits with a status line that Ctrl-C ends; the fold is saved with the
session; and the request after a skipped fold carries the summary of what fell out."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_support import is_fold, write_config
from fakeopenai import FakeOpenAI, RecordedRequest, Reply, Text, echo_reply
from repl_support import PROMPT, Repls, quit_, turn

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
STATUS = "summarising 4 older messages… Ctrl-C skips"


@pytest.fixture
def repl(cli_env: dict[str, str]) -> Iterator[Repls]:
    repls = Repls(cli_env)
    yield repls
    repls.close()


class HeldFirstFold:
    """The first fold request is answered only once `release` is set; later ones at once."""

    def __init__(self, fake: FakeOpenAI) -> None:
        self.release = threading.Event()
        self.asked = threading.Event()
        self.count = 0
        fake.default = self

    def __call__(self, request: RecordedRequest) -> Reply:
        if not is_fold(request):
            return echo_reply(request)
        self.count += 1
        if self.count == 1:
            self.asked.set()
            return Text(f"SUMMARY-{self.count} of the garden", hold=self.release)
        return Text(f"SUMMARY-{self.count} of the garden")


def chats(fake: FakeOpenAI) -> list[RecordedRequest]:
    return [r for r in fake.chat_requests() if not is_fold(r)]


def user_texts(request: RecordedRequest) -> list[str]:
    return [str(m["content"]) for m in request.messages if m["role"] == "user"]


def saved_summary(home: Path) -> dict[str, object]:
    [path] = (home / "sessions").glob("*.json")
    state = json.loads(path.read_text())["state"]
    summary = state.get("summary", {})
    assert isinstance(summary, dict)
    return summary


def test_the_prompt_is_back_while_the_fold_runs_and_the_next_input_waits_for_it(
    repl: Repls, fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    write_config(ctxchat_home, CONFIG)
    held = HeldFirstFold(fake_openai)
    child = repl()
    turn(child, "q1")
    turn(child, "q2")
    turn(child, "q3")  # q1 falls out of the window: its fold is held by the server
    assert held.asked.wait(20)
    child.send("q4\r")
    child.expect_exact(STATUS)
    assert len(chats(fake_openai)) == 3  # q4 waits for the fold
    held.release.set()
    child.expect_exact("summarised 4 older messages")
    child.expect_exact("echo: q4")
    child.expect_exact(PROMPT)
    request = chats(fake_openai)[-1]
    assert "SUMMARY-1 of the garden" in str(request.messages[0]["content"])
    assert user_texts(request) == ["q3", "q4"]
    assert saved_summary(ctxchat_home)["summary"] == "SUMMARY-1 of the garden"
    assert quit_(child) == 0


def test_ctrl_c_skips_the_fold_and_the_next_request_still_carries_what_fell_out(
    repl: Repls, fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    write_config(ctxchat_home, CONFIG)
    held = HeldFirstFold(fake_openai)
    child = repl()
    for n in (1, 2, 3):
        turn(child, f"q{n}")
    assert held.asked.wait(20)
    child.send("q4\r")
    child.expect_exact(STATUS)
    child.sendcontrol("c")
    child.expect_exact("skipped")
    child.expect_exact("echo: q4")
    child.expect_exact(PROMPT)
    # Before q4's request, only what fell out (q1) was folded: the window shows the rest.
    catch_up = [r for r in fake_openai.chat_requests() if is_fold(r)][-1]
    assert "user: q1" in str(catch_up.messages[1]["content"])
    assert "user: q2" not in str(catch_up.messages[1]["content"])
    request = chats(fake_openai)[-1]
    assert "SUMMARY-2 of the garden" in str(request.messages[0]["content"])
    assert user_texts(request) == ["q2", "q3", "q4"]
    assert quit_(child) == 0


def test_leaving_waits_for_the_fold_and_keeps_it(
    repl: Repls, fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    write_config(ctxchat_home, CONFIG)
    held = HeldFirstFold(fake_openai)
    child = repl()
    for n in (1, 2, 3):
        turn(child, f"q{n}")
    assert held.asked.wait(20)
    child.sendeof()
    child.expect_exact(STATUS)
    held.release.set()
    child.expect_exact("summarised 4 older messages")
    assert quit_(child) == 0
    assert saved_summary(ctxchat_home)["summary"] == "SUMMARY-1 of the garden"
