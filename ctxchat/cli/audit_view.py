"""`sessions show --audit`: every provider implementing `AuditSource`, turn by turn."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ctxchat.cli.render import image_line, tool_call_line, tool_result_line
from ctxchat.core.audit import AuditRecord, removed_note
from ctxchat.core.sanitize import one_line, terminal_safe
from ctxchat.core.text import plural, preview

if TYPE_CHECKING:
    from rich.console import Console

    from ctxchat.core.messages import Message
    from ctxchat.core.session import Session


def _message_line(message: Message) -> str:
    if message.tool_calls:
        return "; ".join(tool_call_line(c) for c in message.tool_calls)
    if message.tool_results:
        return "; ".join(tool_result_line(r) for r in message.tool_results)
    return f"{message.role}: {preview(message.text, 100)}"


def record_lines(number: int, record: AuditRecord, *, full: bool = False) -> list[tuple[str, str]]:
    """(text, style) lines for one turn; with `full`, instruction blocks and the input
    whole (else a line of each), every context message (else the last six)."""
    when = record.created_at.astimezone().strftime("%Y-%m-%d %H:%M:%S")
    status = "ok" if record.ok else f"FAILED: {record.error or 'unknown error'}"
    lines = [(f"turn {number} · {when} · {status}", "bold" if record.ok else "bold red")]
    lines += [(removed_note(removed), "yellow") for removed in record.removed]
    if record.recovered is not None:
        lines.append((record.recovered, "yellow"))
    if record.instructions:
        lines.append(("instructions", "cyan"))
        for source_id, text in record.instructions.items():
            if full:
                lines.append((f"  [{source_id}]", ""))
                lines += [(f"    {line}", "") for line in text.splitlines()]
            else:
                lines.append((f"  [{source_id}] {preview(text, 100)} (--full: whole)", ""))
    if record.context_messages:
        lines.append(("context messages", "cyan"))
        for source_id, messages in record.context_messages.items():
            lines.append((f"  [{source_id}] {plural(len(messages), 'message')}", ""))
            for message in messages if full else messages[-6:]:
                lines.append((f"    {_message_line(message)}", "dim"))
    if record.tools:
        lines.append(("tools", "cyan"))
        for source_id, names in record.tools.items():
            lines.append((f"  [{source_id}] {', '.join(names) or '(none)'}", ""))
    lines.append(("input", "cyan"))
    for message in record.input_messages:
        lines.append((f"  {message.text if full else preview(message.text, 400)}", ""))
        lines += [(f"  {image_line(image)}", "dim") for image in message.images]
    lines.append(("output" if record.ok else "output (not stored)", "cyan"))
    for message in record.response_messages:
        if message.role == "assistant" and message.text and not message.tool_calls:
            lines.append((f"  {message.text}", ""))
        else:
            lines.append((f"  {_message_line(message)}", "dim"))
    if record.budget is not None and record.budget.get("trimmed"):
        gone = ", ".join(f"{s} {n:,}" for s, n in record.budget["trimmed"].items())
        lines.append((f"trimmed to fit the window: {gone}", "dim"))
    if record.usage is not None:
        usage = record.usage
        lines.append((f"usage: {usage.input_tokens:,} in · {usage.output_tokens:,} out", "dim"))
    elif record.ok:
        lines.append(("usage: unknown (the endpoint reported none)", "dim"))
    return lines


def print_audit(
    console: Console,
    session: Session,
    found: Sequence[tuple[str, Sequence[AuditRecord]]],
    *,
    full: bool = False,
) -> None:
    from rich.text import Text

    console.print(Text(f"{one_line(session.display_title())} ({session.id})", style="bold"))
    for source_id, records in found:
        console.print(Text(f"audit by '{source_id}': {plural(len(records), 'turn')}", style="dim"))
        for number, record in enumerate(records, start=1):
            console.print()
            for text, style in record_lines(number, record, full=full):
                # What the model was shown and said, errors too: anything, escapes included.
                console.print(Text(terminal_safe(text), style=style))
