"""The REPL's slash commands (`ctxchat.repl_commands`) driven without a terminal, on a real
ChatService talking to the local OpenAI-protocol server."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from fakeopenai import Error, FakeOpenAI, Text

from ctxchat.agent import Agent, TurnFailed
from ctxchat.chat import ChatService
from ctxchat.commands import Command, CommandContext
from ctxchat.errors import UsageError
from ctxchat.model_client import OpenAIChatModel
from ctxchat.provider import ContextProvider
from ctxchat.providers.in_memory_history import InMemoryHistoryProvider
from ctxchat.repl_commands import ChatState, UnknownCommand, install_commands
from ctxchat.settings import ModelSettings
from ctxchat.store import SessionStore


class Notes(ContextProvider):
    """A provider that brings its own command, as /memory and /tools will."""

    def commands(self) -> Sequence[Command]:
        async def note(ctx: CommandContext, args: str) -> None:
            ctx.state.setdefault("notes", []).append(args)
            ctx.output(f"noted: {args}")

        return [Command("note", "keep a note in this session", note, usage="TEXT")]


class Chat:
    """A ChatState plus what a test wants to read back."""

    def __init__(self, state: ChatState) -> None:
        self.state = state
        self.lines: list[str] = []

    def run(self, line: str) -> str:
        self.lines.clear()
        asyncio.run(self.state.dispatch(line, self.lines.append))
        return "\n".join(self.lines)

    def send(self, text: str) -> str:
        service = self.state.service
        outcome = asyncio.run(service.send(self.state.conversation, text))
        self.state.last_ok = True
        return outcome.text

    def transcript(self) -> list[str]:
        session = self.state.conversation.session
        return [m.text for m in asyncio.run(self.state.service.transcript(session))]


@pytest.fixture
def chat(model_settings: ModelSettings, tmp_path: Path) -> Chat:
    agent = Agent(
        model=OpenAIChatModel(model_settings),
        providers=[InMemoryHistoryProvider("history"), Notes("notes")],
    )
    service = ChatService(agent, SessionStore(tmp_path / "sessions"))
    state = ChatState(service, service.new(), context_window=1000, cwd=tmp_path)
    install_commands(state)
    return Chat(state)


def test_registry_holds_builtins_and_provider_commands(chat: Chat) -> None:
    registry = chat.state.registry
    for name in (
        "help",
        "exit",
        "new",
        "sessions",
        "switch",
        "title",
        "retry",
        "undo",
        "context",
        "export",
        "model",
        "note",
    ):
        assert registry.get(name) is not None, name
    assert registry.owner("note") == "notes"
    assert registry.owner("undo") is None
    help_text = chat.run("/help")
    assert "/note TEXT" in help_text
    assert "keep a note in this session" in help_text
    assert "/exit, /quit" in help_text


def test_provider_command_gets_its_own_session_state(chat: Chat) -> None:
    assert chat.run("/note buy milk") == "noted: buy milk"
    assert chat.state.conversation.session.state["notes"] == {"notes": ["buy milk"]}
    chat.send("hello")  # the first turn saves the session, notes included
    chat.run("/note call mum")
    chat.send("again")  # a turn reloads the session from disk: the note must be there
    session = chat.state.conversation.session
    assert session.state["notes"] == {"notes": ["buy milk", "call mum"]}
    stored = chat.state.service.store.load(session.id)
    assert stored.state["notes"] == {"notes": ["buy milk", "call mum"]}


def test_unknown_command_suggests(chat: Chat) -> None:
    with pytest.raises(UsageError, match=r"'/undoo' \(did you mean '/undo'\?\)"):
        chat.run("/undoo")
    with pytest.raises(UsageError, match="/help"):
        chat.run("/zzz")
    # A path is not a command: the error says how to send it as a message.
    with pytest.raises(UnknownCommand, match=r"'/usr/bin/python'.*begin it with '//'"):
        chat.run("/usr/bin/python crashes, why?")
    with pytest.raises(UnknownCommand, match="'/etc/hosts'"):
        chat.run("/etc/hosts\n127.0.0.1 localhost")


def test_new_title_sessions_switch(chat: Chat) -> None:
    chat.send("first topic")
    first = chat.state.conversation.session.id
    assert "renamed to 'Cats'" in chat.run("/title  Cats ")
    assert chat.run("/title") == "title: Cats"

    chat.run("/new Dogs")
    assert chat.state.conversation.session.id != first
    assert chat.state.conversation.session.title == "Dogs"
    chat.send("second topic")
    listing = chat.run("/sessions").splitlines()
    assert listing[0].startswith("* ")
    assert "Dogs" in listing[0]
    assert listing[1].startswith("  ")
    assert "Cats" in listing[1]

    assert "switched to" in chat.run("/switch Cats")
    assert chat.state.conversation.session.id == first
    assert chat.transcript() == ["first topic", "echo: first topic"]
    with pytest.raises(UsageError, match="usage"):
        chat.run("/switch")


def test_undo_and_retry(chat: Chat, fake_openai: FakeOpenAI) -> None:
    assert chat.run("/undo") == "nothing to undo"
    with pytest.raises(UsageError, match="nothing to retry"):
        chat.run("/retry")
    fake_openai.enqueue(Text("one"), Text("two"))
    chat.send("q1")
    chat.send("q2")
    assert chat.run("/undo") == "removed the last turn (2 messages): 'q2'"
    assert chat.transcript() == ["q1", "one"]

    # After a completed turn, /retry takes it back and asks for the same input again.
    chat.run("/retry")
    assert chat.state.resend == "q1"
    assert chat.transcript() == []


def test_retry_after_a_failed_turn_keeps_the_earlier_ones(
    chat: Chat, fake_openai: FakeOpenAI
) -> None:
    chat.send("kept")
    fake_openai.enqueue(Error(400))
    with pytest.raises(TurnFailed):
        asyncio.run(chat.state.service.send(chat.state.conversation, "failed one"))
    chat.state.last_ok = False
    chat.run("/retry")
    assert chat.state.resend == "failed one"
    assert chat.transcript() == ["kept", "echo: kept"]


def test_context_describes_the_last_turn(chat: Chat) -> None:
    assert "nothing yet" in chat.run("/context")
    chat.send("hello")
    chat.send("again")
    report = chat.run("/context")
    assert "of 1k" in report
    assert "history:" in report
    assert "2 messages" in report
    assert "notes: nothing this turn" in report
    assert "your input:" in report


def test_export(chat: Chat, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="nothing to export"):
        chat.run("/export")
    chat.send("hello")
    session_id = chat.state.conversation.session.id
    message = chat.run("/export")
    default = tmp_path / f"ctxchat-{session_id}.md"
    assert str(default) in message
    assert default.read_text().startswith("# hello")
    chat.run('/export jsonl "my file.jsonl"')
    assert (tmp_path / "my file.jsonl").read_text().count("\n") == 2
    with pytest.raises(UsageError, match="directory"):
        chat.run(f"/export md {tmp_path / 'missing' / 'x.md'}")


def test_model_switches_the_next_request(chat: Chat, fake_openai: FakeOpenAI) -> None:
    assert chat.run("/model") == "model: fake-model"
    chat.run("/model other-model")
    chat.send("hi")
    assert fake_openai.chat_requests()[-1].model == "other-model"
    assert chat.state.conversation.session.model == "other-model"


def test_exit(chat: Chat) -> None:
    chat.run("/quit")
    assert chat.state.exit_requested


@pytest.mark.parametrize("bad", ["abc", "-1", "0", "2.5", "１"])
def test_sessions_takes_a_positive_count(chat: Chat, bad: str) -> None:
    chat.send("one")
    with pytest.raises(UsageError, match=r"usage: /sessions \[N\]"):
        chat.run(f"/sessions {bad}")


def test_sessions_counts_in_proper_english(chat: Chat) -> None:
    chat.send("only once")
    (line,) = chat.run("/sessions 1").splitlines()
    assert " 1 turn " in line
    assert "turns" not in line
    chat.send("twice now")
    assert " 2 turns " in chat.run("/sessions")
    assert "(2 turns)" in chat.run(f"/switch {chat.state.conversation.session.id}")


def test_export_takes_the_format_from_the_file_name(chat: Chat, tmp_path: Path) -> None:
    chat.send("hello")
    assert "as json" in chat.run("/export notes.json")
    document = json.loads((tmp_path / "notes.json").read_text())
    assert document["messages"][0]["parts"][0]["text"] == "hello"
    chat.run("/export lines.JSONL")
    lines = (tmp_path / "lines.JSONL").read_text().splitlines()
    assert json.loads(lines[0]) == {"role": "user", "content": "hello"}
    chat.run("/export notes.markdown")
    assert (tmp_path / "notes.markdown").read_text().startswith("# hello")
    chat.run("/export notes.txt")  # no format in the name: Markdown
    assert (tmp_path / "notes.txt").read_text().startswith("# hello")
    chat.run("/export md forced.json")  # a format given says more than the name
    assert (tmp_path / "forced.json").read_text().startswith("# hello")
