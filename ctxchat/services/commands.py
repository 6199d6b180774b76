"""Slash commands in the chat: the registry, and the context a built-in command touches.

What a command is and returns lives in `ctxchat.core.commands` (a provider's commands are
declared there too). A built-in (`ctxchat.services.chat_commands`) is handed the whole
`CommandContext`; a provider's command (`CommandSource`) only its `CommandView`. Either
returns a `CommandResult`: data for the user (text and tables, never terminal formatting)
and what the chat should do next (exit, send a text; a built-in may also go on with another
conversation, `ChatCommandResult`). The REPL renders the one and carries out the other;
/help and completion are built from the registry alone.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ctxchat.core.capabilities import CommandSource as CommandSource
from ctxchat.core.commands import Block as Block
from ctxchat.core.commands import Cell as Cell
from ctxchat.core.commands import Command as Command
from ctxchat.core.commands import CommandResult as CommandResult
from ctxchat.core.commands import CommandView
from ctxchat.core.commands import Gauge as Gauge
from ctxchat.core.commands import Marked as Marked
from ctxchat.core.commands import Note as Note
from ctxchat.core.commands import Table as Table
from ctxchat.core.commands import Tone as Tone
from ctxchat.core.errors import SessionNotFound, UsageError
from ctxchat.core.options import nearest
from ctxchat.core.settings import AttachmentSettings

if TYPE_CHECKING:
    from ctxchat.core.messages import Message, Part
    from ctxchat.core.model_types import ChatModel
    from ctxchat.core.provider import AgentView
    from ctxchat.core.session import Session
    from ctxchat.services.conversations import ChatService, Conversation

# The name runs to the first whitespace of any kind: a pasted "/etc/hosts" and its lines.
_COMMAND_LINE = re.compile(r"/(\S*)\s*(.*)", re.DOTALL)


@dataclass
class CommandContext:
    """What a command handler may touch. `state` is the owning provider's state in the
    conversation's session (empty for a built-in); a change to it is saved for it."""

    service: ChatService
    conversation: Conversation
    registry: CommandRegistry
    state: dict[str, Any] = field(default_factory=dict)
    cwd: Path = field(default_factory=Path.cwd)
    # Whether the last turn sent in this chat failed (its input was handed back).
    last_turn_failed: bool = False
    # What /attach gave for the next message, kept by the chat until a turn takes it.
    attached: list[Part] = field(default_factory=list)
    attachment_limits: AttachmentSettings = field(default_factory=AttachmentSettings)

    def view(self) -> CommandView:
        """What a provider's command gets of this: its state, the session, the model, the
        pipeline and a read of another session; never the service."""
        service = self.service

        async def stored_session(session_id: str) -> tuple[Session, list[Message]] | None:
            try:
                opened = service.open(session_id)
            except SessionNotFound:
                return None
            return opened.session, await service.transcript(opened.session)

        conversation = self.conversation
        return ProviderCommandView(
            self.state, conversation.session, conversation.model, service.agent, stored_session
        )


@dataclass(frozen=True)
class ProviderCommandView:
    """The `CommandView` a provider's command runs in."""

    state: dict[str, Any]
    session: Session
    model: ChatModel
    agent: AgentView
    read_session: Callable[[str], Awaitable[tuple[Session, list[Message]] | None]]

    async def stored_session(self, session_id: str) -> tuple[Session, list[Message]] | None:
        return await self.read_session(session_id)


@dataclass(frozen=True)
class ChatCommandResult(CommandResult):
    """A built-in command's result: it may also hand the chat another conversation."""

    conversation: Conversation | None = None  # go on with this conversation instead


class UnknownCommand(UsageError):
    """A line starting with "/" that names no command: likely a message (a path, say), so
    the REPL hands the text back instead of dropping it."""

    def __init__(self, name: str, names: list[str]) -> None:
        guess = nearest(name, names)
        hint = f"did you mean '/{guess}'?" if guess else "see /help"
        super().__init__(
            f"unknown command '/{name}' ({hint}); to send a message that starts with '/', "
            "begin it with '//'"
        )
        self.name = name


def split_command(line: str) -> tuple[str, str]:
    """`/name args` as (name, args); args keep their inner newlines."""
    found = _COMMAND_LINE.fullmatch(line.strip())
    if found is None:
        return "", line.strip()
    return found.group(1), found.group(2).strip()


class CommandRegistry:
    def __init__(self) -> None:
        # A built-in's command takes a `CommandContext`, a provider's (it has an owner) a
        # `CommandView`: `dispatch` and `complete` hand each its own.
        self._commands: dict[str, Command[Any]] = {}
        self._owners: dict[str, str | None] = {}

    def add(self, command: Command[Any], owner: str | None = None) -> None:
        for name in (command.name, *command.aliases):
            if name in self._commands:
                raise UsageError(f"two commands are named '/{name}'")
            self._commands[name] = command
            self._owners[name] = owner

    def add_all(self, commands: Iterable[Command[Any]], owner: str | None = None) -> None:
        for command in commands:
            self.add(command, owner)

    def replace_with(self, other: CommandRegistry) -> None:
        """Hold `other`'s commands instead (the chat's providers were rebuilt)."""
        self._commands = dict(other._commands)
        self._owners = dict(other._owners)

    def get(self, name: str) -> Command[Any] | None:
        return self._commands.get(name)

    def owner(self, name: str) -> str | None:
        return self._owners.get(name)

    def unique(self) -> list[Command[Any]]:
        seen: dict[str, Command[Any]] = {}
        for command in self._commands.values():
            seen.setdefault(command.name, command)
        return sorted(seen.values(), key=lambda c: c.name)

    def names(self) -> list[str]:
        return sorted(self._commands)

    def context(
        self, service: ChatService, conversation: Conversation, name: str
    ) -> CommandContext:
        """The context `name` runs in: its owner's state in this conversation's session."""
        owner = self.owner(name)
        state = conversation.session.provider_state(owner) if owner else {}
        return CommandContext(service, conversation, self, state)

    def handed(self, name: str, context: CommandContext) -> CommandContext | CommandView:
        """What `name`'s handler gets: a provider's command the narrow view of `context`."""
        return context if self.owner(name) is None else context.view()

    def complete(self, name: str, context: CommandContext, rest: str) -> Sequence[str]:
        """The words `name` offers after `rest` was typed."""
        command = self.get(name)
        if command is None:
            return ()
        if command.complete is None:
            return command.completions
        return command.complete(self.handed(name, context), rest)

    async def dispatch(self, line: str, context: CommandContext) -> ChatCommandResult:
        """Run one `/command args` line in `context` (from `self.context`)."""
        name, args = split_command(line)
        command = self.get(name)
        if command is None:
            raise UnknownCommand(name, self.names())
        owner = self.owner(name)
        before = _snapshot(context.state)
        result = await command.handler(self.handed(name, context), args)
        # The engine reloads a saved session before each turn: a provider command's change
        # to its state is written now or it would be lost.
        if owner is not None and _snapshot(context.state) != before:
            context.service.save_provider_state(context.conversation, owner)
        if isinstance(result, ChatCommandResult):
            return result
        plain = {f.name: getattr(result, f.name) for f in fields(CommandResult)} if result else {}
        return ChatCommandResult(**plain)


def _snapshot(state: dict[str, object]) -> str:
    return json.dumps(state, sort_keys=True, default=str)
