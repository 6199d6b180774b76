"""Asking before a tool with side effects runs, in a real pseudo-terminal: y, n, always."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_support import only_session, write_config
from fakeopenai import FakeOpenAI, RecordedRequest, Reply, Text, ToolCalls
from repl_support import PROMPT, Repls, quit_, seen, turn
from toolkit import tool_module

QUESTION = "run it? [y]es / [n]o / [a]lways in this session: "


@pytest.fixture
def repl(
    cli_env: dict[str, str], ctxchat_home: Path, tmp_path: Path
) -> Iterator[tuple[Repls, Path]]:
    env, out = tool_module(tmp_path, cli_env)
    write_config(
        ctxchat_home, '[[providers]]\ntype = "tools"\npython = ["testtools:append_note"]\n'
    )
    repls = Repls(env)
    yield repls, out
    repls.close()


def note(text: str) -> ToolCalls:
    return ToolCalls([("append_note", {"text": text})])


def test_yes_runs_the_tool_and_its_result_reaches_the_model(
    repl: tuple[Repls, Path], fake_openai: FakeOpenAI
) -> None:
    spawn, out = repl
    fake_openai.enqueue(note("buy milk"), Text("Noted it."))
    child = spawn()
    child.send("remember to buy milk\r")
    child.expect_exact("'append_note' has side effects: append_note(text=\"buy milk\")")
    child.expect_exact(QUESTION)
    child.send("y")
    child.expect(r"→ append_note\(text=\"buy milk\"\) · \d+\.\d\ds")
    child.expect_exact("Noted it.")
    child.expect_exact("tokens ")
    child.expect_exact(PROMPT)
    assert (out / "notes.txt").read_text() == "buy milk\n"
    assert fake_openai.chat_requests()[1].messages[-1]["content"] == "noted"
    assert quit_(child) == 0


def test_no_refuses_it_and_the_model_reads_the_refusal(
    repl: tuple[Repls, Path], fake_openai: FakeOpenAI
) -> None:
    spawn, out = repl
    fake_openai.enqueue(note("buy milk"), Text("Fine, I will not."))
    child = spawn()
    child.send("remember to buy milk\r")
    child.expect_exact(QUESTION)
    child.send("n")
    child.expect_exact('→ append_note(text="buy milk") · refused')
    child.expect_exact("Fine, I will not.")
    child.expect_exact("tokens ")
    assert not (out / "notes.txt").exists()
    refusal = fake_openai.chat_requests()[1].messages[-1]["content"]
    assert refusal.startswith("refused: the user did not allow 'append_note' to run")
    assert quit_(child) == 0


def test_always_asks_once_for_the_session_and_tools_says_so(
    repl: tuple[Repls, Path], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    spawn, out = repl
    fake_openai.enqueue(note("one"), Text("First."), note("two"), Text("Second."))
    child = spawn()
    child.send("note one\r")
    child.expect_exact(QUESTION)
    child.send("a")
    child.expect_exact("First.")
    child.expect_exact("tokens ")
    child.expect_exact(PROMPT)
    turn(child, "note two")  # no question this time: the status line ends the turn
    assert seen(child).count(QUESTION) == 1
    assert (out / "notes.txt").read_text() == "one\ntwo\n"
    child.send("/tools\r")
    child.expect(r"\* append_note +python:testtools:append_note +yes \(allowed always\)")
    child.expect_exact(PROMPT)
    assert quit_(child) == 0
    session = only_session(ctxchat_home)
    assert session["state"]["tools"]["always"] == ["append_note"]


def test_ctrl_c_at_the_question_cancels_the_turn(
    repl: tuple[Repls, Path], fake_openai: FakeOpenAI
) -> None:
    spawn, out = repl
    fake_openai.enqueue(note("buy milk"), Text("never sent"))
    child = spawn()
    child.send("remember to buy milk\r")
    child.expect_exact(QUESTION)
    child.sendintr()
    child.expect_exact("cancelled")
    child.expect_exact("remember to buy milk")  # back in the prompt
    assert not (out / "notes.txt").exists()
    assert len(fake_openai.chat_requests()) == 1
    child.send("\x15")  # clear the line (Ctrl-U)
    assert quit_(child) == 0


def test_keys_typed_before_the_question_do_not_answer_it(
    repl: tuple[Repls, Path], fake_openai: FakeOpenAI
) -> None:
    spawn, out = repl
    asked, release = threading.Event(), threading.Event()
    replies: list[Reply] = [note("x"), Text("done")]

    def slow_first(request: RecordedRequest) -> Reply:
        if not asked.is_set():
            asked.set()
            release.wait(30)
        return replies.pop(0)

    fake_openai.default = slow_first
    child = spawn()
    child.send("note x\r")
    assert asked.wait(30)
    child.send("y")  # typed while the model is still answering
    release.set()
    child.expect_exact(QUESTION)
    child.send("n")
    child.expect_exact("· refused")
    child.expect_exact("tokens ")
    assert not (out / "notes.txt").exists()
    assert quit_(child) == 0
