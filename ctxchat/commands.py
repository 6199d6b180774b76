"""Slash commands for the REPL: an open registry that providers add to."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ctxchat.errors import UsageError

if TYPE_CHECKING:
    from ctxchat.session import Session


@dataclass
class CommandContext:
    """What a command handler may touch. `state` is the owning provider's session state."""

    session: Session
    state: dict[str, Any]
    output: Callable[[str], None]
    services: dict[str, Any] = field(default_factory=dict)


CommandHandler = Callable[[CommandContext, str], Awaitable[None]]


@dataclass(frozen=True)
class Command:
    name: str  # without the leading slash
    help: str
    handler: CommandHandler
    usage: str = ""
    aliases: tuple[str, ...] = ()
    completions: tuple[str, ...] = ()  # words offered after the command name


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
