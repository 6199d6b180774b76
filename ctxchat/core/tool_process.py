"""Tool calls run in worker processes, where a timeout can really stop them.

A thread cannot be stopped: a tool that holds the GIL in one C call (`round(1, -10**9)`)
ignores the timeout and Ctrl-C alike, and only SIGKILL ends ctxchat. So the calculator and
the Python tools run in a child process (`ctxchat.core.tool_worker`) that is killed when
the call overruns or the turn is cancelled. A worker is kept for the next call instead of
paying a new interpreter per call: a call then costs a pipe round trip, and only the
first call of a process, or the one after a kill, pays the start-up (tens of ms).

The blocking pipe I/O runs in a daemon thread (`run_in_daemon_thread`), so the pool does
not belong to one event loop: a script that runs each turn in its own loop shares it.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import threading
from collections.abc import Mapping
from typing import IO, Any


class ToolProcessFailed(Exception):
    """The tool failed in its worker, or the worker died under it; `text(tool_name)` is
    what the model reads."""

    def __init__(self, kind: str, message: str, exit_status: object = None) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message
        self.exit_status = exit_status

    def text(self, tool_name: str) -> str:
        if self.kind == "SystemExit":
            return exit_text(tool_name, self.exit_status)
        return f"{self.kind}: {self.message}"


def exit_text(tool_name: str, status: object) -> str:
    """A tool's `sys.exit()` (or its argparse rejecting an argument), as the model reads it:
    ending ctxchat is not a tool's to do."""
    return f"SystemExit: tool '{tool_name}' tried to end the process (exit status {status})"


class _Worker:
    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "ctxchat.core.tool_worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            # Out of the terminal's process group: Ctrl-C is the parent's to handle (it
            # kills the worker), never a traceback from the child.
            start_new_session=True,
        )

    def call(self, request: Mapping[str, Any]) -> dict[str, Any]:
        stdin, stdout = self._pipes()
        try:
            stdin.write(json.dumps(request).encode("ascii") + b"\n")
            stdin.flush()
            line = stdout.readline()
        except (OSError, ValueError):  # killed meanwhile: the pipe is closed
            line = b""
        if not line:
            status = self.process.wait()
            raise ToolProcessFailed(
                "ProcessEnded", f"the tool's worker process ended (exit status {status})"
            )
        reply: dict[str, Any] = json.loads(line)
        return reply

    def _pipes(self) -> tuple[IO[bytes], IO[bytes]]:
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None  # noqa: PT018  (both are PIPE)
        return stdin, stdout

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            self.process.kill()
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            self.process.wait(5)
        for pipe in (self.process.stdin, self.process.stdout):
            with contextlib.suppress(OSError):
                if pipe is not None:
                    pipe.close()

    @property
    def alive(self) -> bool:
        return self.process.poll() is None


class WorkerPool:
    """Idle workers, reused; one per call in flight, so calls from two sessions of one
    process do not wait for each other."""

    def __init__(self) -> None:
        self._idle: list[_Worker] = []
        self._lock = threading.Lock()

    def _take(self) -> _Worker:
        with self._lock:
            while self._idle:
                worker = self._idle.pop()
                if worker.alive:
                    return worker
        return _Worker()

    def _give_back(self, worker: _Worker) -> None:
        with self._lock:
            self._idle.append(worker)

    async def call(self, reference: str, arguments: Mapping[str, Any]) -> str:
        """The text of `reference(**arguments)` run in a worker; `ToolProcessFailed` with
        what the model reads when it raised. Cancelled (a timeout, Ctrl-C), the worker is
        killed, and with it whatever the tool was doing."""
        from ctxchat.core.tools import run_in_daemon_thread

        worker = self._take()
        request = {"ref": reference, "arguments": dict(arguments), "path": list(sys.path)}
        try:
            reply = await run_in_daemon_thread(worker.call, {"request": request})
        except BaseException:
            worker.kill()
            raise
        self._give_back(worker)
        if reply.get("ok"):
            return str(reply.get("text", ""))
        raise ToolProcessFailed(
            str(reply.get("type", "Exception")),
            str(reply.get("message", "")),
            reply.get("exit_status"),
        )

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.kill()


POOL = WorkerPool()
