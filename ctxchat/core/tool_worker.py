"""The child side of a tool worker process: it runs tool functions by reference, one call
at a time, for `ctxchat.core.tool_process`.

A thread cannot be stopped, a process can: a tool that holds the GIL in one C call (a
billion-digit `round`), blocks inside an `async def`, or never returns runs here, where the
parent's timeout ends it with SIGKILL. The tool's standard streams are not ctxchat's: its
`print` goes to /dev/null instead of into `--json` output or the terminal, and its
`input()` reads an empty stdin instead of the script's later turns. The requests and
replies travel over the pipes that were stdin and stdout, moved to other descriptors
before any tool is imported.

Only the standard library is imported here, so that a worker starts in tens of
milliseconds.

Protocol, one JSON object per line each way:
- request `{"ref": "package.module:function", "arguments": {...}, "path": [...]}`
  (`path`: the parent's `sys.path`, so a tool the parent could import, this can too);
- reply `{"ok": true, "text": "..."}` or `{"ok": false, "type": "ValueError",
  "message": "...", "exit_status": ...}` (`exit_status` only for SystemExit).
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import json
import os
import signal
import sys
from typing import IO, Any

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def render_result(value: Any) -> str:
    """A tool's return value as the text the model reads: a string as it is, anything
    else as JSON (its repr when it cannot be)."""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return repr(value)


def die_with_parent() -> None:
    """Ask Linux to SIGKILL this process when its parent dies (a SIGKILLed ctxchat leaves
    no worker behind); elsewhere the closed pipe ends it at its next read."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() == 1:  # the parent died before prctl took effect
        os._exit(1)


def resolve(reference: str) -> Any:
    module_name, _, path = reference.partition(":")
    target: Any = importlib.import_module(module_name.strip())
    for part in path.strip().split("."):
        target = getattr(target, part)
    return target


def call(request: dict[str, Any]) -> dict[str, Any]:
    path = request.get("path")
    if isinstance(path, list) and path != sys.path:
        sys.path[:] = [p for p in path if isinstance(p, str)]
        importlib.invalidate_caches()
    try:
        value = resolve(str(request["ref"]))(**request.get("arguments", {}))
        if inspect.isawaitable(value):
            value = asyncio.run(_awaited(value))
        return {"ok": True, "text": render_result(value)}
    except BaseException as exc:  # everything is the tool's failure, reported to the parent
        reply: dict[str, Any] = {"ok": False, "type": type(exc).__name__, "message": str(exc)}
        if isinstance(exc, SystemExit):
            reply["exit_status"] = exc.code if isinstance(exc.code, int | None) else str(exc.code)
        return reply


async def _awaited(value: Any) -> Any:
    return await value


def isolate_streams() -> tuple[IO[bytes], IO[bytes]]:
    """The protocol's pipes on descriptors of their own; 0, 1 and 2 on /dev/null."""
    requests = os.fdopen(os.dup(0), "rb")
    replies = os.fdopen(os.dup(1), "wb")
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)
    return requests, replies


def main() -> None:
    die_with_parent()
    requests, replies = isolate_streams()
    for line in requests:
        try:
            request = json.loads(line)
        except ValueError:
            return
        reply = call(request)
        # ASCII on the wire: a lone surrogate in a result travels as its escape.
        replies.write(json.dumps(reply).encode("ascii") + b"\n")
        replies.flush()


if __name__ == "__main__":
    main()
