"""The chat's slash commands (`ctxchat.services.chat_commands`) driven without a terminal, on a real
ChatService talking to the local OpenAI-protocol server. Their results are data; the text
asserted here is what the REPL's renderer makes of it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from fakeopenai import Error, FakeOpenAI, Text

from ctxchat.cli.command_view import table_lines
from ctxchat.core.agent import Agent, TurnFailed
from ctxchat.core.errors import UsageError
from ctxchat.core.provider import ContextProvider
from ctxchat.core.settings import ModelSettings
from ctxchat.providers.history.in_memory import InMemoryHistoryProvider
from ctxchat.services.chat_commands import chat_commands
from ctxchat.services.commands import (
    Command,
    CommandContext,
    CommandResult,
    Gauge,
    Note,
    UnknownCommand,
)
from ctxchat.services.conversations import ChatService, Conversation
from ctxchat.services.model_client import OpenAIChatModel
from ctxchat.storage.store import SessionStore


class Notes(ContextProvider):
    """A provider that brings its own command, as /memory and /tools will."""

    def commands(self) -> Sequence[Command]:
        async def note(ctx: CommandContext, args: str) -> CommandResult:
            ctx.state.setdefault("notes", []).append(args)
            return CommandResult.say(f"noted: {args}")

        return [Command("note", "keep a note in this session", note, usage="TEXT")]


class Chat:
    """What the REPL keeps between commands (the conversation, whether the last turn
    failed), driving the engine's command registry."""

    def __init__(self, service: ChatService, cwd: Path) -> None:
        self.service = service
        self.conversation: Conversation = service.new()
        self.registry = chat_commands(service.agent.run_providers())
        self.cwd = cwd
        self.last_failed = False
        self.result = CommandResult()

    def run(self, line: str) -> str:
        from ctxchat.services.commands import split_command

        context = self.registry.context(self.service, self.conversation, split_command(line)[0])
        context.cwd = self.cwd
        context.last_turn_failed = self.last_failed
        self.result = asyncio.run(self.registry.dispatch(line, context))
        if self.result.conversation is not None:
            self.conversation = self.result.conversation
        lines: list[str] = []
        for block in self.result.blocks:
            if isinstance(block, Note):
                lines.append(block.text)
            elif isinstance(block, Gauge):
                lines.append(" · ".join(f"{name} {tokens}" for name, tokens in block.parts))
            else:
                lines += table_lines(block)
        return "\n".join(lines)

    def send(self, text: str) -> str:
        outcome = asyncio.run(self.service.send(self.conversation, text))
        self.last_failed = False
        return outcome.text

    def transcript(self) -> list[str]:
        return [m.text for m in asyncio.run(self.service.transcript(self.conversation.session))]


@pytest.fixture
def chat(model_settings: ModelSettings, tmp_path: Path) -> Chat:
    agent = Agent(
        model=OpenAIChatModel(model_settings),
        providers=[InMemoryHistoryProvider("history"), Notes("notes")],
    )
    service = ChatService(agent, SessionStore(tmp_path / "sessions"), context_window=1000)
    return Chat(service, tmp_path)


def test_registry_holds_builtins_and_provider_commands(chat: Chat) -> None:
    registry = chat.registry
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
    assert help_text.startswith("/attach")
    assert "/note TEXT" in help_text
    assert "keep a note in this session" in help_text
    assert "/exit, /quit" in help_text


def test_provider_command_gets_its_own_session_state(chat: Chat) -> None:
    assert chat.run("/note buy milk") == "noted: buy milk"
    assert chat.conversation.session.state["notes"] == {"notes": ["buy milk"]}
    chat.send("hello")  # the first turn saves the session, notes included
    chat.run("/note call mum")
    chat.send("again")  # a turn reloads the session from disk: the note must be there
    session = chat.conversation.session
    assert session.state["notes"] == {"notes": ["buy milk", "call mum"]}
    stored = chat.service.store.load(session.id)
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
    first = chat.conversation.session.id
    assert "renamed to 'Cats'" in chat.run("/title  Cats ")
    assert chat.run("/title") == "title: Cats"

    chat.run("/new Dogs")
    assert chat.conversation.session.id != first
    assert chat.conversation.session.title == "Dogs"
    chat.send("second topic")
    listing = chat.run("/sessions").splitlines()
    assert listing[0].startswith("* ")
    assert "Dogs" in listing[0]
    assert listing[1].startswith("  ")
    assert "Cats" in listing[1]

    assert "switched to" in chat.run("/switch Cats")
    assert chat.conversation.session.id == first
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
    assert chat.result.send == "q1"
    assert chat.transcript() == []


