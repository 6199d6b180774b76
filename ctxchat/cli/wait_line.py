"""A script's waiting line: "waiting for the model… 15 s" on stderr while the server has
not answered, so a slow or hung endpoint does not look like a frozen command.

Only where a person watches it: stderr a terminal (a pipe or a log would keep every
redraw). It appears once a few seconds have passed (a quick reply never flickers one),
is redrawn in place each second, and is erased with the first thing that comes back.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time

# Seconds of silence before the line appears (as the REPL's spinner shows its seconds).
SHOW_AFTER = 2


class WaitLine:
    def __init__(self, *, enabled: bool) -> None:
        self.enabled = enabled
        self.shown = False
        self._task: asyncio.Task[None] | None = None

    def start(self, label: str) -> None:
        """Begin counting the wait for `label` ("waiting for fake-model…")."""
        if not self.enabled or self._task is not None:
            return
        self._task = asyncio.get_running_loop().create_task(self._tick(label))

    def stop(self) -> None:
        """Something came back (or the turn ended): the line goes."""
        if self._task is not None:
            self._task.cancel()
            self._task = None
        if self.shown:
            self._write("\r\x1b[2K")
            self.shown = False

    async def _tick(self, label: str) -> None:
        started = time.monotonic()
        while True:
            await asyncio.sleep(1)
            seconds = int(time.monotonic() - started)
            if seconds >= SHOW_AFTER:
                self._write(f"\r\x1b[2K{label} {seconds} s")
                self.shown = True

    @staticmethod
    def _write(text: str) -> None:
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.write(text)
            sys.stderr.flush()
