"""Answering for tools with side effects: from the flags in a script, by asking in the REPL.

`--allow-tools NAME,...` lets the named tools run without asking, `--yes-tools` every
tool; both hold in the REPL and in scripts. Anything else is asked about in the REPL
(y / n / always) and refused in a script, with a warning saying which flag would allow
it. The engine turns a refusal into a result the model reads.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ctxchat.cli.render import short_arguments
from ctxchat.core.errors import UsageError
from ctxchat.core.sanitize import terminal_safe
from ctxchat.core.tools import TOOL_NAME_PATTERN

if TYPE_CHECKING:
    from rich.console import Console

    from ctxchat.cli.reply_view import ReplyView
    from ctxchat.core.approval import Approver, Decision, ToolApproval

ANSWERS: dict[str, Decision] = {"y": "yes", "n": "no", "a": "always"}


@dataclass(frozen=True)
class ToolPolicy:
    """What the command line allowed before anyone is asked."""

    allowed: frozenset[str] = frozenset()
    everything: bool = False

    @classmethod
    def from_flags(cls, allow_tools: str | None, yes_tools: bool) -> ToolPolicy:
        names = [n.strip() for n in (allow_tools or "").split(",") if n.strip()]
        for name in names:
            if not TOOL_NAME_PATTERN.match(name):
                raise UsageError(f"--allow-tools: {name!r} is not a tool name")
        return cls(frozenset(names), yes_tools)

    def allows(self, name: str) -> bool:
        return self.everything or name in self.allowed


def script_approver(policy: ToolPolicy, warn: Callable[[str], None]) -> Approver:
    """Yes for what the flags allow; otherwise no, and a warning naming the flag."""

    async def approve(request: ToolApproval) -> Decision:
        name = request.tool.name
        if policy.allows(name):
            return "yes"
        warn(
            f"tool '{name}' has side effects and was refused: pass --allow-tools {name} "
            "(or --yes-tools) to let it run"
        )
        return "no"

    return approve


class ReplApprover:
    """Asks on the terminal before a tool with side effects runs: one key, y / n / a.

    Keys typed before the question was shown (while a reply streamed) are dropped, so
    nothing typed ahead can answer it; Enter, Esc and Ctrl-D answer no. Ctrl-C cancels
    the turn, as it does anywhere in a reply: the REPL has made the turn's task the one
    Ctrl-C cancels, and waiting for the key is part of it."""

    def __init__(self, console: Console, view: ReplyView, policy: ToolPolicy) -> None:
        self.console = console
        self.view = view
        self.policy = policy

    async def __call__(self, request: ToolApproval) -> Decision:
        from rich.text import Text

        name = request.tool.name
        if self.policy.allows(name):
            return "yes"
        self.view.pause()
        what = f"{name}({short_arguments(request.call.arguments, 200)})"
        self.console.print(
            Text(terminal_safe(f"'{name}' has side effects: {what}"), style="yellow")
        )
        self.console.print(
            Text("run it? [y]es / [n]o / [a]lways in this session: ", style="bold"), end=""
        )
        decision = await read_answer()
        self.console.print(Text(decision))
        return decision


async def read_answer() -> Decision:
    """One of y / n / a from the terminal, read a key at a time (the REPL keeps the
    terminal in its quiet mode between prompts, so a key arrives as it is pressed)."""
    import os
    import termios

    fd = sys.stdin.fileno()
    with contextlib.suppress(termios.error):
        termios.tcflush(fd, termios.TCIFLUSH)  # what was typed before the question
    loop = asyncio.get_running_loop()
    keys: asyncio.Queue[bytes] = asyncio.Queue()
    loop.add_reader(fd, lambda: keys.put_nowait(os.read(fd, 1)))
    try:
        while True:
            key = (await keys.get()).decode("latin-1").lower()
            if key in ANSWERS:
                return ANSWERS[key]
            if key in ("", "\r", "\n", "\x1b", "\x04"):  # Enter, Esc, Ctrl-D, end of input
                return "no"
    finally:
        loop.remove_reader(fd)
