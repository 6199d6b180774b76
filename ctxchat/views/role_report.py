"""A role as `ctxchat roles show` prints it: TOML-like lines, in the table's order."""

from __future__ import annotations

from ctxchat.config.roles import Role
from ctxchat.config.toml_values import toml_value
from ctxchat.core.sanitize import terminal_safe


def describe_role(role: Role) -> str:
    lines = [f"[roles.{role.name}]  # from {role.origin}"]
    for key in ("description", "instructions", "prompt"):
        value = getattr(role, key)
        if value is not None:
            lines.append(f"{key} = {toml_value(value)}")
    lines += [f"{key} = {toml_value(value)}" for key, value in role.model.items()]
    if not role.memory:
        lines.append("memory = false")
    if role.arguments:
        lines.append(f"# arguments: {', '.join(role.arguments)}")
    if role.defaults:
        lines.append(f"defaults = {toml_value(dict(role.defaults))}")
    for source_id, options in role.providers.items():
        lines.append(f"[roles.{role.name}.providers.{source_id}]")
        lines += [f"{key} = {toml_value(value)}" for key, value in options.items()]
    return terminal_safe("\n".join(lines)) + "\n"
