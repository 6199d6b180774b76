"""The audit trail of a session written out for `sessions export --audit`: Markdown for
people, sanitised as every view of model and server text is (`ctxchat.core.sanitize`); JSON
and JSONL for programs, the raw text with anything invisible escaped."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ctxchat.core.audit import AuditRecord, AuditTrail, removed_note
from ctxchat.core.sanitize import json_text, terminal_safe
from ctxchat.core.text import plural
from ctxchat.views.export import ExportFormat, fence, labelled_markdown, message_markdown

if TYPE_CHECKING:
    from ctxchat.core.session import Session


def audit_text(session: Session, trail: AuditTrail, fmt: ExportFormat) -> str:
    if fmt == "json":
        document = {
            "session": session.id,
            "title": session.title,
            "audit": {source: [r.to_dict() for r in records] for source, records in trail},
        }
        return json_text(document, indent=2) + "\n"
    if fmt == "jsonl":
        return "".join(
            json_text({"source": source, **r.to_dict()}) + "\n"
            for source, records in trail
            for r in records
        )
    return audit_markdown(session, trail)


def audit_markdown(session: Session, trail: AuditTrail) -> str:
    lines = [f"# Audit: {session.display_title()}", "", f"Session `{session.id}`"]
    for source, records in trail:
        lines += ["", f"Recorded by `{source}`: {plural(len(records), 'turn')}"]
        for number, record in enumerate(records, start=1):
            lines += ["", *_record_markdown(number, record)]
    return terminal_safe("\n".join(lines) + "\n")


def _record_markdown(number: int, record: AuditRecord) -> list[str]:
    when = record.created_at.astimezone().strftime("%Y-%m-%d %H:%M:%S")
    status = "ok" if record.ok else f"FAILED: {record.error or 'unknown error'}"
    lines = [f"## Turn {number} · {when} · {status}"]
    lines += [line for removed in record.removed for line in ("", removed_note(removed))]
    for source, text in record.instructions.items():
        lines += ["", f"### Instructions from `{source}`", "", fence(text)]
    # Context and output mix roles (a history's user and assistant turns, tool calls and
    # their results): each message is labelled as the conversation export labels it.
    for source, messages in record.context_messages.items():
        lines += ["", f"### Context from `{source}` ({plural(len(messages), 'message')})"]
        lines += labelled_markdown(messages, 4)
    for source, names in record.tools.items():
        lines += ["", f"### Tools from `{source}`", "", ", ".join(f"`{n}`" for n in names)]
    lines += ["", "### Input"]
    lines += [block for m in record.input_messages for block in ("", message_markdown(m))]
    lines += ["", "### Output" if record.ok else "### Output (not stored)"]
    lines += labelled_markdown(record.response_messages, 4)
    budget = record.budget
    if budget is not None:
        trimmed = budget.get("trimmed") or {}
        gone = ", ".join(f"{source} {count:,}" for source, count in trimmed.items())
        lines += [
            "",
            f"Context: {budget.get('request_tokens', 0):,} of {budget.get('window', 0):,} "
            f"tokens ({budget.get('window_source')})"
            + (f"; trimmed to fit: {gone}" if gone else ""),
        ]
    if record.usage is not None:
        usage = f"{record.usage.input_tokens:,} in · {record.usage.output_tokens:,} out"
    else:
        usage = "unknown (the endpoint reported none)"
    lines += ["", f"Usage: {usage}"]
    return lines
