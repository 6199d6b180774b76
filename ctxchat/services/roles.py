"""The role a chat runs with, and switching it mid-chat (`/role NAME`).

A role may change the providers (memory off, a tool added), so switching means a new
agent built from the config with the other role laid over it; the conversation goes on,
its history in the same stores, and the session remembers the role for the next resume.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ctxchat.config.roles import AppliedRole, apply_role, find_role, parse_arguments
from ctxchat.core.errors import UsageError
from ctxchat.services.commands import (
    Block,
    Command,
    CommandContext,
    CommandResult,
    Note,
    Table,
)

if TYPE_CHECKING:
    from ctxchat.config.loading import Config
    from ctxchat.core.messages import Message
    from ctxchat.services.conversations import ChatService, Conversation

OFF = "off"  # `/role off`: back to the config without a role


@dataclass
class RoleSwitch:
    """What a chat needs to change its role: the config before any role, how the agent
    was asked for (memory, temporary), and the role in use."""

    base: Config
    current: AppliedRole | None = None
    no_memory: bool = False
    temporary: bool = False

    def wrap(self, inputs: Sequence[Message]) -> list[Message]:
        """The turn's messages as the role in use sends them (see `AppliedRole.wrap`)."""
        if self.current is None:
            return list(inputs)
        return [self.current.wrap(m) if m.role == "user" else m for m in inputs]

    def switch(
        self, service: ChatService, conversation: Conversation, name: str | None, args: str = ""
    ) -> AppliedRole | None:
        """Go on with role `name` (None: none): a new agent from the next turn, the session
        told. The old agent is closed only once the new one is built."""
        from ctxchat.services.build import build_agent

        if name is None:
            config, applied = self.base, None
        else:
            config, applied = apply_role(self.base, name, parse_arguments(shlex.split(args)))
        memory_off = self.no_memory or (applied is not None and not applied.memory)
        agent = build_agent(config, no_memory=memory_off, temporary=self.temporary)
        old = service.agent
        name_now = conversation.model.name
        sets_model = name is not None and "model" in find_role(self.base, name).model
        service.agent = agent
        keeps_model = not sets_model and name_now
        conversation.model = agent.model.with_model(name_now) if keeps_model else agent.model
        old.close()
        self.current = applied
        service.set_role(conversation, applied.name if applied else None)
        return applied


def _role_names(ctx: CommandContext, typed: str) -> Sequence[str]:
    switch = ctx.service.roles
    names = sorted(switch.base.roles) if switch is not None else []
    return [n for n in [*names, OFF] if n.startswith(typed)]


async def _role(ctx: CommandContext, args: str) -> CommandResult:
    switch = ctx.service.roles
    if switch is None:
        raise UsageError("roles are not available in this chat")
    name, _, rest = args.strip().partition(" ")
    if not name:
        current = switch.current.name if switch.current else "none"
        rows = tuple((role.name, role.description or "") for role in switch.base.roles.values())
        blocks: list[Block] = [Note(f"role: {current}")]
        if rows:
            blocks.append(Table(("role", "description"), rows, title="roles"))
        else:
            blocks.append(Note("the config defines no roles ([roles.NAME])", "quiet"))
        return CommandResult(tuple(blocks))
    if name == OFF:
        switch.switch(ctx.service, ctx.conversation, None)
        _refresh_commands(ctx)
        return CommandResult.say("role: none (from the next turn)")
    find_role(switch.base, name)  # an unknown name is refused before anything is built
    switch.switch(ctx.service, ctx.conversation, name, rest)
    _refresh_commands(ctx)
    return CommandResult.say(f"role: {name} (from the next turn)")


def _refresh_commands(ctx: CommandContext) -> None:
    """The providers' commands are the new agent's now (the old ones are closed)."""
    from ctxchat.services.chat_commands import chat_commands

    ctx.registry.replace_with(chat_commands(ctx.service.agent.run_providers()))


ROLE_COMMAND = Command(
    "role",
    "show the roles, or go on with one (off: none)",
    _role,
    usage="[NAME [ARG=VALUE...]|off]",
    complete=_role_names,
)


def role_option_problems(config: Config) -> list[str]:
    """What is wrong with the options each role lays over a provider, checked against that
    provider type's options as the provider itself would (`config validate`)."""
    from ctxchat.config.roles import ENABLED
    from ctxchat.core.errors import ConfigError
    from ctxchat.core.options import build_options
    from ctxchat.core.registry import load_provider_class

    specs = {spec.source_id: spec for spec in config.providers}
    prefix = f"{config.path}: " if config.path is not None else ""
    problems: list[str] = []
    for role in config.roles.values():
        for source_id, override in role.providers.items():
            spec = specs[source_id]
            where = f"roles.{role.name}.providers.{source_id}"
            options = {**spec.options, **{k: v for k, v in override.items() if k != ENABLED}}
            try:
                cls = load_provider_class(spec.type, spec.where)
                build_options(cls.Options, options, where)
            except ConfigError as exc:
                problems += [prefix + problem for problem in exc.problems]
    return problems
