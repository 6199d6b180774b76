"""MCP servers over stdio as tool sources, through the official `mcp` SDK.

Every server of a tools provider lives on one event loop in a daemon thread (`McpHub`).
The CLI runs each scripted turn under its own `asyncio.run`, and an MCP session is an
anyio task group that must be opened and closed by one task on one loop: a loop of its
own lets a server outlive the turn that started it, serve every later turn, and be shut
down once as the process ends. Calls cross over with `run_coroutine_threadsafe`, so a
turn's timeout or Ctrl-C cancels the call on the other side too.

A server starts when its tools are first needed (the first turn, `/tools`, `ctxchat tools
list`), never at import or for `--help`; `mcp` itself is imported only then. A server
that cannot start (no such command, it exits, it does not answer within `start_timeout`)
or that dies mid-call is reported once, in one line, and its tools leave the catalogue:
the chat goes on without them. What a server writes on stderr goes to a log file beside
the other data (`mcp-logs/NAME.log`), never over the chat; its last line is quoted in
the report.

Tool names are `SERVER__TOOL` (`time__get_current_time`): the model APIs accept only
`[a-zA-Z0-9_-]{1,64}`, so neither a dot nor a slash can separate them, and the prefix
keeps two servers that offer a tool of the same name apart.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ctxchat import CtxchatError, Tool
from ctxchat.kit import dying_with_us

from .mcp_config import McpServerConfig, prefixed_name
from .mcp_hub import McpHub
from .mcp_log import capped_log
from .mcp_noise import CURRENT, NOTE_MARK, SdkRecords, quiet_sdk_logger

if TYPE_CHECKING:
    from mcp import Client

T = TypeVar("T")

# How long closing waits for the servers to exit before leaving them to the SDK's kill.
CLOSE_WAIT = 3.0


class McpUnavailable(CtxchatError):
    """A server that cannot be used: it did not start, or it died."""


class McpToolError(Exception):
    """The server ran the tool and reported a failure (its text is for the model)."""


@dataclass
class RemoteTool:
    """A tool as the server listed it."""

    name: str
    description: str
    parameters: dict[str, Any]
    read_only: bool


@dataclass
class McpServer:
    """One configured server: started on demand, then called until it fails or closes."""

    config: McpServerConfig
    hub: McpHub
    log_path: Path
    failure: str | None = None
    _client: Client | None = None
    _stop: asyncio.Event | None = None
    _served: concurrent.futures.Future[None] | None = None
    _tools: list[Tool] = field(default_factory=list)
    _sdk: SdkRecords | None = None
    noise_reported: bool = False

    @property
    def name(self) -> str:
        return self.config.name

    @property
    def started(self) -> bool:
        return self._served is not None

    async def start(self) -> list[Tool]:
        """Start the server and list its tools; `McpUnavailable` in one line if it fails."""
        if self.failure is not None:
            raise McpUnavailable(self.failure)
        if self._served is not None:
            return self._tools
        ready: concurrent.futures.Future[list[RemoteTool]] = concurrent.futures.Future()
        self._served = self.hub.submit(self._serve(ready))
        timeout = self.config.options.start_timeout
        try:
            async with asyncio.timeout(timeout):  # not wait_for: it can swallow a Ctrl-C
                listed = await asyncio.wrap_future(ready)
        except TimeoutError:
            self._fail(f"did not start within {timeout:g}s")
            self._served.cancel()  # the SDK then stops the process
            raise McpUnavailable(self.failure or "") from None
        except Exception as exc:
            self._fail(f"did not start: {_reason(exc)}")
            raise McpUnavailable(self.failure or "") from None
        self._tools = [self._tool(remote) for remote in listed]
        return self._tools

    def noise(self) -> str:
        """The warning about lines on its stdout that were not MCP messages, or ""."""
        said = self._sdk.noise() if self._sdk is not None else ""
        return f"MCP server '{self.name}' {said} (log: {self.log_path})" if said else ""

    def _fail(self, what: str) -> None:
        said = _last_line(self.log_path)
        heard = f"; it said: {said}" if said else ""
        if self._sdk is not None and (noise := self._sdk.noise()):
            heard += f"; it {noise}"
            self.noise_reported = True  # said in this line, not in a second one
        self.failure = (
            f"MCP server '{self.name}' {what}{heard} (log: {self.log_path}); "
            "the chat goes on without its tools"
        )

    async def _serve(self, ready: concurrent.futures.Future[list[RemoteTool]]) -> None:
        """On the hub's loop: open the session, list the tools, then hold the session open
        until `close` (or until the server dies). The session's task group stays open
        across the whole of it, so no cancel scope may wrap its start: a start that takes
        too long is cancelled from `start` instead."""
        from mcp import Client, StdioServerParameters, stdio_client

        options = self.config.options
        command, args = dying_with_us(options.command, list(options.args))
        params = StdioServerParameters(
            command=command,
            args=args,
            env={k: str(v) for k, v in options.env.items()} or None,
            cwd=options.cwd,
        )
        self._stop = asyncio.Event()
        quiet_sdk_logger()
        with os.fdopen(capped_log(self.log_path), "w", encoding="utf-8") as errlog:
            self._sdk = SdkRecords(errlog)
            CURRENT.set(self._sdk)  # this task's context, copied by the SDK's reader task
            try:
                async with contextlib.AsyncExitStack() as stack:
                    transport = stdio_client(params, errlog=errlog)
                    client = await stack.enter_async_context(Client(transport, cache=None))
                    listed = await _list_all(client)
                    self._client = client
                    _settle(ready, listed)
                    await self._stop.wait()
            except BaseException as exc:
                if not _settle_error(ready, exc) and self.failure is None:
                    self._fail(f"stopped: {_reason(exc)}")
                if not isinstance(exc, Exception):
                    raise
            finally:
                self._client = None

    def _tool(self, remote: RemoteTool) -> Tool:
        configured = self.config.options.side_effects
        side_effects = configured if configured is not None else not remote.read_only
        original = remote.name

        async def call(**arguments: Any) -> str:
            return await self.call(original, arguments)

        call.__name__ = prefixed_name(self.name, original)
        return Tool(
            prefixed_name(self.name, original),
            remote.description or original.replace("_", " "),
            call,
            remote.parameters,
            timeout=self.config.options.timeout,
            side_effects=side_effects,
            source=f"mcp:{self.name}",
        )

    async def call(self, tool: str, arguments: dict[str, Any]) -> str:
        if self.failure is not None:
            raise McpUnavailable(self.failure)
        future = self.hub.submit(self._call(tool, arguments))
        return await asyncio.wrap_future(future)

    async def _call(self, tool: str, arguments: dict[str, Any]) -> str:
        from mcp import MCPError
        from mcp_types import CONNECTION_CLOSED

        client = self._client
        if client is None:
            raise McpUnavailable(self.failure or f"MCP server '{self.name}' is not running")
        try:
            result = await client.call_tool(tool, arguments)
        except MCPError as exc:
            if exc.code == CONNECTION_CLOSED:
                self._fail("stopped during the call")
                raise McpUnavailable(self.failure or "") from None
            raise McpToolError(f"MCP error {exc.code}: {exc.message}") from None
        text = _result_text(result.content, result.structured_content)
        if result.is_error:
            raise McpToolError(text or "the tool failed and said nothing more")
        return text

    def close(self) -> None:
        """Ask the session to end (the SDK closes the server's stdin, then stops it)."""
        stop = self._stop
        if stop is not None:
            self.hub.call_soon(stop.set)

    def wait_closed(self, timeout: float) -> None:
        if self._served is not None:
            concurrent.futures.wait([self._served], timeout=timeout)


async def _list_all(client: Client) -> list[RemoteTool]:
    listed: list[RemoteTool] = []
    cursor: str | None = None
    for _page in range(100):  # a server that pages forever cannot hang the start
        page = await client.list_tools(cursor=cursor)
        for tool in page.tools:
            annotations = tool.annotations
            listed.append(
                RemoteTool(
                    tool.name,
                    " ".join((tool.description or tool.title or "").split()),
                    dict(tool.input_schema or {"type": "object", "properties": {}}),
                    bool(annotations is not None and annotations.read_only_hint is True),
                )
            )
        cursor = page.next_cursor
        if not cursor:
            break
    return listed


def _result_text(content: list[Any], structured: Any) -> str:
    """A call's result as the text the model reads: its text blocks, else its structured
    content as JSON; other blocks (images, audio) are named, not inlined."""
    texts: list[str] = []
    for block in content:
        kind = getattr(block, "type", "")
        if kind == "text":
            texts.append(str(block.text))
        elif kind == "resource" and hasattr(block.resource, "text"):
            texts.append(str(block.resource.text))
        else:
            texts.append(f"[{kind or 'content'} not shown]")
    if not texts and structured is not None:
        return json.dumps(structured, ensure_ascii=False, default=str)
    return "\n".join(texts)


def _settle(future: concurrent.futures.Future[T], value: T) -> None:
    with contextlib.suppress(concurrent.futures.InvalidStateError):
        future.set_result(value)


def _settle_error(future: concurrent.futures.Future[Any], exc: BaseException) -> bool:
    """Hand `exc` to whoever waits for the start; False when the start was over already."""
    if future.done():
        return False
    try:
        future.set_exception(exc if isinstance(exc, Exception) else McpUnavailable(str(exc)))
    except concurrent.futures.InvalidStateError:
        return False
    return True


def _reason(exc: BaseException) -> str:
    """The innermost cause of a failure, in a few words (anyio wraps them in groups)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    if isinstance(exc, FileNotFoundError):
        return f"no such program: {exc.filename or exc}"
    if isinstance(exc, TimeoutError):
        return "it did not answer in time"
    if type(exc).__name__ == "ValidationError" and callable(getattr(exc, "errors", None)):
        return _malformed(exc)
    text = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    return " ".join(str(text).split())


def _malformed(exc: Any) -> str:
    """A pydantic error about a server's reply, in one short line (its own text spans a
    dozen lines with links)."""
    found = exc.errors()
    parts = [
        f"{'.'.join(str(p) for p in e.get('loc', ())) or 'the reply'}: {e.get('msg', '?')}"
        for e in found[:3]
    ]
    more = f" and {len(found) - 3} more" if len(found) > 3 else ""
    return f"its reply is malformed ({'; '.join(parts)}{more})"


def _last_line(path: Path) -> str:
    try:
        with path.open("rb") as handle:
            handle.seek(max(0, path.stat().st_size - 2000))
            lines = handle.read().decode("utf-8", errors="replace").splitlines()
    except OSError:
        return ""
    said = next(
        (
            line.strip()
            for line in reversed(lines)
            if line.strip() and not line.startswith(NOTE_MARK)
        ),
        "",
    )
    return said[:160]


async def start_all(servers: list[McpServer], warn: Callable[[str], None]) -> list[Tool]:
    """Start the servers not started yet, side by side; the tools of those that came up."""

    async def one(server: McpServer) -> list[Tool]:
        try:
            return await server.start()
        except McpUnavailable as exc:
            warn(exc.message)
            return []

    pending: list[Awaitable[list[Tool]]] = [one(s) for s in servers if not s.started]
    found = await asyncio.gather(*pending)
    return [tool for tools in found for tool in tools]
