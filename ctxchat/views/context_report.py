"""What went into a turn, by source id, with token counts: `/context` and the status line.

Counts come from `ctxchat.core.tokens` (exact with tiktoken, an estimate otherwise), so they are
comparable between sources even when the endpoint reports no usage.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ctxchat.core.budget import BudgetReport
from ctxchat.core.context import RunContext
from ctxchat.core.limits import WINDOW_ORIGINS
from ctxchat.core.messages import Message, Usage
from ctxchat.core.text import plural, preview
from ctxchat.core.tokens import (
    count_message_tokens,
    count_messages_tokens,
    count_request_tokens,
    count_text_tokens,
    count_tool_tokens,
)

MESSAGES_SHOWN = 8  # per source; a long history is summarised, not dumped


@dataclass(frozen=True)
class Item:
    label: str
    preview: str
    tokens: int
    text: str = ""  # the whole text, for `/context full`


@dataclass(frozen=True)
class SourceReport:
    source_id: str
    instructions: list[Item] = field(default_factory=list)
    messages: list[Item] = field(default_factory=list)
    tools: list[Item] = field(default_factory=list)

    @property
    def tokens(self) -> int:
        return sum(i.tokens for i in (*self.instructions, *self.messages, *self.tools))

    @property
    def empty(self) -> bool:
        return not (self.instructions or self.messages or self.tools)


@dataclass(frozen=True)
class ContextReport:
    base_instruction_tokens: int
    sources: list[SourceReport]
    input_tokens: int
    context_window: int | None
    # The whole request as the status line counts it (`count_request_tokens`): the parts
    # above plus what joins them (the system message's labels, each message's framing).
    total_tokens: int = 0
    # What the context budget measured and trimmed (`RunContext.budget`), when it ran.
    budget: BudgetReport | None = None

    def gauge(self) -> list[tuple[str, int]]:
        """The window by source, as the budget counted it, then what was left free."""
        if self.budget is None:
            return []
        parts = [(name, tokens) for name, tokens in self.budget.by_source.items() if tokens > 0]
        free = self.budget.window - sum(tokens for _, tokens in parts)
        return [*parts, ("free", max(0, free))]

    @property
    def framing_tokens(self) -> int:
        parts = self.base_instruction_tokens + sum(s.tokens for s in self.sources)
        return max(0, self.total_tokens - parts - self.input_tokens)


def _message_preview(message: Message) -> str:
    if message.text:
        return preview(message.text)
    calls = message.tool_calls
    if calls:
        return preview("calls " + ", ".join(f"{c.name}({c.arguments})" for c in calls))
    results = message.tool_results
    if results:
        return preview("result: " + " ".join(r.content for r in results))
    return ""


def context_report(
    context: RunContext,
    assembled: Sequence[Message],
    *,
    base_instructions: str = "",
    source_ids: Sequence[str] = (),
    context_window: int | None = None,
) -> ContextReport:
    """`assembled` is what the model was shown (`Agent.assemble`); `source_ids` lists the
    pipeline in order, so silent providers show up as silent."""
    order = list(
        dict.fromkeys(
            [*source_ids, *context.instructions, *context.context_messages, *context.tools]
        )
    )
    # The budget's counter when it ran (the model's tokenizer, or the estimate with its
    # margin), so every figure here adds up to the gauge's.
    count = context.budget.count if context.budget is not None else count_text_tokens
    sources = []
    for source_id in order:
        instructions = [
            Item("instructions", preview(text), count(text), text)
            for text in context.instructions.get(source_id, [])
        ]
        messages = [
            Item(m.role, _message_preview(m), count_message_tokens(m, count))
            for m in context.context_messages.get(source_id, [])
        ]
        tools = [
            Item("tool", t.name, count_tool_tokens(t, count))
            for t in context.tools.get(source_id, [])
        ]
        sources.append(SourceReport(source_id, instructions, messages, tools))
    return ContextReport(
        base_instruction_tokens=count(base_instructions.strip()),
        sources=sources,
        input_tokens=count_messages_tokens(context.input_messages, count),
        context_window=context_window,
        total_tokens=(
            context.budget.request_tokens
            if context.budget is not None
            else count_request_tokens(assembled, context.all_tools())
        ),
        budget=context.budget,
    )


def _share(tokens: int, window: int | None) -> str:
    if not window:
        return ""
    return f" ({tokens / window:.1%} of {compact(window)})"


def format_report(report: ContextReport, *, full: bool = False) -> str:
    """The report as lines of text; `full` shows every instruction block whole (what
    memory recalled, the summary) instead of its first line."""
    budget = report.budget
    window = budget.window if budget is not None else report.context_window
    lines = [
        f"context of the last turn: ~{report.total_tokens:,} tokens"
        f"{_share(report.total_tokens, window)}"
    ]
    if budget is not None:
        counted = "the model's tokenizer" if budget.exact else "an estimate with a margin"
        lines.append(
            f"  window {budget.window:,} ({WINDOW_ORIGINS[budget.source]}), "
            f"{budget.reserve:,} kept for the reply; counted by {counted}"
        )
        if budget.trimmed:
            gone = ", ".join(f"{source} {count:,}" for source, count in budget.trimmed.items())
            lines.append(f"  trimmed to fit: {gone} (oldest history first, then ranked items)")
    if report.base_instruction_tokens:
        lines.append(f"  system prompt: {report.base_instruction_tokens:,} tokens")
    if report.framing_tokens:
        lines.append(f"  labels and message framing: {report.framing_tokens:,} tokens")
    for source in report.sources:
        if source.empty:
            lines.append(f"  {source.source_id}: nothing this turn")
            continue
        parts = []
        if source.instructions:
            parts.append(plural(len(source.instructions), "instruction block"))
        if source.messages:
            parts.append(plural(len(source.messages), "message"))
        if source.tools:
            parts.append(plural(len(source.tools), "tool"))
        lines.append(f"  {source.source_id}: {source.tokens:,} tokens: {', '.join(parts)}")
        for item in source.instructions:
            if full:
                lines.append(f"    instructions ({item.tokens:,}):")
                lines.extend(f"      {line}" for line in item.text.splitlines())
            else:
                lines.append(f"    instructions ({item.tokens:,}): {item.preview}")
        hidden = len(source.messages) - MESSAGES_SHOWN
        if hidden > 0:
            lines.append(f"    … {plural(hidden, 'earlier message')}")
        for item in source.messages[-MESSAGES_SHOWN:]:
            lines.append(f"    {item.label} ({item.tokens:,}): {item.preview}")
        if source.tools:
            names = ", ".join(f"{i.preview} ({i.tokens:,})" for i in source.tools)
            lines.append(f"    tools: {names}")
    lines.append(f"  your input: {report.input_tokens:,} tokens")
    return "\n".join(lines)


# -- the status line after each reply ---------------------------------------------------------
@dataclass(frozen=True)
class TurnStats:
    usage: Usage
    context_tokens: int  # the prompt and reply of the last model call: what the window holds
    context_window: int | None
    estimated: bool  # the endpoint reported no usage; counted locally instead
    trimmed: int = 0  # history messages and ranked items left out to fit the window


def compact(n: int) -> str:
    if n >= 1_000_000:
        return f"{n / 1_000_000:.3g}M"
    if n >= 1_000:
        return f"{n / 1_000:.3g}k"
    return str(n)


def turn_stats(
    context: RunContext, assembled: Sequence[Message], context_window: int | None
) -> TurnStats:
    """`assembled` is what the model was shown at the start of the turn (`Agent.assemble`).
    Without usage from the endpoint, the request is counted as /context counts it. The
    window is the one the budget fitted the request to, when it ran."""
    budget = context.budget
    if budget is not None:
        context_window = budget.window
    trimmed = sum(budget.trimmed.values()) if budget is not None else 0
    response = context.response
    produced = list(response.messages) if response else []
    last = next((m.usage for m in reversed(produced) if m.usage is not None), None)
    if response is not None and response.usage is not None and last is not None:
        held = last.input_tokens + last.output_tokens
        return TurnStats(response.usage, held, context_window, False, trimmed)
    # The request as /context counts it: the budget's count when it measured one.
    if budget is not None:
        shown = budget.request_tokens
    else:
        shown = count_request_tokens(assembled, context.all_tools())
    out = count_messages_tokens(m for m in produced if m.role == "assistant")
    held = shown + count_messages_tokens(produced)
    return TurnStats(Usage(shown, out), held, context_window, True, trimmed)


def format_status(stats: TurnStats) -> str:
    mark = "~" if stats.estimated else ""
    text = f"tokens {mark}{stats.usage.input_tokens:,} in · {mark}{stats.usage.output_tokens:,} out"
    if stats.context_window:
        share = stats.context_tokens / stats.context_window
        text += (
            f" · context {mark}{compact(stats.context_tokens)}/{compact(stats.context_window)}"
            f" ({share:.0%})"
        )
    if stats.trimmed:
        text += f" · {stats.trimmed:,} trimmed to fit (/context)"
    return text
