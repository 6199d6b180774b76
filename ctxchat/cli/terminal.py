"""The terminal around the REPL and scripts: Ctrl-C as task cancellation, quiet keys."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Coroutine, Iterator
from typing import Any, TypeVar

T = TypeVar("T")


class _CtrlC:
    """Where Ctrl-C goes while the REPL runs: the task running a reply or command, or
    nowhere. Without this, a Ctrl-C landing between two prompts (while the status line is
    printed, say) would reach Python's default handler and end the whole chat."""

    guarded = False
    task: asyncio.Task[Any] | None = None

    @classmethod
    def interrupt(cls) -> None:
        if cls.task is not None:
            cls.task.cancel()

    @classmethod
    def arm(cls) -> None:
        asyncio.get_running_loop().add_signal_handler(signal.SIGINT, cls.interrupt)


@contextlib.contextmanager
def ctrl_c_guard() -> Iterator[None]:
    """For the REPL's lifetime: Ctrl-C cancels what `cancellable` runs, else is ignored.

    prompt-toolkit installs its own SIGINT handler while it reads a line and removes it
    after, so `rearm_ctrl_c` must follow every prompt."""
    _CtrlC.guarded = True
    _CtrlC.arm()
    try:
        yield
    finally:
        _CtrlC.guarded = False
        asyncio.get_running_loop().remove_signal_handler(signal.SIGINT)


def rearm_ctrl_c() -> None:
    if _CtrlC.guarded:
        _CtrlC.arm()


@contextlib.contextmanager
def _sigint_cancels(task: asyncio.Task[Any]) -> Iterator[None]:
    if _CtrlC.guarded:
        outer, _CtrlC.task = _CtrlC.task, task
        _CtrlC.arm()  # a prompt in between may have taken the handler away
        try:
            yield
        finally:
            _CtrlC.task = outer
        return
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGINT, task.cancel)
    try:
        yield
    finally:
        loop.remove_signal_handler(signal.SIGINT)


@contextlib.contextmanager
def quiet_terminal() -> Iterator[bytes]:
    """For the REPL's lifetime: between prompts (a reply streaming, a command running) keys
    are neither echoed (^C would land in the middle of the output) nor line-edited: they
    wait, byte for byte, for the next prompt, so Enter stays Enter and Ctrl-D stays Ctrl-D
    instead of the terminal turning them into a newline and an end-of-file. prompt-toolkit
    sets its own mode while it reads and puts this one back after.

    Yields the keys typed before this mode was set (while ctxchat was starting): the
    terminal has already turned each Enter among them into a newline, which the prompt
    would insert into the draft, so they are handed over with newlines back as Enter."""
    import sys
    import termios

    try:
        fd = sys.stdin.fileno()
        saved = termios.tcgetattr(fd)
    except (OSError, ValueError, termios.error):
        yield b""
        return
    quiet = list(saved)
    quiet[0] &= ~termios.ICRNL
    quiet[3] &= ~(termios.ECHO | termios.ECHOCTL | termios.ICANON)  # ISIG stays: Ctrl-C
    quiet[6] = list(saved[6])
    quiet[6][termios.VMIN] = 1
    quiet[6][termios.VTIME] = 0
    termios.tcsetattr(fd, termios.TCSANOW, quiet)
    try:
        typed = _pending_input(fd) if saved[0] & termios.ICRNL else b""
        yield typed.replace(b"\n", b"\r")
    finally:
        termios.tcsetattr(fd, termios.TCSANOW, saved)


def _pending_input(fd: int) -> bytes:
    """What is waiting to be read on `fd` now, without waiting for more."""
    import os
    import select

    chunks: list[bytes] = []
    while select.select([fd], [], [], 0)[0]:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


async def cancellable(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run `coroutine` as a task that Ctrl-C cancels (raising CancelledError here)."""
    task = asyncio.ensure_future(coroutine)
    with _sigint_cancels(task):
        return await task
