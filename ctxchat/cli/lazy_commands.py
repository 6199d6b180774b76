"""The app as click runs it, each command built when the command line names it.

Typer turns every command of an app into a click command (its parameters read from the
function's signature) before it parses a word: all 31 of ctxchat's took 17 ms of CPU, a
fortieth of a one-turn `ctxchat run`, which needs one. Here the root group is built with
its own options only, and holds the app's commands by name; a command is built when it is
first looked up. Help and shell completion list the commands, so they build them all;
a mistyped name is compared with every name, built or not.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, MutableMapping

import typer
import typer.main
from typer import _click

Builder = Callable[[], _click.Command]


class BuiltOnUse(MutableMapping[str, _click.Command]):
    """A group's commands by name, in the app's order, each built on first use."""

    def __init__(self, builders: dict[str, Builder]) -> None:
        self._builders = builders
        self._built: dict[str, _click.Command] = {}

    def __getitem__(self, name: str) -> _click.Command:
        if name not in self._built:
            self._built[name] = self._builders[name]()  # KeyError: no such command
        return self._built[name]

    def __setitem__(self, name: str, command: _click.Command) -> None:
        self._builders.setdefault(name, lambda: command)
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        del self._builders[name]
        self._built.pop(name, None)

    def __contains__(self, name: object) -> bool:
        return name in self._builders  # without building it, as Mapping's would

    def __iter__(self) -> Iterator[str]:
        return iter(self._builders)

    def __len__(self) -> int:
        return len(self._builders)


def lazy_command(app: typer.Typer) -> _click.Command:
    """What `typer.main.get_command(app)` returns, with the commands built on use (all at
    once, as Typer does, for an app with a subgroup whose name its commands take)."""
    builders = _builders(app)
    if builders is None:
        return typer.main.get_command(app)
    bare = copy.copy(app)
    bare.registered_commands = []
    bare.registered_groups = []
    root = typer.main.get_command(bare)
    if not isinstance(root, typer.core.TyperGroup):
        return typer.main.get_command(app)
    root.commands = BuiltOnUse(builders)
    return root


def _builders(app: typer.Typer) -> dict[str, Builder] | None:
    builders: dict[str, Builder] = {}
    for info in app.registered_commands:
        if info.callback is None:
            return None
        name = info.name or typer.main.get_command_name(info.callback.__name__)
        builders[name] = _command_builder(app, info)
    for group in app.registered_groups:
        if not isinstance(group.name, str) or not group.name:
            return None  # its commands join the root's under their own names
        builders[group.name] = _group_builder(app, group)
    return builders


def _command_builder(app: typer.Typer, info: typer.models.CommandInfo) -> Builder:
    def build() -> _click.Command:
        return typer.main.get_command_from_info(
            info,
            pretty_exceptions_short=app.pretty_exceptions_short,
            rich_markup_mode=app.rich_markup_mode,
        )

    return build


def _group_builder(app: typer.Typer, info: typer.models.TyperInfo) -> Builder:
    def build() -> _click.Command:
        return typer.main.get_group_from_info(
            info,
            pretty_exceptions_short=app.pretty_exceptions_short,
            rich_markup_mode=app.rich_markup_mode,
            suggest_commands=app.suggest_commands,
        )

    return build
