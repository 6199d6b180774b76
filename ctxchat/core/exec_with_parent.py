"""`python -m ctxchat.core.exec_with_parent PROGRAM ARGS...`: become PROGRAM, set to be
SIGKILLed when the process that started it dies.

An MCP server is started by the SDK, which offers no hook to run code in the child before
it execs; this small step in between asks Linux for PR_SET_PDEATHSIG (kept across exec),
so a SIGKILLed ctxchat leaves no server running on. Standard library only: it costs one
interpreter start, once per server.
"""

from __future__ import annotations

import os
import sys

from ctxchat.core.tool_worker import die_with_parent


def dying_with_us(command: str, args: list[str]) -> tuple[str, list[str]]:
    """`command` and `args` run through this module, so that the program dies with this
    process even when that is SIGKILLed (Linux only). A program that cannot be found is
    left as it is, for the caller's spawn to fail on it with its own "no such program"."""
    import shutil

    found = shutil.which(command)
    if found is None or not sys.platform.startswith("linux"):
        return command, args
    return sys.executable, ["-m", __name__, found, *args]


def main() -> None:
    die_with_parent()
    program, *arguments = sys.argv[1:]
    os.execv(program, [program, *arguments])


if __name__ == "__main__":
    main()
