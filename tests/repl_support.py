"""Driving `ctxchat run` in a real pseudo-terminal (pexpect), for the REPL tests."""

from __future__ import annotations

import io
import re

import pexpect
from conftest import ctxchat_executable

from ctxchat.cli.prompt import PROMPT as PROMPT_TEXT

# prompt-toolkit draws the prompt's space as a cursor move, so only the mark is on screen.
PROMPT = PROMPT_TEXT.strip()
# What a terminal would act on rather than show: any escape sequence, and bare controls.
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[ -/]*[0-~]")


class Repls:
    """Spawns REPLs and ends whatever is left of them when the test is over."""

    def __init__(self, env: dict[str, str]) -> None:
        # No cursor-position queries: pexpect is not a terminal that answers them.
        self.env = {**env, "TERM": "xterm-256color", "PROMPT_TOOLKIT_NO_CPR": "1"}
        self.children: list[pexpect.spawn] = []

    def __call__(
        self,
        *args: str,
        wait_for_prompt: bool = True,
        extra_env: dict[str, str] | None = None,
        dimensions: tuple[int, int] = (40, 120),
        command: str = "run",
    ) -> pexpect.spawn:
        child = self.spawn(command, *args, extra_env=extra_env, dimensions=dimensions)
        if command == "run":
            child.expect_exact("Ctrl-D to exit")  # the banner
            if wait_for_prompt:
                child.expect_exact(PROMPT)
        return child

    def spawn(
        self,
        *args: str,
        extra_env: dict[str, str] | None = None,
        dimensions: tuple[int, int] = (40, 120),
    ) -> pexpect.spawn:
        """`ctxchat ARGS` on a terminal, nothing awaited."""
        env = {k: v for k, v in {**self.env, **(extra_env or {})}.items() if v}
        child = pexpect.spawn(
            ctxchat_executable(),
            list(args),
            env=env,
            encoding="utf-8",
            dimensions=dimensions,
            timeout=20,
        )
        child.logfile_read = io.StringIO()  # everything it wrote, for `seen`
        self.children.append(child)
        return child

    def close(self) -> None:
        for child in self.children:
            child.terminate(force=True)


def seen(child: pexpect.spawn) -> str:
    """Everything the child has written so far, whatever was matched on the way."""
    log = child.logfile_read
    assert isinstance(log, io.StringIO)
    return log.getvalue()


def turn(child: pexpect.spawn, text: str) -> None:
    """Type a line, press Enter, wait for the status line that ends a reply."""
    child.send(text + "\r")
    child.expect_exact("tokens ")
    child.expect_exact(PROMPT)


def quit_(child: pexpect.spawn) -> int:
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    return int(child.exitstatus or 0)


def finished(child: pexpect.spawn) -> tuple[int, str]:
    """Read a command to its end: (exit status, everything it wrote)."""
    child.expect(pexpect.EOF)
    output = child.before
    child.close()
    return int(child.exitstatus or 0), output
