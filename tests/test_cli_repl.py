"""The REPL in a real pseudo-terminal (pexpect), against the local OpenAI-protocol server."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest
from cli_support import ctxchat, only_session, stored_texts
from conftest import ctxchat_executable
from fakeopenai import FakeOpenAI, Text
from repl_support import PROMPT, Repls, quit_, turn

Spawn = Repls


@pytest.fixture
def repl(cli_env: dict[str, str]) -> Iterator[Repls]:
    repls = Repls(cli_env)
    yield repls
    repls.close()


def test_reply_streams_then_status_line(repl: Spawn, fake_openai: FakeOpenAI) -> None:
    rest = threading.Event()
    fake_openai.enqueue(Text("alpha beta gamma delta epsilon", chunk_size=6, hold=rest))
    child = repl()
    child.send("stream please\r")
    # The start is on screen while the server still holds the rest back (a view that
    # waited for the whole reply would never show it: this expect would time out).
    child.expect_exact("alpha")
    # The start is on screen while the server still holds the rest back.
    assert fake_openai.in_flight == 1
    rest.set()
    child.expect_exact("epsilon")
    child.expect(r"tokens \d+ in · \d+ out · context \S+/8.19k")  # the default window
    assert quit_(child) == 0


def cancelled_turn(repl: Spawn, fake_openai: FakeOpenAI) -> pexpect.spawn:
    """A REPL whose turn "cancel me" was cut off by Ctrl-C mid-reply (the reply never ends)."""
    fake_openai.enqueue(Text("slow " * 60, chunk_size=5, hold=threading.Event()))  # never ends
    child = repl()
    child.send("cancel me\r")
    child.expect_exact("slow")
    child.sendintr()
    child.expect_exact("cancelled")
    return child


def test_ctrl_c_cancels_the_reply_and_gives_the_input_back(
    repl: Spawn, fake_openai: FakeOpenAI, ctxchat_home: Path, cli_env: dict[str, str]
) -> None:
    child = cancelled_turn(repl, fake_openai)
    child.expect_exact("cancel me")  # back in the prompt buffer
    # Enter sends the restored input as it stands; the next turn works.
    child.send("\r")
    child.expect_exact("echo: cancel me")
    child.expect_exact("tokens ")
    requests = fake_openai.chat_requests()
    assert [r.last_user_text for r in requests] == ["cancel me", "cancel me"]
    # Nothing of the cancelled turn reached the history the second request was built from.
    assert [m["content"] for m in requests[1].messages if m["role"] != "system"] == ["cancel me"]
    assert quit_(child) == 0
    assert stored_texts(cli_env, only_session(ctxchat_home)["id"]) == [
        ("user", "cancel me"),
        ("assistant", "echo: cancel me"),
    ]


def test_a_command_typed_after_a_handed_back_input_runs_and_the_input_stays(
    repl: Spawn, fake_openai: FakeOpenAI
) -> None:
    child = cancelled_turn(repl, fake_openai)
    child.expect_exact("cancel me")  # handed back in the prompt buffer
    child.send("/context\r")  # the buffer now reads "cancel me/context"
    child.expect_exact("nothing yet")  # /context ran, the draft was not sent with it
    child.expect_exact("cancel me")  # and the handed-back input is offered again
    child.send("\r")
    child.expect_exact("echo: cancel me")
    child.expect_exact("tokens ")
    assert [r.last_user_text for r in fake_openai.chat_requests()] == ["cancel me", "cancel me"]
    assert quit_(child) == 0


def test_ctrl_c_at_the_prompt_clears_and_ctrl_d_exits(repl: Spawn, fake_openai: FakeOpenAI) -> None:
    child = repl()
    child.send("half typed")
    child.sendintr()
    child.expect_exact(PROMPT)
    turn(child, "still here")
    assert [r.last_user_text for r in fake_openai.chat_requests()] == ["still here"]
    assert quit_(child) == 0


def test_bracketed_paste_is_one_message(repl: Spawn, fake_openai: FakeOpenAI) -> None:
    child = repl()
    child.send("\x1b[200~line1\nline2\r\nline3\x1b[201~")
    child.send("\r")
    child.expect_exact("tokens ")
    (request,) = fake_openai.chat_requests()
    assert request.last_user_text == "line1\nline2\nline3"
    assert quit_(child) == 0


def test_typed_and_pasted_text_are_told_apart(
    repl: Spawn, fake_openai: FakeOpenAI, ctxchat_home: Path, cli_env: dict[str, str]
) -> None:
    child = repl()
    child.send("Summarise this:\x1b\r")
    child.send("\x1b[200~I live in Rome.\nI love jazz.\x1b[201~")
    child.send("\r")
    child.expect_exact("tokens ")
    (request,) = fake_openai.chat_requests()
    assert request.last_user_text == "Summarise this:\n\nI live in Rome.\nI love jazz."
    assert quit_(child) == 0
    exported = ctxchat(
        "sessions", "export", only_session(ctxchat_home)["id"], "-f", "json", env=cli_env
    )
    (asked,) = [m for m in json.loads(exported.stdout)["messages"] if m["role"] == "user"]
    assert [(p["text"], p["origin"]) for p in asked["parts"]] == [
        ("Summarise this:", "typed"),
        ("I live in Rome.\nI love jazz.", "pasted"),
    ]


def test_escape_enter_and_ctrl_j_insert_newlines(repl: Spawn, fake_openai: FakeOpenAI) -> None:
    child = repl()
    turn(child, "a\x1b\rb")
    turn(child, "c\nd")
    assert [r.last_user_text for r in fake_openai.chat_requests()] == ["a\nb", "c\nd"]
    assert quit_(child) == 0


def test_context_and_undo(
    repl: Spawn, fake_openai: FakeOpenAI, ctxchat_home: Path, cli_env: dict[str, str]
) -> None:
    child = repl()
    child.send("/context\r")
    child.expect_exact("nothing yet")
    turn(child, "first")
    turn(child, "second")
    child.send("/context\r")
    child.expect(r"history: \d+ tokens: 2 messages")
    child.expect_exact("assistant")
    child.expect(r"your input: \d+ tokens")
    child.send("/undo\r")
    child.expect_exact("removed the last turn (2 messages): 'second'")
    turn(child, "third")
    shown = [m["content"] for m in fake_openai.chat_requests()[-1].messages]
    assert "first" in shown
    assert "third" in shown
    assert "second" not in shown
    assert "echo: second" not in shown
    assert quit_(child) == 0
    document = only_session(ctxchat_home)
    assert document["turns"] == 2
    assert [text for _, text in stored_texts(cli_env, document["id"])] == [
        "first",
        "echo: first",
        "third",
        "echo: third",
    ]


def test_retry_replaces_the_last_reply(
    repl: Spawn, fake_openai: FakeOpenAI, ctxchat_home: Path, cli_env: dict[str, str]
) -> None:
    fake_openai.enqueue(Text("first try"), Text("second try"))
    child = repl()
    turn(child, "question")
    child.send("/retry\r")
    child.expect_exact("second try")
    child.expect_exact("tokens ")
    assert quit_(child) == 0
    assert stored_texts(cli_env, only_session(ctxchat_home)["id"]) == [
        ("user", "question"),
        ("assistant", "second try"),
    ]


def test_tab_completes_slash_commands(repl: Spawn) -> None:
    child = repl()
    child.send("/cont\t")
    child.expect_exact("ext")  # the rest of the word, drawn in
    child.send("\r")
    child.expect_exact("nothing yet")  # /context ran: "/cont" would be an unknown command
    child.send("/he\t")
    child.expect_exact("lp")
    child.send("\r")
    child.expect_exact("/undo")
    child.expect_exact("Ctrl-D exits")
    child.send("/bogus\r")
    child.expect_exact("unknown command '/bogus'")
    child.expect_exact(PROMPT)
    child.sendintr()  # the line came back to the prompt: clear it, or Ctrl-D only edits it
    child.expect_exact(PROMPT)
    assert quit_(child) == 0


def test_input_history_persists_across_runs(repl: Spawn, ctxchat_home: Path) -> None:
    first = repl()
    turn(first, "remember this line")
    assert quit_(first) == 0
    history = ctxchat_home / "input_history"
    assert "+remember this line" in history.read_text()

    second = repl()
    second.send("\x1b[A")  # Up: the previous run's input comes back
    second.expect_exact("remember this line")
    second.send("\r")
    second.expect_exact("echo: remember this line")
    assert quit_(second) == 0


def test_a_temporary_chat_keeps_its_input_history_in_memory_only(
    repl: Spawn, ctxchat_home: Path
) -> None:
    child = repl("--temp")
    turn(child, "temporary line one")
    child.send("\x1b[A")  # Up: this chat's own input is still there while it runs...
    child.expect_exact("temporary line one")
    child.send("\r")
    child.expect_exact("echo: temporary line one")
    child.expect_exact(PROMPT)
    assert quit_(child) == 0
    history = ctxchat_home / "input_history"  # ...and never written down
    assert not history.exists() or "temporary line one" not in history.read_text()


def test_resume_shows_the_last_turns(
    repl: Spawn, cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    done = ctxchat(
        "run", "--lines", "--title", "earlier", env=cli_env, stdin="oldest\nolder\nold\n"
    )
    assert done.returncode == 0, done.stderr
    child = repl("-c", "--show-last", "2", wait_for_prompt=False)
    child.expect(r"echo: old\s")  # Markdown lines are padded to the width
    text = child.before
    assert "'earlier' · 3 turns" in text
    assert "you › older" in text
    assert "echo: older" in text
    assert "you › old" in text
    assert "oldest" not in text
    child.expect_exact(PROMPT)
    turn(child, "new one")
    shown = [m["content"] for m in fake_openai.chat_requests()[-1].messages]
    assert "oldest" in shown  # resumed, not just displayed
    assert quit_(child) == 0


def test_markdown_rendering_and_plain(repl: Spawn, fake_openai: FakeOpenAI) -> None:
    fake_openai.enqueue(Text("some **bold** words"), Text("some **bold** words"))
    rendered = repl()
    rendered.send("md\r")
    rendered.expect_exact("tokens ")
    assert "**bold**" not in rendered.before
    assert "bold" in rendered.before
    assert quit_(rendered) == 0

    plain = repl("--plain")
    plain.send("md\r")
    plain.expect_exact("tokens ")
    assert "some **bold** words" in plain.before
    assert quit_(plain) == 0


def test_no_color_is_respected(repl: Spawn) -> None:
    red = "\x1b[31m"
    for no_color, expect_red in (("1", False), ("", True)):
        child = repl(extra_env={"NO_COLOR": no_color})
        child.send("/bogus\r")
        child.expect_exact("unknown command")
        assert (red in child.before) is expect_red
        child.expect_exact(PROMPT)
        child.sendintr()
        child.expect_exact(PROMPT)
        assert quit_(child) == 0


def test_a_prompt_on_a_terminal_is_one_shot(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    child = pexpect.spawn(
        ctxchat_executable(),
        ["run", "just one question"],
        env={**cli_env, "TERM": "xterm-256color"},
        encoding="utf-8",
        timeout=20,
    )
    child.expect_exact("echo: just one question")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert [r.last_user_text for r in fake_openai.chat_requests()] == ["just one question"]


def test_keys_typed_while_the_repl_starts_are_sent(
    repl: Spawn, fake_openai: FakeOpenAI, ctxchat_home: Path, cli_env: dict[str, str]
) -> None:
    # Typed before the banner: the terminal has turned each Enter into a newline by the
    # time the prompt reads them, yet each line is sent, not added to a draft.
    child = repl.spawn("run")
    child.send("typed ahead\r/title\r")
    child.expect_exact("echo: typed ahead")
    child.expect_exact("tokens ")
    child.expect_exact("title: typed ahead")
    assert [r.last_user_text for r in fake_openai.chat_requests()] == ["typed ahead"]
    assert quit_(child) == 0
    assert stored_texts(cli_env, only_session(ctxchat_home)["id"]) == [
        ("user", "typed ahead"),
        ("assistant", "echo: typed ahead"),
    ]
