"""What the MCP SDK logs about a server, kept in that server's log, never on the terminal.

The SDK logs through `logging` and installs no handler, so Python's last-resort handler
printed every record, traceback and all, over the chat: a server writing 2,000 lines of
junk on its stdout gave 22,000 lines of stderr. A handler on the `mcp` logger takes the
records instead. The SDK reads a server's stdout in a task started inside the session,
and a task starts with a copy of its parent's context, so a context variable set where
the session opens names the server a record is about: its log gets one line per record,
and the lines that were not MCP messages are counted, for one warning in the chat.
"""

from __future__ import annotations

import logging
from contextvars import ContextVar
from typing import TextIO

MAX_QUOTED = 80
# How the lines ctxchat adds to a server's log begin (the quoted "it said" skips them).
NOTE_MARK = "[ctxchat: "

# The server whose session the current task belongs to (None outside any session).
CURRENT: ContextVar[SdkRecords | None] = ContextVar("ctxchat_mcp_server", default=None)


class SdkRecords:
    """What the SDK said about one server: written to its log, junk lines counted."""

    def __init__(self, log: TextIO) -> None:
        self._log = log
        self.not_mcp = 0  # lines on its stdout that were not JSON-RPC messages
        self.first_not_mcp = ""

    def keep(self, record: logging.LogRecord) -> None:
        exc = record.exc_info[1] if record.exc_info else None
        line = _unparsed_line(exc)
        if line is not None:
            self.not_mcp += 1
            if self.not_mcp == 1:
                self.first_not_mcp = line
        if line is not None:
            said = f"not an MCP message on stdout: {line!r}"
        else:
            said = record.getMessage()
            if exc is not None:
                said = f"{said}: {' '.join(str(exc).split())[:300]}"
        try:
            self._log.write(f"{NOTE_MARK}{said}]\n")
            self._log.flush()
        except (OSError, ValueError):
            pass  # a full disk or a closed log costs the log line, never the chat

    def noise(self) -> str:
        """`wrote N lines ...` for the warning, or "" when every line was a message."""
        if not self.not_mcp:
            return ""
        lines = "a line" if self.not_mcp == 1 else f"{self.not_mcp:,} lines"
        if self.not_mcp == 1:
            are, them = "is not an MCP message", "it"
        else:
            are, them = "are not MCP messages", "them"
        first = f"(first: {self.first_not_mcp!r})"
        return f"wrote {lines} on stdout that {are} {first}; ctxchat ignored {them}"


def _unparsed_line(exc: BaseException | None) -> str | None:
    """The stdout line a parse failure was about, cut for quoting; None for other records."""
    errors = getattr(exc, "errors", None)
    if exc is None or type(exc).__name__ != "ValidationError" or not callable(errors):
        return None
    found = errors()
    given = found[0].get("input", "") if found else ""
    text = given if isinstance(given, str) else repr(given)
    text = " ".join(text.split())
    return text if len(text) <= MAX_QUOTED else text[: MAX_QUOTED - 1] + "…"


class _ToServerLog(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        records = CURRENT.get()
        if records is not None:
            records.keep(record)


def quiet_sdk_logger() -> None:
    """Route the `mcp` logger's records to the server logs (once per process); records
    about no server are dropped, as the terminal is the chat's."""
    logger = logging.getLogger("mcp")
    if not any(isinstance(h, _ToServerLog) for h in logger.handlers):
        logger.addHandler(_ToServerLog())
        logger.propagate = False
