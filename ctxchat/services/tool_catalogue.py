"""The tool catalogue of a pipeline, loaded for listing (`ctxchat tools list`).

Tools live in the registry the providers share (`ProviderEnv.tools`); the providers that
fill it from slow sources (MCP servers) are `ToolSource`s and load when asked, here as
on a first turn.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ctxchat.core.agent import Agent
from ctxchat.core.capabilities import ToolSource
from ctxchat.core.tools import Tool, ToolRegistry


async def load_catalogue(agent: Agent, warn: Callable[[str], None]) -> list[Tool]:
    """Every tool in the pipeline's catalogue, in the order the sources added them; each
    source that could not be reached is reported through `warn`."""
    registries: dict[int, ToolRegistry] = {}
    for provider in agent.run_providers():
        if isinstance(provider, ToolSource):
            await provider.load_tools(warn)
        registries.setdefault(id(provider.env.tools), provider.env.tools)
    return [tool for registry in registries.values() for tool in registry]


def catalogue_entry(tool: Tool) -> dict[str, Any]:
    """A tool as `tools list --json` gives it."""
    return {
        "name": tool.name,
        "source": tool.source,
        "description": tool.description,
        "side_effects": tool.side_effects,
    }


def first_sentence(description: str, width: int = 80) -> str:
    """A description's first sentence, for one line of a table."""
    from ctxchat.core.text import preview

    first = description.strip().split(". ")[0]
    return preview(first, width)
