"""Roles: named presets in `[roles.NAME]` tables, and a config with one of them applied.

A role is a few settings laid over the config for one run or one chat: the instructions,
the model and its options, a prompt the input is put into, and changes to the providers
(memory off, a tool added, a selector setting). It changes nothing else, and a flag given
on the command line still wins over it, as flags win over the file.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ctxchat.core.errors import ConfigError, UsageError
from ctxchat.core.messages import Message, TextPart
from ctxchat.core.options import build_options, did_you_mean, option
from ctxchat.core.provider import SOURCE_ID_PATTERN
from ctxchat.core.settings import ModelSettings
from ctxchat.core.template import missing, placeholders, render

if TYPE_CHECKING:
    from ctxchat.config.loading import Config

# The model options a role may set. Not the endpoint or its key: a role changes how the
# model is asked, never where the conversation (and the key) is sent.
ROLE_MODEL_KEYS = ("model", "temperature", "max_tokens", "context_window")
INPUT = "input"  # the placeholder the message fills
ENABLED = "enabled"  # in a role's provider table: false leaves the provider out
PLACEHOLDER_OF_INPUT = re.compile(r"\{\{\s*" + INPUT + r"\s*\}\}")


@dataclass(frozen=True)
class RoleTable:
    """The keys of a `[roles.NAME]` table, checked like any option table."""

    description: str | None = option(None, help="one line for `ctxchat roles list`")
    instructions: str | None = option(
        None, help="the system prompt while the role is on ({{name}} takes --arg name=...)"
    )
    prompt: str | None = option(
        None, help="what is sent for each message: {{input}} is the message (piped stdin)"
    )
    model: str | None = option(None, help="the model to ask")
    temperature: float | None = option(None, help="sampling temperature")
    max_tokens: int | None = option(None, help="cap on tokens in each reply")
    context_window: int | None = option(None, help="the model's context size in tokens")
    memory: bool = option(True, help="false: nothing about you is recalled or learnt")
    defaults: dict[str, Any] = option(
        default_factory=dict, help="values of {{name}} arguments not given with --arg"
    )
    providers: dict[str, Any] = option(
        default_factory=dict,
        help="[roles.NAME.providers.SOURCE_ID]: options laid over that provider's "
        "(enabled = false leaves it out)",
    )


@dataclass(frozen=True)
class Role:
    name: str
    description: str | None = None
    instructions: str | None = None
    prompt: str | None = None
    model: Mapping[str, Any] = field(default_factory=dict)  # ROLE_MODEL_KEYS set
    memory: bool = True
    defaults: Mapping[str, str] = field(default_factory=dict)
    providers: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    origin: str = "file"  # the file it came from, for `roles show` and `config show`

    @property
    def arguments(self) -> list[str]:
        """The `{{name}}` arguments its texts take, `{{input}}` aside."""
        return [n for n in placeholders(self.instructions, self.prompt) if n != INPUT]


@dataclass(frozen=True)
class AppliedRole:
    """A role in use: its arguments filled, its prompt waiting for each message."""

    name: str
    prompt: str | None
    values: Mapping[str, str]
    memory: bool

    def wrap(self, message: Message) -> Message:
        """The message as the role sends it: its parts stand where `{{input}}` is, between
        the prompt's own words, which are their own parts (of origin "document": the
        role's words, not the user's, so memory does not learn them as the user's). The
        arguments are filled in the same single pass, so the message is never read for
        placeholders."""
        if self.prompt is None:
            return message
        parts: list[TextPart] = []
        pieces = PLACEHOLDER_OF_INPUT.split(self.prompt)
        for i, piece in enumerate(pieces):
            words = render(piece, self.values).strip("\n")
            if words.strip():
                parts.append(TextPart(words, "document"))
            if i < len(pieces) - 1:
                parts.extend(p for p in message.parts if isinstance(p, TextPart))
        return Message("user", tuple(parts), name=message.name)


def parse_roles(
    raw: Any, source_ids: Sequence[str], problems: list[str], origin: str = "file"
) -> dict[str, Role]:
    """The `[roles]` table's roles; what is wrong goes to `problems`, a line each, and
    a wrong role is left out."""
    if not isinstance(raw, dict):
        problems.append("roles: expected a table of roles ([roles.NAME])")
        return {}
    roles: dict[str, Role] = {}
    for name, table in raw.items():
        where = f"roles.{name}"
        if not SOURCE_ID_PATTERN.match(name):
            problems.append(f"{where}: a role name may hold only letters, digits, '_', '.', '-'")
            continue
        if not isinstance(table, dict):
            problems.append(f"{where}: expected a table ([{where}])")
            continue
        found: list[str] = []
        role = _role(name, table, where, source_ids, found, origin)
        problems.extend(found)
        if role is not None and not found:
            roles[name] = role
    return roles


def _role(
    name: str,
    table: Mapping[str, Any],
    where: str,
    source_ids: Sequence[str],
    problems: list[str],
    origin: str,
) -> Role | None:
    try:
        parsed = build_options(RoleTable, table, where)
    except ConfigError as exc:
        problems.extend(exc.problems)
        return None
    model = {key: getattr(parsed, key) for key in ROLE_MODEL_KEYS if key in table}
    try:
        replace(ModelSettings(), **model)
    except ValueError as exc:
        problems.append(f"{where}: {exc}")
    if parsed.instructions and INPUT in placeholders(parsed.instructions):
        problems.append(
            f"{where}.instructions: {{{{input}}}} is the message; it belongs in `prompt`"
        )
    defaults: dict[str, str] = {}
    used = [n for n in placeholders(parsed.instructions, parsed.prompt) if n != INPUT]
    for key, value in parsed.defaults.items():
        if not isinstance(value, str):
            problems.append(f"{where}.defaults.{key}: expected a string")
        elif key not in used:
            problems.append(
                f"{where}.defaults.{key}: no {{{{{key}}}}} in the role's texts"
                + did_you_mean(key, used)
            )
        else:
            defaults[key] = value
    overrides: dict[str, Mapping[str, Any]] = {}
    for source_id, options in parsed.providers.items():
        at = f"{where}.providers.{source_id}"
        if source_id not in source_ids:
            problems.append(
                f"{at}: no provider has this source_id{did_you_mean(source_id, list(source_ids))}"
            )
        elif not isinstance(options, dict):
            problems.append(f"{at}: expected a table ([{at}])")
        elif not isinstance(options.get(ENABLED, True), bool):
            problems.append(f"{at}.{ENABLED}: expected a boolean")
        else:
            overrides[source_id] = options
    return Role(
        name,
        parsed.description,
        parsed.instructions,
        parsed.prompt,
        model,
        parsed.memory,
        defaults,
        overrides,
        origin,
    )


def parse_arguments(pairs: Sequence[str]) -> dict[str, str]:
    """`--arg name=value` flags as a mapping; a later one wins."""
    values: dict[str, str] = {}
    for pair in pairs:
        name, equals, value = pair.partition("=")
        if not equals or not name.strip():
            raise UsageError(f"--arg {pair!r}: expected NAME=VALUE")
        values[name.strip()] = value
    return values


def apply_role(
    config: Config, name: str, arguments: Mapping[str, str] | None = None
) -> tuple[Config, AppliedRole]:
    """`config` with the role `name` laid over it, and the role as the turns use it. A
    flag (or an environment variable) for the same setting wins over the role."""
    role = find_role(config, name)
    given = dict(arguments or {})
    wanted = role.arguments
    unknown = [key for key in given if key not in wanted]
    if unknown:
        takes = ", ".join(wanted) if wanted else "no arguments"
        raise UsageError(
            f"role '{name}' has no argument '{unknown[0]}'"
            f"{did_you_mean(unknown[0], wanted)} (it takes {takes})"
        )
    values = {**role.defaults, **given}
    lacking = missing(wanted, values)
    if lacking:
        flags = " ".join(f"--arg {key}=VALUE" for key in lacking)
        raise UsageError(f"role '{name}' needs {flags}")
    model = config.model
    chosen = {key for key, origin in config.origins.items() if origin != "file"}
    kept = {key: value for key, value in role.model.items() if key not in chosen}
    model = replace(model, **kept)
    agent = config.agent
    if role.instructions is not None and config.agent_origins.get("instructions") != "flag":
        agent = replace(agent, instructions=render(role.instructions, values))
    specs = []
    for spec in config.providers:
        override = role.providers.get(spec.source_id)
        if override is None:
            specs.append(spec)
            continue
        if not override.get(ENABLED, True):
            continue
        options = {**spec.options, **{k: v for k, v in override.items() if k != ENABLED}}
        specs.append(
            replace(spec, options=options, where=f"roles.{name}.providers.{spec.source_id}")
        )
    applied = replace(config, model=model, agent=agent, providers=tuple(specs))
    return applied, AppliedRole(name, role.prompt, values, role.memory)


def find_role(config: Config, name: str) -> Role:
    role = config.roles.get(name)
    if role is None:
        names = sorted(config.roles)
        if not names:
            raise UsageError(f"unknown role '{name}': the config defines none ([roles.NAME])")
        raise UsageError(
            f"unknown role '{name}'{did_you_mean(name, names)} (roles: {', '.join(names)})"
        )
    return role
