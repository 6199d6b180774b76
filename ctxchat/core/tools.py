"""Tools the model may call: their description, a catalogue, and safe execution."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import inspect
import json
import re
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ctxchat.core.errors import ConfigError
from ctxchat.core.messages import ToolCallPart, ToolResultPart
from ctxchat.core.tool_process import POOL, ToolProcessFailed, exit_text
from ctxchat.core.tool_worker import render_result

if TYPE_CHECKING:
    from ctxchat.core.provider import AgentView
    from ctxchat.core.session import Session

# What the model APIs accept as a tool name (OpenAI's rule; the strictest in use).
TOOL_NAME_PATTERN = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
TOOL_NAME_RULE = "must be 1 to 64 letters, digits, '_' or '-'"
# What a tool raises that is not the tool's failure but the user's Ctrl-C, a timeout's
# cancellation or a generator closing: these go on up; anything else becomes a result.
PROPAGATED = (KeyboardInterrupt, asyncio.CancelledError, GeneratorExit)
# Seconds the arguments of a schema with regular expressions may take to check.
PATTERN_TIMEOUT = 2.0


@dataclass(frozen=True)
class Tool:
    """A function the model can call, with the JSON Schema of its keyword arguments.

    `side_effects` says the call changes something outside the chat (writes a file, sends
    a message): the engine then asks the user before running it (see `RunContext.confirm`).
    `source` says where the tool comes from, for people (`builtin`, `python:pkg.mod:fn`,
    `mcp:time`); the model never sees it.
    """

    name: str
    description: str
    function: Callable[..., Any]
    parameters: Mapping[str, Any] = field(
        default_factory=lambda: {"type": "object", "properties": {}}
    )
    timeout: float | None = None  # seconds; None takes the agent's default
    side_effects: bool = False
    source: str = ""
    # "package.module:function": the call runs in a worker process that imports it by this
    # reference, where the timeout can stop it (`ctxchat.core.tool_process`); None runs
    # `function` in a thread of this process (a tool that needs this process's state).
    worker_ref: str | None = None
    # The function's first argument is the turn's `ToolRun` (what a tool may read of the
    # run it is called in), given by the engine and never shown to the model: a tool that
    # reads the conversation gets it per call instead of from a provider shared by all.
    takes_run: bool = False

    def __post_init__(self) -> None:
        if self.takes_run and self.worker_ref is not None:
            raise ConfigError(f"tool '{self.name}' takes the run: it cannot run in a worker")

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


@dataclass(frozen=True)
class ToolRun:
    """The run a tool is called in, for a tool with `takes_run`: the pipeline and the
    session of the turn (its project, its state), read-only by convention."""

    agent: AgentView
    session: Session


class ToolRegistry:
    """The catalogue of tools providers can choose from, by unique name.

    Filling it and advertising from it are separate on purpose: a tools provider puts what
    its sources offer here (`ProviderEnv.tools` is one registry shared by the pipeline),
    and whoever advertises (the tools provider itself, or a selector later in the
    pipeline) picks from it for each turn.
    """

    def __init__(self, tools: list[Tool] | None = None) -> None:
        self._tools: dict[str, Tool] = {}
        for tool in tools or []:
            self.register(tool)

    def register(self, tool: Tool) -> None:
        if not TOOL_NAME_PATTERN.match(tool.name):
            raise ConfigError(f"tool name {tool.name!r} {TOOL_NAME_RULE}")
        if tool.name in self._tools:
            raise ConfigError(f"two tools are named '{tool.name}'")
        self._tools[tool.name] = tool

    def remove(self, name: str) -> None:
        """Take a tool out of the catalogue (its MCP server died, say); absent is fine."""
        self._tools.pop(name, None)

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def names(self) -> list[str]:
        return list(self._tools)

    def __iter__(self) -> Iterator[Tool]:
        return iter(list(self._tools.values()))

    def __len__(self) -> int:
        return len(self._tools)


def schema_problem(schema: Mapping[str, Any], arguments: Any) -> str:
    """Why `arguments` do not fit `schema` ("" when they do). A schema that is not valid
    JSON Schema (a server's mistake) is said as such: the call is refused, never the turn
    failed."""
    if not isinstance(arguments, dict):
        return "arguments must be a JSON object"
    import jsonschema  # lazy: only paid for when a tool is actually called

    schema = dict(schema)
    try:
        validator_cls = jsonschema.validators.validator_for(schema)
        validator_cls.check_schema(schema)
        errors = sorted(validator_cls(schema).iter_errors(arguments), key=lambda e: list(e.path))
    except Exception as exc:  # SchemaError, an unknown type or format, a bad regex...
        message = getattr(exc, "message", None) or str(exc)
        return f"the tool's input schema is not valid JSON Schema ({message})"
    if not errors:
        return ""
    first = errors[0]
    where = ".".join(str(p) for p in first.absolute_path)
    return f"{where + ': ' if where else ''}{first.message}"


async def _check_arguments(tool: Tool, arguments: Any) -> str:
    """`schema_problem`, in a worker process when the schema holds a regular expression:
    `^(a+)+$` against forty a's and a b backtracks for minutes in one C call, which would
    freeze the event loop (and Ctrl-C) here."""
    if not _has_pattern(tool.parameters):
        return schema_problem(tool.parameters, arguments)
    request = {"schema": dict(tool.parameters), "arguments": arguments}
    try:
        async with asyncio.timeout(PATTERN_TIMEOUT):
            return await POOL.call(f"{__name__}:schema_problem", request)
    except TimeoutError:
        return (
            f"checking the arguments took over {PATTERN_TIMEOUT:g}s (a pattern in the "
            "tool's schema backtracks without end); the call was not run"
        )
    except ToolProcessFailed as exc:
        return exc.text(tool.name)


def _has_pattern(schema: Any) -> bool:
    if isinstance(schema, dict):
        return any(
            key in ("pattern", "patternProperties") or _has_pattern(value)
            for key, value in schema.items()
        )
    if isinstance(schema, list):
        return any(_has_pattern(item) for item in schema)
    return False


async def run_in_daemon_thread(function: Callable[..., Any], arguments: Mapping[str, Any]) -> Any:
    """`function(**arguments)` in a thread of its own that nothing ever waits for.

    `asyncio.to_thread` uses the loop's default executor, whose threads `asyncio.run` joins
    as it ends: a sync tool that overran its timeout (a 100 s sleep) would hold up the end
    of the turn in a script, and the process exit, for as long as it ran. A daemon thread
    is abandoned instead: the caller stops waiting at the timeout, the tool finishes (or
    not) on its own, and the process may exit under it. Its late result is dropped.
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()
    context = contextvars.copy_context()

    def settle(value: Any, error: BaseException | None) -> None:
        if future.done():  # the caller gave up (timeout, Ctrl-C)
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(value)

    def work() -> None:
        value: Any = None
        error: BaseException | None = None
        try:
            value = context.run(function, **arguments)
        except BaseException as exc:  # handed to the caller, whatever it is
            error = exc
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits
            loop.call_soon_threadsafe(settle, value, error)

    name = getattr(function, "__name__", "tool")
    threading.Thread(target=work, name=f"ctxchat tool {name}", daemon=True).start()
    return await future


async def invoke_tool(
    tool: Tool | None, call: ToolCallPart, *, default_timeout: float, run: ToolRun | None = None
) -> ToolResultPart:
    """Run one tool call (in `run`, for a tool that takes it); every failure becomes an
    error result the model can read."""

    def failed(text: str) -> ToolResultPart:
        return ToolResultPart(call.id, text, is_error=True)

    if tool is None:
        return failed(f"unknown tool '{call.name}'")
    try:
        arguments = call.parsed_arguments()
    except json.JSONDecodeError as exc:
        return failed(f"arguments are not valid JSON: {exc}")
    problem = await _check_arguments(tool, arguments)
    if problem:
        return failed(f"invalid arguments for '{tool.name}': {problem}")
    function = tool.function
    if tool.takes_run:
        if run is None:
            return failed(f"tool '{tool.name}' runs during a turn only")
        function = functools.partial(function, run)
    timeout = tool.timeout if tool.timeout is not None else default_timeout
    deadline = asyncio.timeout(timeout)
    try:
        async with deadline:
            if tool.worker_ref is not None:
                value = await POOL.call(tool.worker_ref, arguments)
            elif inspect.iscoroutinefunction(function):
                value = await function(**arguments)
            else:
                value = await run_in_daemon_thread(function, arguments)
                if inspect.isawaitable(value):
                    value = await value
    except TimeoutError as exc:
        if deadline.expired():
            return failed(f"tool '{tool.name}' timed out after {timeout:g}s")
        return failed(f"{type(exc).__name__}: {exc}")
    except PROPAGATED:
        raise
    except BaseException as exc:  # a tool's failure is data for the model, not a crash
        return failed(failure_text(tool.name, exc))
    return ToolResultPart(call.id, render_result(value))


def failure_text(tool_name: str, exc: BaseException) -> str:
    """What the model reads of a tool's failure, in its own thread or in a worker."""
    if isinstance(exc, SystemExit):
        return exit_text(tool_name, exc.code)
    if isinstance(exc, ToolProcessFailed):
        return exc.text(tool_name)
    return f"{type(exc).__name__}: {exc}"
