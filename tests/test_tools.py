"""The tool catalogue and tool execution, without a model in the loop."""

from __future__ import annotations

import asyncio
import threading
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


def test_tool_names_must_be_what_the_model_apis_accept() -> None:
    registry = ToolRegistry()
    for bad in ("time.now", "a b", "", "x" * 65):
        with pytest.raises(ConfigError, match="must be 1 to 64 letters"):
            registry.register(Tool(bad, "no", lambda: None))
    registry.register(Tool("time__now-2", "ok", lambda: None))
    registry.remove("time__now-2")
    registry.remove("never-there")
    assert registry.names() == []


def test_a_sync_tool_past_its_timeout_does_not_hold_up_the_loop_end() -> None:
    """Issue 9, item 9: the worker is abandoned, not joined, when the tool overruns."""
    started, release, finished = threading.Event(), threading.Event(), threading.Event()

    def nap() -> str:
        started.set()
        release.wait(60)
        finished.set()
        return "late"

    tool = Tool("nap", "sleeps", nap, timeout=0.2)
    # asyncio.run ends by joining the default executor's threads: with asyncio.to_thread
    # this would wait for `release`, which is only set after it has returned.
    result = asyncio.run(invoke_tool(tool, ToolCallPart("c", "nap", "{}"), default_timeout=5))
    assert result.content == "tool 'nap' timed out after 0.2s"
    assert started.is_set()
    assert not finished.is_set()  # still running, and nobody waited for it
    release.set()
    assert finished.wait(10)


def test_a_tool_raising_timeout_error_itself_is_not_reported_as_timed_out() -> None:
    def impatient() -> str:
        raise TimeoutError("the remote end gave up")

    tool = Tool("impatient", "fails", impatient)
    result = asyncio.run(invoke_tool(tool, ToolCallPart("c", "impatient", "{}"), default_timeout=5))
    assert result.content == "TimeoutError: the remote end gave up"


def _exits() -> str:
    raise SystemExit(3)


async def _exits_async() -> str:
    raise SystemExit("bye")


def _argparse_rejects(flag: str) -> str:
    import argparse

    parser = argparse.ArgumentParser(prog="almanac")
    parser.add_argument("--days", type=int)
    parser.parse_args([flag])
    return "parsed"


@pytest.mark.parametrize(
    ("function", "arguments", "said"),
    [
        (_exits, "{}", "SystemExit: tool 'ender' tried to end the process (exit status 3)"),
        (_exits_async, "{}", "SystemExit: tool 'ender' tried to end the process (exit status bye)"),
        (
            _argparse_rejects,
            '{"flag": "--nope"}',
            "SystemExit: tool 'ender' tried to end the process (exit status 2)",
        ),
    ],
)
def test_a_tool_ending_the_process_becomes_an_error_result(
    function: Any, arguments: str, said: str
) -> None:
    """Issue 21, item 2: sys.exit() or argparse in a tool is the tool's failure, not ours."""
    schema = {"type": "object", "properties": {"flag": {"type": "string"}}}
    tool = Tool("ender", "ends", function, schema)
    result = asyncio.run(
        invoke_tool(tool, ToolCallPart("c", "ender", arguments), default_timeout=5)
    )
    assert (result.is_error, result.content) == (True, said)


@pytest.mark.parametrize("raised", [KeyboardInterrupt, GeneratorExit])
def test_interrupts_raised_by_a_tool_still_propagate(raised: type[BaseException]) -> None:
    async def interrupted() -> str:
        raise raised()

    tool = Tool("stopper", "stops", interrupted)
    with pytest.raises(raised):
        asyncio.run(invoke_tool(tool, ToolCallPart("c", "stopper", "{}"), default_timeout=5))


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "properties": {"x": {"type": 12}}},
        {"type": "object", "properties": {"x": {"type": "string", "pattern": "(unclosed"}}},
        {"type": "object", "required": "x"},
    ],
)
def test_a_tool_with_an_invalid_input_schema_gets_an_error_result(schema: dict[str, Any]) -> None:
    """Issue 21, item 9: an MCP server's invalid schema failed the whole turn."""
    ran: list[bool] = []
    tool = Tool("odd", "has a bad schema", lambda **_: ran.append(True), schema)
    result = asyncio.run(
        invoke_tool(tool, ToolCallPart("c", "odd", '{"x": "y"}'), default_timeout=5)
    )
    assert result.is_error
    assert result.content.startswith(
        "invalid arguments for 'odd': the tool's input schema is not valid JSON Schema ("
    )
    assert ran == []


@pytest.mark.slow  # a worker process, and a wait of the check's whole 2 s timeout
def test_a_backtracking_pattern_does_not_freeze_argument_checking() -> None:
    """Issue 21, item 9: `^(a+)+$` froze the event loop for over 60 s."""
    schema = {"type": "object", "properties": {"s": {"type": "string", "pattern": "^(a+)+$"}}}
    tool = Tool("bomb", "backtracks", lambda s: s, schema)
    arguments = '{"s": "' + "a" * 40 + 'b"}'
    result = asyncio.run(invoke_tool(tool, ToolCallPart("c", "bomb", arguments), default_timeout=5))
    assert result.is_error
    assert "a pattern in the tool's schema backtracks without end" in result.content
    fine = asyncio.run(
        invoke_tool(tool, ToolCallPart("c", "bomb", '{"s": "aaa"}'), default_timeout=5)
    )
    assert (fine.is_error, fine.content) == (False, "aaa")
