"""The context budget: every request fits the model's context window, trimmed in a known
order when it would not, never silently.

Before each model call the engine counts the request it is about to send (the system
message with every provider's instructions, history, context messages, the input, the tool
specs, and what the turn has produced so far) against the window minus a reserve for the
reply. When it does not fit, in this order:

1. the oldest history goes first, a whole turn at a time (a question with its answer and
   any tool calls with their results, never one without the other), down to none;
2. then each provider that ranks what it added and said how to shrink it
   (`RunContext.on_over_budget`: memory facts, advertised tools) gives up its lowest-ranked
   items, lowest priority first;
3. never the new input, the system prompt, or what the model produced this turn.

If that is not enough (the input alone is too large) the turn fails before any model call
with `InputTooLarge`, which says how large the request is and how large it may be.

The counts are estimates unless the model offers its tokenizer (see `ContextLimits`); an
estimate is taken with a safety margin, so a request the estimate fits also fits the model.
What was trimmed is kept in `context.budget` for /context, the status line and the audit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ctxchat.core.errors import UsageError
from ctxchat.core.limits import WINDOW_ORIGINS, ContextLimits, WindowSource
from ctxchat.core.messages import Message
from ctxchat.core.tokens import count_message_tokens, count_text_tokens, count_tool_tokens
from ctxchat.core.window import units

if TYPE_CHECKING:
    from ctxchat.core.context import RunContext


class InputTooLarge(UsageError):
    """The request does not fit even with every trimmable part trimmed: the input (or the
    system prompt) is too large for the model's window."""


# A provider's way to give up room: asked for `tokens`, it removes its lowest-ranked items
# from the run context and returns whether it could remove anything.
Shrink = Callable[[int], bool]


@dataclass
class BudgetReport:
    """What the budget did to one turn's request."""

    window: int
    source: WindowSource
    reserve: int
    exact: bool  # counted with the model's tokenizer
    request_tokens: int = 0
    by_source: dict[str, int] = field(default_factory=dict)
    trimmed: dict[str, int] = field(default_factory=dict)  # source -> items removed
    # How it counted (for /context to count the same way); not part of the record.
    count: Callable[[str], int] = field(default=count_text_tokens, repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "window": self.window,
            "window_source": self.source,
            "reserve": self.reserve,
            "exact": self.exact,
            "request_tokens": self.request_tokens,
            "by_source": dict(self.by_source),
            "trimmed": dict(self.trimmed),
        }


def measure(
    limits: ContextLimits,
    assembled: Sequence[Message],
    tools: Sequence[Any],
    produced: Sequence[Message] = (),
) -> int:
    count = limits.count_text
    messages = sum(count_message_tokens(m, count) for m in (*assembled, *produced))
    return messages + sum(count_tool_tokens(t, count) for t in tools)


def fit(
    context: RunContext,
    limits: ContextLimits,
    assemble: Callable[[RunContext], list[Message]],
    produced: Sequence[Message] = (),
) -> list[Message]:
    """The request for the next model call, trimmed to fit; records what it did in
    `context.budget`. Raises `InputTooLarge` when nothing more can go."""
    report = context.budget or BudgetReport(
        limits.window,
        limits.source,
        limits.reply_room,
        limits.counter is not None,
        count=limits.count_text,
    )
    context.budget = report
    assembled = assemble(context)
    used = measure(limits, assembled, context.all_tools(), produced)
    if used > limits.room:
        used, assembled = _trim_history(context, limits, assemble, produced, used, report)
    for source_id, shrink in context.shrinkers():
        if used <= limits.room:
            break
        while used > limits.room and shrink(used - limits.room):
            report.trimmed[source_id] = report.trimmed.get(source_id, 0) + 1
            assembled = assemble(context)
            used = measure(limits, assembled, context.all_tools(), produced)
    if used > limits.room:
        raise InputTooLarge(
            f"the request is {used:,} tokens with everything else trimmed, over the "
            f"{limits.room:,} the model takes ({limits.window:,} window: "
            f"{WINDOW_ORIGINS[limits.source]}, "
            f"less {limits.reply_room:,} for the reply); shorten the message or raise "
            "[model] context_window if the model takes more"
        )
    report.request_tokens = used
    report.by_source = _by_source(context, limits, assembled)
    return assembled


def _trim_history(
    context: RunContext,
    limits: ContextLimits,
    assemble: Callable[[RunContext], list[Message]],
    produced: Sequence[Message],
    used: int,
    report: BudgetReport,
) -> tuple[int, list[Message]]:
    """Drop the oldest history units until the request fits or no history is left."""
    for source_id, messages in context.context_messages.items():
        history = [m for m in messages if m.kind == "history"]
        if not history:
            continue
        kept = list(messages)
        for unit in turns(history):
            if used <= limits.room:
                break
            gone = {id(m) for m in unit}
            kept = [m for m in kept if id(m) not in gone]
            context.context_messages[source_id] = kept
            report.trimmed[source_id] = report.trimmed.get(source_id, 0) + len(unit)
            used -= sum(count_message_tokens(m, limits.count_text) for m in unit)
        # Counted again whole: the system message and its framing depend on what is left.
        assembled = assemble(context)
        used = measure(limits, assembled, context.all_tools(), produced)
    return used, assemble(context)


def turns(history: Sequence[Message]) -> list[list[Message]]:
    """The history in turns, oldest first: each from a user message to the next. What comes
    before the first user message is a turn of its own; a turn that would start on a tool
    result (a window cut into one) is joined to the turn before, so results never stand
    without their call."""
    grouped: list[list[Message]] = []
    for unit in units(history, lambda m: m):
        if not grouped or unit[0].role == "user":
            grouped.append(list(unit))
        else:
            grouped[-1].extend(unit)
    return grouped


def _by_source(
    context: RunContext, limits: ContextLimits, assembled: Sequence[Message]
) -> dict[str, int]:
    """Tokens by where they came from: the system prompt and each provider's instructions,
    messages and tools, and the input."""
    count = limits.count_text
    totals: dict[str, int] = {}
    system = next((m for m in assembled if m.role == "system"), None)
    if system is not None:
        totals["system"] = count_message_tokens(system, count)
        for source_id, text in context.instruction_blocks():
            share = count(text)
            totals[source_id] = totals.get(source_id, 0) + share
            totals["system"] -= share
    for source_id, messages in context.context_messages.items():
        totals[source_id] = totals.get(source_id, 0) + sum(
            count_message_tokens(m, count) for m in messages
        )
    for source_id, tools in context.tools.items():
        totals[source_id] = totals.get(source_id, 0) + sum(
            count_tool_tokens(t, count) for t in tools
        )
    totals["input"] = sum(count_message_tokens(m, count) for m in context.input_messages)
    return totals
