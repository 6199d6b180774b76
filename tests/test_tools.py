"""The tool catalogue and tool execution, without a model in the loop."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from ctxchat.core.errors import ConfigError
from ctxchat.core.messages import ToolCallPart
from ctxchat.core.tools import Tool, ToolRegistry, invoke_tool

SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "days": {"type": "integer", "minimum": 1}},
    "required": ["city"],
}


def weather(city: str, days: int = 1) -> dict[str, Any]:
    return {"city": city, "days": days, "sky": "clear"}


async def weather_async(city: str, days: int = 1) -> str:
    await asyncio.sleep(0)
    return f"{city}: clear for {days} day(s)"


def test_registry_keeps_names_unique_and_in_order() -> None:
    registry = ToolRegistry([Tool("weather", "forecast", weather, SCHEMA)])
    registry.register(Tool("clock", "the time", lambda: "noon"))
    assert registry.names() == ["weather", "clock"]
    assert len(registry) == 2
    assert registry.get("clock") is not None
    assert registry.get("nope") is None
    with pytest.raises(ConfigError, match="two tools are named 'weather'"):
        registry.register(Tool("weather", "again", weather))


def test_spec_is_the_chat_completions_tool_form() -> None:
    assert Tool("weather", "forecast", weather, SCHEMA).spec() == {
        "type": "function",
        "function": {"name": "weather", "description": "forecast", "parameters": SCHEMA},
    }


@pytest.mark.parametrize("function", [weather, weather_async])
def test_sync_and_async_tools_run_with_checked_arguments(function: Any) -> None:
    tool = Tool("weather", "forecast", function, SCHEMA)
    ok = asyncio.run(
        invoke_tool(tool, ToolCallPart("c1", "weather", '{"city": "Oslo"}'), default_timeout=5)
    )
    assert not ok.is_error
    assert "Oslo" in ok.content
    assert ok.call_id == "c1"
    bad = asyncio.run(
        invoke_tool(
            tool, ToolCallPart("c2", "weather", '{"city": "Oslo", "days": 0}'), default_timeout=5
        )
    )
    assert bad.is_error
    assert bad.content == "invalid arguments for 'weather': days: 0 is less than the minimum of 1"


def test_non_string_results_are_sent_as_json() -> None:
    tool = Tool("weather", "forecast", weather, SCHEMA)
    result = asyncio.run(
        invoke_tool(tool, ToolCallPart("c", "weather", '{"city": "Zürich"}'), default_timeout=5)
    )
    assert result.content == '{"city": "Zürich", "days": 1, "sky": "clear"}'


def test_arguments_must_be_an_object() -> None:
    tool = Tool("weather", "forecast", weather, SCHEMA)
    result = asyncio.run(
        invoke_tool(tool, ToolCallPart("c", "weather", '["Oslo"]'), default_timeout=5)
    )
    assert (result.is_error, result.content) == (
        True,
        "invalid arguments for 'weather': arguments must be a JSON object",
    )