def test_retry_after_a_failed_turn_keeps_the_earlier_ones(
    chat: Chat, fake_openai: FakeOpenAI
) -> None:
    chat.send("kept")
    fake_openai.enqueue(Error(400))
    with pytest.raises(TurnFailed):
        asyncio.run(chat.service.send(chat.conversation, "failed one"))
    chat.last_failed = True
    chat.run("/retry")
    assert chat.result.send == "failed one"
    assert chat.transcript() == ["kept", "echo: kept"]


def test_context_describes_the_last_turn(chat: Chat) -> None:
    assert "nothing yet" in chat.run("/context")
    chat.send("hello")
    chat.send("again")
    report = chat.run("/context")
    assert "window 8,192 (the default: the endpoint reports none)" in report
    assert "free " in report.splitlines()[0]  # the gauge: the window by source, then free
    assert "history:" in report
    assert "2 messages" in report
    assert "notes: nothing this turn" in report
    assert "your input:" in report


def test_export(chat: Chat, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="nothing to export"):
        chat.run("/export")
    chat.send("hello")
    session_id = chat.conversation.session.id
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
    assert chat.conversation.session.model == "other-model"


def test_exit(chat: Chat) -> None:
    chat.run("/quit")
    assert chat.result.exit


@pytest.mark.parametrize("bad", ["abc", "-1", "0", "2.5", "１"])
def test_sessions_takes_a_positive_count(chat: Chat, bad: str) -> None:
    chat.send("one")
    with pytest.raises(UsageError, match=r"usage: /sessions \[N\]"):
        chat.run(f"/sessions {bad}")


def test_sessions_lists_turns_and_switch_counts_in_proper_english(chat: Chat) -> None:
    chat.send("only once")
    (line,) = chat.run("/sessions 1").splitlines()
    assert " 1  only once" in line
    chat.send("twice now")
    assert " 2  only once" in chat.run("/sessions")
    assert "(2 turns)" in chat.run(f"/switch {chat.conversation.session.id}")


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
    with pytest.raises(UsageError, match=r"cannot tell the export format from 'notes.txt'"):
        chat.run("/export notes.txt")
    assert not (tmp_path / "notes.txt").exists()
    chat.run("/export notes")  # no extension at all: Markdown
    assert (tmp_path / "notes").read_text().startswith("# hello")
    chat.run("/export md forced.json")  # a format given says more than the name
    assert (tmp_path / "forced.json").read_text().startswith("# hello")


def test_model_belongs_to_the_conversation(
    chat: Chat, fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    chat.run("/model old-model")
    chat.send("made with the old model")
    old = chat.conversation.session.id
    # A new conversation talks to the configured model, not the last one switched to.
    chat.run("/new")
    chat.send("fresh")
    assert fake_openai.chat_requests()[-1].model == "fake-model"
    # Resuming the old session goes on with its model; the other is untouched.
    chat.run(f"/switch {old}")
    chat.send("back")
    assert fake_openai.chat_requests()[-1].model == "old-model"
    chat.run("/new")
    chat.send("and new again")
    assert fake_openai.chat_requests()[-1].model == "fake-model"


def test_a_model_chosen_for_the_run_wins_over_the_sessions(
    chat: Chat, fake_openai: FakeOpenAI, model_settings: ModelSettings, tmp_path: Path
) -> None:
    chat.run("/model old-model")
    chat.send("made with the old model")
    session_id = chat.conversation.session.id
    agent = Agent(model=OpenAIChatModel(model_settings, model="flagged"), providers=[])
    chosen = ChatService(agent, chat.service.store, model_chosen=True)
    asyncio.run(chosen.send(chosen.open(session_id), "again"))
    assert fake_openai.chat_requests()[-1].model == "flagged"
    # The session went on with the chosen model: resumed without a choice, it keeps it.
    from_file = ChatService(agent, chat.service.store, model_chosen=False)
    asyncio.run(from_file.send(from_file.open(session_id), "once more"))
    assert fake_openai.chat_requests()[-1].model == "flagged"


def test_switch_completes_titles_and_ids(chat: Chat) -> None:
    chat.send("about cats")
    chat.run("/title Cats and dogs")
    first = chat.conversation.session.id
    chat.run("/new")
    chat.send("about trains")
    switch = chat.registry.get("switch")
    assert switch is not None
    assert switch.complete is not None
    context = chat.registry.context(chat.service, chat.conversation, "switch")
    assert "Cats and dogs" in switch.complete(context, "cat")
    assert first in switch.complete(context, first[:20])
