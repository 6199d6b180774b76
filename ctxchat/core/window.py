"""The context window over a history: the newest messages that fit, in whole units.

A unit is a message, or an assistant message with tool calls together with the tool results
that answer it. A window never splits a unit and never starts on an orphan tool result.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from ctxchat.core.messages import Message
from ctxchat.core.options import option
from ctxchat.core.provider import HistoryOptions

T = TypeVar("T")
DEFAULT_WINDOW_TOKENS = 64_000


def units(items: Sequence[T], message_of: Callable[[T], Message]) -> list[list[T]]:
    """`items` cut into units, oldest first (see the module's docstring)."""
    units: list[list[T]] = []
    open_calls: set[str] = set()
    for item in items:
        message = message_of(item)
        if message.role == "tool":
            answers = {r.call_id for r in message.tool_results}
            if units and answers and answers <= open_calls:
                units[-1].append(item)
                open_calls -= answers
                continue
            units.append([item])  # an orphan: kept as a unit of its own, dropped at a start
            continue
        units.append([item])
        open_calls = {c.id for c in message.tool_calls} if message.role == "assistant" else set()
    return units


def _is_orphan(unit: Sequence[T], message_of: Callable[[T], Message]) -> bool:
    return message_of(unit[0]).role == "tool"


def select_window(
    items: Sequence[T],
    *,
    message_of: Callable[[T], Message],
    tokens_of: Callable[[T], int],
    max_messages: int | None = None,
    max_tokens: int | None = None,
) -> list[T]:
    """The newest whole units within both limits, oldest first."""
    chosen: list[list[T]] = []
    count = tokens = 0
    for unit in reversed(units(items, message_of)):
        unit_tokens = sum(tokens_of(i) for i in unit) if max_tokens is not None else 0
        if max_messages is not None and count + len(unit) > max_messages:
            break
        if max_tokens is not None and tokens + unit_tokens > max_tokens:
            break
        chosen.append(unit)
        count += len(unit)
        tokens += unit_tokens
    while chosen and _is_orphan(chosen[-1], message_of):
        chosen.pop()
    return [item for unit in reversed(chosen) for item in unit]


def window_messages(
    messages: Sequence[Message],
    *,
    tokens_of: Callable[[Message], int],
    max_messages: int | None = None,
    max_tokens: int | None = None,
) -> list[Message]:
    return select_window(
        messages,
        message_of=lambda m: m,
        tokens_of=tokens_of,
        max_messages=max_messages,
        max_tokens=max_tokens,
    )


@dataclass(frozen=True)
class WindowedHistoryOptions(HistoryOptions):
    max_messages: int = option(100, help="most messages loaded into the context (0 = no limit)")
    # Bounded by default: a window that counts only messages sends a huge reply (or a
    # pasted document) again with every later turn, however large it is.
    max_tokens: int | None = option(
        DEFAULT_WINDOW_TOKENS, help="most tokens of history loaded into the context (0 = no limit)"
    )

    def __post_init__(self) -> None:
        if self.max_messages < 0:
            raise ValueError("max_messages must be 0 (no limit) or more")
        if self.max_tokens is not None and self.max_tokens < 0:
            raise ValueError("max_tokens must be 0 (no limit) or more")

    @property
    def message_limit(self) -> int | None:
        return self.max_messages or None

    @property
    def token_limit(self) -> int | None:
        return self.max_tokens or None
