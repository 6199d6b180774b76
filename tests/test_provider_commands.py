"""A provider's slash command gets a narrow view of the chat (`CommandView`): its own state,
the session, the model, the pipeline and a read of another stored session, never the chat
service that could open, save or delete anything (issue 24, item 3)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ctxchat import Command, CommandResult, CommandView, ContextProvider, ProviderEnv
from ctxchat.core.agent import Agent
from ctxchat.providers.history.in_memory import InMemoryHistoryProvider
from ctxchat.services.chat_commands import chat_commands
from ctxchat.services.conversations import ChatService
from ctxchat.storage.store import SessionStore
from ctxchat.testing import ScriptedModel


class Peek(ContextProvider):
    """/peek [SESSION]: keeps what its handler was handed, counts its calls in its state."""

    def setup(self) -> None:
        self.handed: list[Any] = []  # a test's spy, not per-session data
        self.read: list[Any] = []

    def commands(self) -> Sequence[Command[CommandView]]:
        async def peek(ctx: CommandView, args: str) -> CommandResult:
            self.handed.append(ctx)
            ctx.state["peeks"] = ctx.state.get("peeks", 0) + 1
            if args:
                self.read.append(await ctx.stored_session(args))
            return CommandResult.say(f"{ctx.session.id} {ctx.model.name}")

        return [Command("peek", "look", peek)]


def chat(tmp_path: Path) -> tuple[ChatService, Peek]:
    env = ProviderEnv(data_dir=tmp_path / "data")
    peek = Peek("peek", env=env)
    history = InMemoryHistoryProvider("history", env=env)
    agent = Agent(model=ScriptedModel("Noted."), providers=[history, peek])
    return ChatService(agent, SessionStore(tmp_path / "sessions")), peek


def run(service: ChatService, conversation: Any, line: str) -> CommandResult:
    registry = chat_commands(service.agent.run_providers())
    name = line[1:].split()[0]
    return asyncio.run(registry.dispatch(line, registry.context(service, conversation, name)))


def test_a_provider_command_sees_its_state_and_the_chat_but_not_the_service(
    tmp_path: Path,
) -> None:
    service, peek = chat(tmp_path)
    conversation = service.new()
    asyncio.run(service.send(conversation, "remember the lighthouse"))

    result = run(service, conversation, "/peek")

    (handed,) = peek.handed
    assert not hasattr(handed, "service")
    assert not hasattr(handed, "conversation")
    assert not hasattr(handed, "registry")
    assert result.blocks[0].text == f"{conversation.session.id} scripted-model"  # type: ignore[union-attr]
    assert handed.agent.provider("peek") is peek
    # Its change to its own state is saved for it, as before.
    assert service.open(conversation.session.id).session.state["peek"] == {"peeks": 1}


def test_a_provider_command_reads_another_stored_session_or_learns_it_is_gone(
    tmp_path: Path,
) -> None:
    service, peek = chat(tmp_path)
    earlier = service.new()
    asyncio.run(service.send(earlier, "the lighthouse keeper"))
    now = service.new()

    run(service, now, f"/peek {earlier.session.id}")
    service.store.delete(earlier.session.id)  # deleted by hand since
    run(service, now, f"/peek {earlier.session.id}")

    read, gone = peek.read
    session, messages = read
    assert session.id == earlier.session.id
    assert [m.text for m in messages] == ["the lighthouse keeper", "Noted."]
    assert gone is None
