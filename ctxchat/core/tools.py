"""Tools the model may call: their description, a catalogue, and safe execution."""

from __future__ import annotations

import asyncio
import inspect
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ctxchat.core.errors import ConfigError
from ctxchat.core.messages import ToolCallPart, ToolResultPart


@dataclass(frozen=True)
class Tool:
    """A function the model can call, with the JSON Schema of its keyword arguments."""

    name: str
    description: str
    function: Callable[..., Any]
    parameters: Mapping[str, Any] = field(
        default_factory=lambda: {"type": "object", "properties": {}}
    )
    timeout: float | None = None  # seconds; None takes the agent's default

    def spec(self) -> dict[str, Any]:
        """The tool as advertised in an OpenAI Chat Completions request."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": dict(self.parameters),
            },
        }


class ToolRegistry:
    """The catalogue of tools providers can choose from, by unique name."""

    def __init__(self, tools: list[Tool] | None = None) -> None:
        self._tools: dict[str, Tool] = {}
        for tool in tools or []:
            self.register(tool)

    def register(self, tool: Tool) -> None:
        if tool.name in self._tools:
            raise ConfigError(f"two tools are named '{tool.name}'")
        self._tools[tool.name] = tool

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def names(self) -> list[str]:
        return list(self._tools)

    def __iter__(self) -> Iterator[Tool]:
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)


def _check_arguments(tool: Tool, arguments: Any) -> str | None:
    """Why the arguments do not fit the tool's schema, or None when they do."""
    if not isinstance(arguments, dict):
        return "arguments must be a JSON object"
    import jsonschema  # lazy: only paid for when a tool is actually called

    validator_cls = jsonschema.validators.validator_for(tool.parameters)
    errors = sorted(
        validator_cls(tool.parameters).iter_errors(arguments), key=lambda e: list(e.path)
    )
    if not errors:
        return None
    first = errors[0]
    where = ".".join(str(p) for p in first.absolute_path)
    return f"{where + ': ' if where else ''}{first.message}"


def _render_result(value: Any) -> str:
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return repr(value)


async def invoke_tool(
    tool: Tool | None, call: ToolCallPart, *, default_timeout: float
) -> ToolResultPart:
    """Run one tool call; every failure becomes an error result the model can read."""

    def failed(text: str) -> ToolResultPart:
        return ToolResultPart(call.id, text, is_error=True)

    if tool is None:
        return failed(f"unknown tool '{call.name}'")
    try:
        arguments = call.parsed_arguments()
    except json.JSONDecodeError as exc:
        return failed(f"arguments are not valid JSON: {exc}")
    problem = _check_arguments(tool, arguments)
    if problem:
        return failed(f"invalid arguments for '{tool.name}': {problem}")
    timeout = tool.timeout if tool.timeout is not None else default_timeout
    try:
        if inspect.iscoroutinefunction(tool.function):
            value = await asyncio.wait_for(tool.function(**arguments), timeout)
        else:
            value = await asyncio.wait_for(asyncio.to_thread(tool.function, **arguments), timeout)
            if inspect.isawaitable(value):
                value = await asyncio.wait_for(value, timeout)
    except TimeoutError:
        return failed(f"tool '{tool.name}' timed out after {timeout:g}s")
    except Exception as exc:  # a tool's failure is data for the model, not a crash
        return failed(f"{type(exc).__name__}: {exc}")
    return ToolResultPart(call.id, _render_result(value))
