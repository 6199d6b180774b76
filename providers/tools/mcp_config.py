"""The `mcp` option of a tools provider: one `[providers.mcp.NAME]` table per server,
checked with its key path in errors, and the names its tools take in the catalogue."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

from ctxchat import ConfigError, option
from ctxchat.kit import TOOL_NAME_PATTERN, build_options

SEPARATOR = "__"
SERVER_NAME = re.compile(r"^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$")
MAX_SERVER_NAME = 24


@dataclass(frozen=True)
class McpServerOptions:
    """One `[providers.mcp.NAME]` table."""

    command: str = option(help="the program that runs the server (found on PATH)")
    args: list[str] = option(default_factory=list, help="its arguments")
    env: dict[str, Any] = option(
        default_factory=dict,
        help="environment variables for it, over the few it inherits (HOME, PATH, ...)",
    )
    cwd: str | None = option(None, help="its working directory (omitted: ctxchat's)")
    side_effects: bool | None = option(
        None,
        help="true: ask before every tool of this server; false: never ask; omitted: ask "
        "unless the tool says it is read-only (its readOnlyHint)",
    )
    timeout: float | None = option(
        None, help="seconds one call may take (omitted: [agent] tool_timeout)"
    )
    start_timeout: float = option(20.0, help="seconds the server may take to start")

    def __post_init__(self) -> None:
        if not self.command.strip():
            raise ValueError("command: must name the program that runs the server")
        for key, value in self.env.items():
            if not isinstance(value, str):
                raise ValueError(f"env.{key}: expected a string")
        if self.timeout is not None and not self.timeout > 0:
            raise ValueError("timeout: must be positive")
        if not self.start_timeout > 0:
            raise ValueError("start_timeout: must be positive")


@dataclass(frozen=True)
class McpServerConfig:
    name: str
    options: McpServerOptions


def parse_servers(raw: dict[str, Any]) -> list[McpServerConfig]:
    """The `mcp` option's tables, each checked with its key path in errors."""
    servers: list[McpServerConfig] = []
    for name, table in raw.items():
        here = f"mcp.{name}"
        if not SERVER_NAME.match(name) or len(name) > MAX_SERVER_NAME:
            raise ConfigError(
                f"{here}: a server name must be up to {MAX_SERVER_NAME} letters, digits, '-' "
                "or single '_' (it prefixes its tools' names)"
            )
        if not isinstance(table, dict):
            raise ConfigError(f"{here}: expected a table with at least `command`")
        servers.append(McpServerConfig(name, build_options(McpServerOptions, table, here)))
    return servers


def prefixed_name(server: str, tool: str) -> str:
    """`server__tool`, made of what the model APIs accept and at most 64 characters."""
    clean = re.sub(r"[^a-zA-Z0-9_-]", "_", tool) or "tool"
    name = f"{server}{SEPARATOR}{clean}"
    if len(name) > 64 or not TOOL_NAME_PATTERN.match(name):
        digest = hashlib.sha256(tool.encode("utf-8")).hexdigest()[:8]
        name = f"{name[: 64 - 9]}_{digest}"
    return name
