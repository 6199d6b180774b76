"""Asking the user before a tool with side effects runs.

The engine never draws: when the model calls a tool whose `side_effects` is set, it hands
a `ToolApproval` to the approver the caller passed to `Agent.run` and waits for a
`Decision`. The REPL's approver asks on the terminal (y / n / always); a script's answers
from `--allow-tools` and `--yes-tools`; with no approver at all, such calls are refused.
A refusal is a tool result the model reads, never an error of the turn.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal, TypeAlias

from ctxchat.core.messages import ToolCallPart
from ctxchat.core.tools import Tool

# "always": yes, and for the rest of this session (kept by the tools provider).
Decision: TypeAlias = Literal["yes", "no", "always"]


@dataclass(frozen=True)
class ToolApproval:
    """A call to a tool with side effects, waiting for the user's word."""

    tool: Tool
    call: ToolCallPart
    source_id: str | None  # the provider that advertised it, when one did


Approver: TypeAlias = Callable[[ToolApproval], Awaitable[Decision]]


async def refuse_unasked(_request: ToolApproval) -> Decision:
    """The approver when nobody can be asked (a bare `Agent.run`): refuse."""
    return "no"


def refusal_text(name: str) -> str:
    """What the model reads for a refused call."""
    return (
        f"refused: the user did not allow '{name}' to run (it has side effects); "
        "do not call it again unless the user asks"
    )
