"""The tools provider in a chat: /tools, "always" kept in the session, advertising."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from fakeopenai import FakeOpenAI, Text, ToolCalls

from ctxchat.cli.command_view import table_lines
from ctxchat.core.agent import Agent
from ctxchat.core.approval import Decision, ToolApproval
from ctxchat.core.provider import ProviderEnv
from ctxchat.core.settings import ModelSettings
from ctxchat.core.tools import Tool
from ctxchat.providers.history.in_memory import InMemoryHistoryProvider
from ctxchat.providers.tools.provider import ToolsProvider
from ctxchat.services.chat_commands import chat_commands
from ctxchat.services.commands import Note
from ctxchat.services.conversations import ChatService, Conversation
from ctxchat.services.model_client import OpenAIChatModel
from ctxchat.storage.store import SessionStore

written: list[str] = []


def write_down(text: str) -> str:
    """Write a line down."""
    written.append(text)
    return "written"


class Chat:
    def __init__(self, model_settings: ModelSettings, tmp_path: Path, **options: Any) -> None:
        env = ProviderEnv(data_dir=tmp_path / "data")
        self.tools = ToolsProvider("tools", ToolsProvider.Options(**options), env=env)
        agent = Agent(
            model=OpenAIChatModel(model_settings),
            providers=[InMemoryHistoryProvider("history", env=env), self.tools],
        )
        self.service = ChatService(agent, SessionStore(tmp_path / "sessions"))
        self.conversation: Conversation = self.service.new()
        self.registry = chat_commands(agent.run_providers())
        self.asked: list[str] = []
        self.answers: list[Decision] = []

    async def approve(self, request: ToolApproval) -> Decision:
        self.asked.append(request.tool.name)
        return self.answers.pop(0)

    def send(self, text: str) -> None:
        asyncio.run(self.service.send(self.conversation, text, approve=self.approve))

    def tools_command(self) -> list[str]:
        context = self.registry.context(self.service, self.conversation, "tools")
        result = asyncio.run(self.registry.dispatch("/tools", context))
        lines: list[str] = []
        for block in result.blocks:
            lines += [block.text] if isinstance(block, Note) else table_lines(block)
        return lines


@pytest.fixture
def chat(model_settings: ModelSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Chat:
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    written.clear()
    return Chat(
        model_settings,
        tmp_path,
        builtins=["calculate"],
        # In ctxchat's own process: the test reads what it wrote down.
        python=[{"ref": "test_tools_command:write_down", "isolated": False}],
    )


def test_tools_lists_the_catalogue_and_marks_what_the_last_turn_offered(chat: Chat) -> None:
    before = chat.tools_command()
    assert before[0].split()[:4] == ["calculate", "builtin", "none", "Evaluate"]
    assert before[1].split() == [
        "write_down",
        "python:test_tools_command:write_down",
        "yes",
        "(asks)",
        "Write",
        "a",
        "line",
        "down.",
    ]
    chat.send("hello")
    after = chat.tools_command()
    assert after[0].startswith("* calculate")
    assert after[1].startswith("* write_down")
    assert after[-1] == "marked: offered to the model on this session's last turn"


def test_always_is_kept_in_the_session_and_asked_no_more(
    chat: Chat, fake_openai: FakeOpenAI
) -> None:
    call = ToolCalls([("write_down", {"text": "one"})])
    fake_openai.enqueue(call, Text("ok"))
    chat.answers = ["always"]
    chat.send("write one")
    assert chat.conversation.session.state["tools"]["always"] == ["write_down"]
    stored = chat.service.store.load(chat.conversation.session.id)
    assert stored.state["tools"]["always"] == ["write_down"]

    fake_openai.enqueue(ToolCalls([("write_down", {"text": "two"})]), Text("ok"))
    chat.send("write two")
    assert written == ["one", "two"]
    assert chat.asked == ["write_down"]  # once, for the whole session
    assert "yes (allowed always)" in chat.tools_command()[1]

    # A new session asks again.
    chat.conversation = chat.service.new()
    fake_openai.enqueue(ToolCalls([("write_down", {"text": "three"})]), Text("ok"))
    chat.answers = ["no"]
    chat.send("write three")
    assert chat.asked == ["write_down", "write_down"]
    assert written == ["one", "two"]


def test_with_advertise_false_the_catalogue_is_filled_but_nothing_offered(
    model_settings: ModelSettings, fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    chat = Chat(model_settings, tmp_path, advertise=False)
    assert chat.tools.env.tools.names() == [
        "current_time",
        "convert_time",
        "calculate",
        "search_sessions",
    ]
    chat.send("hello")
    assert fake_openai.chat_requests()[0].tools == []
    assert not any(line.startswith("*") for line in chat.tools_command())


def test_a_selector_after_it_chooses_from_the_shared_catalogue(
    model_settings: ModelSettings, fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    """The rule a selector follows: placed after the tools provider, it picks from
    `env.tools` and advertises under its own source id."""
    from ctxchat.core.context import RunContext
    from ctxchat.core.provider import ContextProvider
    from ctxchat.core.session import Session

    class PicksCalculator(ContextProvider):
        async def before_run(
            self, *, agent: Any, session: Session, context: RunContext, state: dict[str, Any]
        ) -> None:
            chosen: list[Tool] = [t for t in self.env.tools if t.name == "calculate"]
            context.extend_tools(self.source_id, chosen)

    env = ProviderEnv(data_dir=tmp_path / "data")
    tools = ToolsProvider("tools", ToolsProvider.Options(advertise=False), env=env)
    agent = Agent(
        model=OpenAIChatModel(model_settings), providers=[tools, PicksCalculator("picks", env=env)]
    )
    asyncio.run(agent.run(Session(), "hello"))
    assert fake_openai.chat_requests()[0].tool_names == ["calculate"]
