"""An MCP server's stderr, kept in `mcp-logs/NAME.log` up to a size.

The server writes into a pipe, not the file: a thread copies what comes to the log until
`MAX_LOG_BYTES`, then notes the cut once and reads the rest away (a server must never
block on a full pipe). 50 MB of stderr made a 52 MB file before.
"""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path

MAX_LOG_BYTES = 1_000_000
CUT_NOTE = "\n[ctxchat: the log was cut here, at {limit:,} bytes; the rest was dropped]\n"


def capped_log(path: Path, limit: int = MAX_LOG_BYTES) -> int:
    """A descriptor to hand the server as its stderr (close it once the server has it);
    what is written to it lands in `path` (made 0600), at most `limit` bytes of it."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    log = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    read_end, write_end = os.pipe()
    threading.Thread(
        target=_copy, args=(read_end, log, limit), name=f"mcp log {path.name}", daemon=True
    ).start()
    return write_end


def _copy(read_end: int, log: int, limit: int) -> None:
    written = 0
    try:
        while chunk := os.read(read_end, 65_536):
            if written >= limit:
                continue
            kept = chunk[: limit - written]
            os.write(log, kept)
            written += len(kept)
            if written >= limit:
                os.write(log, CUT_NOTE.format(limit=limit).encode())
    except OSError:
        pass  # the disk is full: the server goes on, its log stops
    finally:
        for fd in (read_end, log):
            with contextlib.suppress(OSError):
                os.close(fd)
