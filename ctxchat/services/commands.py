"""Slash commands for the chat: what a command is, what it may touch, what it returns.

A command is declared on the engine side (built-ins in `ctxchat.services.chat_commands`; a provider
adds its own by implementing `CommandSource`), is handed a `CommandContext`, and returns
a `CommandResult`: data for the user (text and tables, never terminal formatting) and what
the chat should do next (exit, send a text, go on with another conversation). The REPL
renders the one and carries out the other; /help and completion are built from the
registry alone.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias, runtime_checkable

from ctxchat.core.errors import UsageError
from ctxchat.core.options import nearest
from ctxchat.core.settings import AttachmentSettings

if TYPE_CHECKING:
    from ctxchat.core.messages import Part
    from ctxchat.core.session import ForkPoint
    from ctxchat.services.conversations import ChatService, Conversation

# The name runs to the first whitespace of any kind: a pasted "/etc/hosts" and its lines.
_COMMAND_LINE = re.compile(r"/(\S*)\s*(.*)", re.DOTALL)

Tone: TypeAlias = Literal["normal", "quiet", "warning"]


@dataclass(frozen=True)
class Marked:
    """Text with some of its words marked (a search's matches), as (text, matched) pieces:
    the renderer shows them bold where it can, between ** where it cannot."""

    pieces: tuple[tuple[str, bool], ...]


Cell: TypeAlias = str | int | float | datetime | Marked | None


@dataclass(frozen=True)
class Note:
    """Text for the user, one or more lines; `quiet` for an aside, `warning` to stand out."""

    text: str
    tone: Tone = "normal"


@dataclass(frozen=True)
class Table:
    """Rows of values under column names. Times are `datetime`s, counts `int`s: the
    renderer formats them (one date format everywhere). `marked` rows are highlighted
    (the current session, say)."""

    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    marked: frozenset[int] = frozenset()
    title: str | None = None


@dataclass(frozen=True)
class Gauge:
    """A whole split into named parts: how the model's window is filled, by source. The
    renderer draws one bar; `total` includes what is free."""

    total: int
    parts: tuple[tuple[str, int], ...]
    title: str | None = None


Block: TypeAlias = Note | Table | Gauge


@dataclass(frozen=True)
class CommandResult:
    """What a command shows, and what the chat does next."""

    blocks: tuple[Block, ...] = ()
    exit: bool = False  # leave the chat
    send: str | None = None  # send this as the user's next message
    conversation: Conversation | None = None  # go on with this conversation instead
    edit_draft: bool = False  # open the draft in the user's editor (/edit-draft)
    draft: str | None = None  # with edit_draft: open this instead of the current draft
    branch_from: ForkPoint | None = None  # with edit_draft: send the edit in a branch (/edit)
    attach: tuple[Part, ...] = ()  # with branch_from: the edited message's attachments
    copy: str | None = None  # put this on the clipboard (/copy), described as `copy_what`
    copy_what: str = ""
    # /copy when the reply holds several code blocks: (what, text) pairs to pick from.
    copy_choices: tuple[tuple[str, str], ...] = ()

    @classmethod
    def say(cls, *texts: str, tone: Tone = "normal") -> CommandResult:
        return cls(tuple(Note(t, tone) for t in texts))


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


CommandHandler = Callable[[CommandContext, str], Awaitable[CommandResult | None]]


@dataclass(frozen=True)
class Command:
    name: str  # without the leading slash
    help: str
    handler: CommandHandler
    usage: str = ""
    aliases: tuple[str, ...] = ()
    completions: tuple[str, ...] = ()  # words offered after the command name
    # Offers completions computed when asked (session titles for /switch, say).
    complete: Callable[[CommandContext, str], Sequence[str]] | None = None


@runtime_checkable
class CommandSource(Protocol):
    """A provider that adds slash commands (for example /memory): its handlers get its own
    session state as `CommandContext.state`."""

    source_id: str

    def commands(self) -> Sequence[Command]: ...


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
        self._commands: dict[str, Command] = {}
        self._owners: dict[str, str | None] = {}

    def add(self, command: Command, owner: str | None = None) -> None:
        for name in (command.name, *command.aliases):
            if name in self._commands:
                raise UsageError(f"two commands are named '/{name}'")
            self._commands[name] = command
            self._owners[name] = owner

    def add_all(self, commands: Iterable[Command], owner: str | None = None) -> None:
        for command in commands:
            self.add(command, owner)

    def replace_with(self, other: CommandRegistry) -> None:
        """Hold `other`'s commands instead (the chat's providers were rebuilt)."""
        self._commands = dict(other._commands)
        self._owners = dict(other._owners)

    def get(self, name: str) -> Command | None:
        return self._commands.get(name)

    def owner(self, name: str) -> str | None:
        return self._owners.get(name)

    def unique(self) -> list[Command]:
        seen: dict[str, Command] = {}
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

    async def dispatch(self, line: str, context: CommandContext) -> CommandResult:
        """Run one `/command args` line in `context` (from `self.context`)."""
        name, args = split_command(line)
        command = self.get(name)
        if command is None:
            raise UnknownCommand(name, self.names())
        owner = self.owner(name)
        before = _snapshot(context.state)
        result = await command.handler(context, args) or CommandResult()
        # The engine reloads a saved session before each turn: a provider command's change
        # to its state is written now or it would be lost.
        if owner is not None and _snapshot(context.state) != before:
            context.service.save_provider_state(context.conversation, owner)
        return result


def _snapshot(state: dict[str, object]) -> str:
    return json.dumps(state, sort_keys=True, default=str)
