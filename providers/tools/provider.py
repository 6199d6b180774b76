"""The tools provider: fills the tool catalogue from built-ins, Python functions and MCP
servers, and offers the model those tools.

Catalogue and advertising are two steps, so that a tool selector can come between them:

1. *Filling* (`ProviderEnv.tools`, the registry every provider of the pipeline shares).
   Built-ins and Python functions are registered at `setup`, so a bad reference is a
   config error that `config validate` reports. MCP servers are started when the
   catalogue is first needed (`load_tools`: the first turn, `/tools`, `ctxchat tools
   list`), never for `--help` or `sessions list`.
2. *Advertising* (`context.extend_tools` in `before_run`). With `advertise = true` (the
   default) this provider offers the model every tool it put in the catalogue, each turn.
   With `advertise = false` it only fills the catalogue: a selector placed after it in the
   pipeline chooses among `env.tools` for the turn and advertises those. The rule for a
   selector: run after the tools providers (their `before_run` has loaded the catalogue
   by then) and advertise under its own source id.

Running them: every call goes through the engine (`ctxchat.core.tools.invoke_tool`: the
arguments checked against the schema, a timeout, failures as results the model reads). A
tool with side effects runs only once the user agrees (`ctxchat.core.approval`); "always"
is remembered here, in this provider's state of the session (`always`), as are the names
advertised on the last stored turn (`advertised`, which `/tools` marks).
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ctxchat import (
    AgentView,
    Cell,
    Command,
    CommandResult,
    CommandView,
    ConfigError,
    ContextProvider,
    CtxchatError,
    Middleware,
    Note,
    RunContext,
    Session,
    Table,
    Tool,
    ToolCall,
    ToolCallPart,
    ToolChooser,
    ToolResultPart,
    ToolSource,
    option,
)
from ctxchat.kit import ToolRun, build_options, did_you_mean, first_sentence, search_past_sessions

from .calc import calculate
from .clock import convert_time, current_time
from .files import FileTools, check_roots
from .mcp_config import parse_servers
from .mcp_hub import McpHub
from .mcp_servers import CLOSE_WAIT, McpServer, start_all
from .python_functions import in_a_loop_of_its_own, load_reference, tool_from_function

FILE_TOOLS = ("read_file", "list_directory")
BUILTINS = ("current_time", "convert_time", "calculate", "search_sessions", *FILE_TOOLS)
# Built-ins that read the turn they are called in (`Tool.takes_run`).
TAKE_THE_RUN = {"search_sessions"}
# Built-ins that run in a worker process (`Tool.worker_ref`): the calculator's arguments
# come from the model, and a document it read may hold a calculation that never ends.
IN_WORKER = {"calculate": f"{calculate.__module__}:{calculate.__qualname__}"}


@dataclass(frozen=True)
class PythonToolOptions:
    """One entry of `python` written as a table instead of a bare reference."""

    ref: str = option(help="'package.module:function'")
    name: str | None = option(None, help="the tool's name (omitted: the function's)")
    side_effects: bool = option(True, help="ask before each call (omit only for read-only)")
    timeout: float | None = option(None, help="seconds a call may take")
    isolated: bool = option(
        True,
        help="run each call in a worker process, where the timeout can stop it and the "
        "tool's print and input() do not touch ctxchat's streams; false: in a thread of "
        "ctxchat itself",
    )


@dataclass(frozen=True)
class ToolsOptions:
    builtins: list[str] = option(
        default_factory=lambda: list(BUILTINS),
        help="built-in tools to offer: " + ", ".join(BUILTINS),
    )
    roots: list[str] = option(
        default_factory=list,
        help="directories read_file and list_directory may read (absolute; ~ allowed); "
        "none: the file tools are off",
    )
    max_file_bytes: int = option(100_000, help="read_file returns at most this many bytes")
    python: list[str | dict[str, Any]] = option(
        default_factory=list,
        help="Python functions as tools: 'package.module:function', or a table "
        "{ref, name, side_effects, timeout}; side effects are assumed unless "
        "side_effects = false",
    )
    mcp: dict[str, Any] = option(
        default_factory=dict,
        help="MCP servers over stdio, one table each: [providers.mcp.NAME] with command, "
        "args, env, cwd, side_effects, timeout, start_timeout",
    )
    advertise: bool = option(
        True,
        help="offer the model every tool of this provider on each turn; false: only fill "
        "the catalogue, for a tool selector after this provider to choose from",
    )

    def __post_init__(self) -> None:
        if self.max_file_bytes < 1:
            raise ValueError("max_file_bytes must be positive")


class ToolsProvider(ContextProvider[ToolsOptions]):
    """Built-in, Python and MCP tools, in the shared catalogue and offered to the model."""

    def setup(self) -> None:
        super().setup()
        options = self.options
        self._own: list[str] = []  # names this provider put in the catalogue, in order
        for tool in [*self._builtin_tools(), *self._python_tools()]:
            self._register(tool)
        hub = McpHub()
        logs = self.env.data_dir / "mcp-logs"
        self._servers = [
            McpServer(config, hub, logs / f"{config.name}.log")
            for config in parse_servers(options.mcp)
        ]
        self._hub = hub
        self._reported: set[str] = set()

    # -- the catalogue ------------------------------------------------------------------------
    def _register(self, tool: Tool) -> None:
        self.env.tools.register(tool)
        self._own.append(tool.name)

    def _builtin_tools(self) -> list[Tool]:
        options = self.options
        for index, name in enumerate(options.builtins):
            if name not in BUILTINS:
                raise ConfigError(
                    f"builtins[{index}]: unknown built-in tool '{name}'"
                    f"{did_you_mean(name, list(BUILTINS))}; known: {', '.join(BUILTINS)}"
                )
        functions: dict[str, Callable[..., Any]] = {
            "current_time": current_time,
            "convert_time": convert_time,
            "calculate": calculate,
            "search_sessions": _SessionSearch(self.env.data_dir).search_sessions,
        }
        roots = check_roots(options.roots)
        if roots:  # the file tools are off until a root is configured
            files = FileTools(roots, options.max_file_bytes)
            functions["read_file"] = files.read_file
            functions["list_directory"] = files.list_directory
        return [
            tool_from_function(
                functions[name],
                source="builtin",
                worker_ref=IN_WORKER.get(name),
                takes_run=name in TAKE_THE_RUN,
            )
            for name in dict.fromkeys(options.builtins)
            if name in functions
        ]

    def _python_tools(self) -> list[Tool]:
        tools = []
        for index, entry in enumerate(self.options.python):
            where = f"python[{index}]"
            if isinstance(entry, str):
                entry = {"ref": entry}
            spec = build_options(PythonToolOptions, entry, where)
            function = load_reference(spec.ref)
            if not spec.isolated and inspect.iscoroutinefunction(function):
                function = in_a_loop_of_its_own(function)
            tools.append(
                tool_from_function(
                    function,
                    source=f"python:{spec.ref}",
                    name=spec.name,
                    side_effects=spec.side_effects,
                    timeout=spec.timeout,
                    where=spec.ref,
                    worker_ref=spec.ref if spec.isolated else None,
                )
            )
        return tools

    async def load_tools(self, warn: Callable[[str], None]) -> None:
        """Start the MCP servers not started yet and put their tools in the catalogue."""
        for tool in await start_all(self._servers, warn):
            try:
                self._register(tool)
            except ConfigError as exc:  # a name another source took first
                warn(f"tool '{tool.name}' left out: {exc.message}")
        self._report_failures(warn)

    def _report_failures(self, warn: Callable[[str], None]) -> None:
        """Servers that died since: their tools leave the catalogue, said once; servers
        that wrote junk on stdout, said once too."""
        for server in self._servers:
            if server.failure is None or server.name in self._reported:
                continue
            self._reported.add(server.name)
            source = f"mcp:{server.name}"
            gone = [n for n in self._own if (t := self.env.tools.get(n)) and t.source == source]
            for name in gone:
                self.env.tools.remove(name)
            if gone:  # one that never started was reported by `load_tools` already
                warn(server.failure)
        for server in self._servers:
            if server.failure is None and not server.noise_reported and (noise := server.noise()):
                server.noise_reported = True
                warn(noise)

    def check(self) -> None:
        """`config validate`: start the MCP servers, and fail naming each that does not."""

        problems: list[str] = []
        asyncio.run(self.load_tools(problems.append))
        if problems:
            raise CtxchatError("; ".join(problems))

    def catalogue(self) -> list[Tool]:
        """The tools this provider put in the catalogue and that are still there."""
        return [t for n in self._own if (t := self.env.tools.get(n)) is not None]

    # -- a turn -------------------------------------------------------------------------------
    async def before_run(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        def warn(text: str) -> None:
            context.warn(self.source_id, text)

        await self.load_tools(warn)
        context.allow_tools(_names(state.get("always")))
        if self.options.advertise:
            context.extend_tools(self.source_id, self.catalogue())
            context.on_over_budget(self.source_id, self._shrink(context), priority=5)
        context.extend_middleware(self.source_id, _ReportFailures(self, warn))

    def _shrink(self, context: RunContext) -> Callable[[int], bool]:
        def shrink(tokens: int) -> bool:
            """Over the window: the last tool of the catalogue goes (MCP servers' first,
            then Python tools', the built-ins last), as a selector drops its lowest."""
            mine = context.tools.get(self.source_id, [])
            if not mine:
                return False
            del mine[-1]
            return True

        return shrink

    async def after_stored_turn(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        always = _names(state.get("always"))
        state["always"] = list(dict.fromkeys([*always, *context.granted_always]))
        state["advertised"] = [t.name for t in context.all_tools()]

    # -- /tools -------------------------------------------------------------------------------
    def commands(self) -> list[Command[CommandView]]:
        return [
            Command("tools", "list the tools, marking those offered on the last turn", self._list)
        ]

    async def _list(self, ctx: CommandView, args: str) -> CommandResult:
        problems: list[str] = []
        sources = [p for p in ctx.agent.run_providers() if isinstance(p, ToolSource)]
        for provider in sources:
            await provider.load_tools(problems.append)
        tools = list(self.env.tools)
        if not tools:
            return CommandResult((*_warnings(problems), Note("no tools in the catalogue")))
        advertised = set(_names(ctx.state.get("advertised")))
        always = set(_names(ctx.state.get("always")))
        scores: dict[str, float | None] = {}
        for chooser in ctx.agent.run_providers():
            if isinstance(chooser, ToolChooser):
                state = ctx.session.provider_state(chooser.source_id)
                scores.update(chooser.last_scores(state))
        if scores:  # a selector chose: the last turn's scores explain its choice
            tools.sort(key=lambda t: (t.name not in scores, -(scores.get(t.name) or 0.0)))
            rows: tuple[tuple[Cell, ...], ...] = tuple(
                (tool.name, scores.get(tool.name), tool.source or "-", _effects(tool, always))
                for tool in tools
            )
            columns = ("tool", "score", "source", "side effects")
        else:
            rows = tuple(
                (
                    tool.name,
                    tool.source or "-",
                    _effects(tool, always),
                    first_sentence(tool.description, 50),
                )
                for tool in tools
            )
            columns = ("tool", "source", "side effects", "what it does")
        marked = frozenset(i for i, tool in enumerate(tools) if tool.name in advertised)
        table = Table(columns, rows, marked, "tools")
        note = Note("marked: offered to the model on this session's last turn", "quiet")
        return CommandResult((*_warnings(problems), table, note))

    def close(self) -> None:
        for server in self._servers:
            server.close()
        # They stop side by side, so one deadline for all: the exit waits at most
        # CLOSE_WAIT for servers that ignore the end of their input (the SDK kills them).
        deadline = time.monotonic() + CLOSE_WAIT
        for server in self._servers:
            server.wait_closed(max(0.0, deadline - time.monotonic()))
        self._hub.stop()


class _SessionSearch:
    """The search_sessions tool: it reads the histories of the turn it is called in (its
    `ToolRun`: the pipeline, and the session whose project comes first), so nothing of a
    turn is kept here. Read-only: no side effects."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir

    async def search_sessions(self, run: ToolRun, query: str, limit: int = 5) -> str:
        """Search the user's past conversations (every stored message of every session);
        returns the best matches, each with its session id, date, role and title, a snippet
        with the matched words between **, and the turn beside it (the reply, or what was
        replied to). Use it when the user refers to something said before ("what did we
        decide about the database last week?", "when did I start pottery?").

        Args:
            query: a few distinctive words of what to find: names, places, things, the
                words the earlier message would have used ("pottery class started"),
                not a whole question. Any word may match; messages holding more of the
                words, or holding them side by side, rank first. Try other words
                (synonyms, a related thing) if the first search misses.
            limit: how many matches to return, 1 to 20
        """
        return await search_past_sessions(run, query, data_dir=self.data_dir, limit=limit)


class _ReportFailures(Middleware):
    """After each tool call: a server that died during it is said at once, in one line."""

    def __init__(self, provider: ToolsProvider, warn: Callable[[str], None]) -> None:
        self.provider = provider
        self.warn = warn

    async def on_tool_call(
        self, tool: Tool | None, call: ToolCallPart, call_next: ToolCall
    ) -> ToolResultPart:
        try:
            return await call_next(tool, call)
        finally:
            self.provider._report_failures(self.warn)


def _names(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _effects(tool: Tool, always: set[str]) -> str:
    if not tool.side_effects:
        return "none"
    return "yes (allowed always)" if tool.name in always else "yes (asks)"


def _warnings(problems: list[str]) -> tuple[Note, ...]:
    return tuple(Note(p, "warning") for p in problems)
