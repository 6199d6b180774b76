"""A session written out as Markdown (for people), JSON (the whole document) or JSONL
(OpenAI chat messages, one a line).

Markdown is read on a terminal as often as in an editor (`sessions export S | less`,
`cat notes.md`), so it is sanitised like every view of model text
(`ctxchat.core.sanitize`). JSON keeps the exact text, with anything a terminal could act on
written as an escape."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from ctxchat.core.errors import UsageError
from ctxchat.core.messages import Message
from ctxchat.core.sanitize import json_text, terminal_safe
from ctxchat.core.session import Session
from ctxchat.core.text import local_time
from ctxchat.storage.fsutil import atomic_write_text

ExportFormat = Literal["md", "json", "jsonl"]
FORMATS: tuple[ExportFormat, ...] = ("md", "json", "jsonl")
ROLE_HEADINGS = {"user": "You", "assistant": "Assistant", "system": "System", "tool": "Tool"}
SUFFIX_FORMATS: dict[str, ExportFormat] = {
    ".md": "md",
    ".markdown": "md",
    ".json": "json",
    ".jsonl": "jsonl",
}


def export_format(name: str) -> ExportFormat:
    lowered = name.lower().lstrip(".")
    if lowered == "markdown":
        lowered = "md"
    if lowered not in FORMATS:
        raise UsageError(f"unknown export format '{name}': choose one of {', '.join(FORMATS)}")
    return lowered


def format_for_path(path: Path) -> ExportFormat:
    """The format a file name asks for by its extension; Markdown when it has none. An
    extension that names no format is refused: `notes.txt` written as Markdown would
    surprise whoever opens it."""
    suffix = path.suffix.lower()
    if not suffix:
        return "md"
    found = SUFFIX_FORMATS.get(suffix)
    if found is None:
        known = ", ".join(SUFFIX_FORMATS)
        raise UsageError(
            f"cannot tell the export format from '{path.name}' (known extensions: {known}); "
            "name the format (--format md|json|jsonl)"
        )
    return found


def choose_export_format(named: str | None, path: Path | None) -> ExportFormat:
    """The format named, else the one the output file's extension asks for, else Markdown."""
    if named is not None:
        return export_format(named)
    return format_for_path(path) if path is not None else "md"


def export_text(session: Session, messages: Sequence[Message], fmt: ExportFormat) -> str:
    if fmt == "md":
        return to_markdown(session, messages)
    if fmt == "json":
        return to_json(session, messages)
    return to_jsonl(messages)


def to_json(session: Session, messages: Sequence[Message]) -> str:
    """The session document plus `messages`, the conversation as the loading history holds
    it: a history kept in SQL is not in the document's state, and must not go missing."""
    document = session.to_dict()
    document["messages"] = [m.to_dict() for m in messages]
    return json_text(document, indent=2) + "\n"


def to_jsonl(messages: Sequence[Message]) -> str:
    from ctxchat.core.openai_format import to_openai_messages

    lines = [json_text(m) for m in to_openai_messages(messages)]
    return "".join(line + "\n" for line in lines)


def fence(text: str, info: str = "") -> str:
    """A code fence longer than any run of backticks inside `text`."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    marks = "`" * max(3, longest + 1)
    return f"{marks}{info}\n{text}\n{marks}"


def _pretty_arguments(arguments: str) -> str:
    try:
        return json.dumps(json.loads(arguments), ensure_ascii=False, indent=2)
    except (json.JSONDecodeError, ValueError):
        return arguments


def message_markdown(message: Message) -> str:
    blocks: list[str] = []
    if message.text:
        blocks.append(message.text.strip())
    for image in message.images:  # its bytes are in the JSON exports, not in Markdown
        blocks.append(
            f"**Attached image** `{image.name}` ({image.media_type}, {image.width}x{image.height})"
        )
    for call in message.tool_calls:
        blocks.append(
            f"**Tool call** `{call.name}`\n\n{fence(_pretty_arguments(call.arguments), 'json')}"
        )
    for result in message.tool_results:
        label = "Tool error" if result.is_error else "Tool result"
        blocks.append(f"**{label}**\n\n{fence(result.content)}")
    return "\n\n".join(blocks)


def role_heading(message: Message) -> str:
    return ROLE_HEADINGS.get(message.role, message.role)


def labelled_markdown(messages: Sequence[Message], level: int) -> list[str]:
    """Each message under a heading naming its role, as Markdown lines; empty ones skipped."""
    lines: list[str] = []
    for message in messages:
        body = message_markdown(message)
        if body:
            lines += ["", f"{'#' * level} {role_heading(message)}", "", body]
    return lines


def to_markdown(session: Session, messages: Sequence[Message]) -> str:
    lines = [
        f"# {session.display_title()}",
        "",
        f"- id: `{session.id}`",
        f"- model: {session.model or 'unknown'}",
        f"- created: {local_time(session.created_at)}",
        f"- last used: {local_time(session.updated_at)}",
        f"- turns: {session.turns}",
    ]
    lines += labelled_markdown(messages, 2)
    lines += _alternatives_markdown(session)
    return terminal_safe("\n".join(lines) + "\n")


def _alternatives_markdown(session: Session) -> list[str]:
    """The replies `/retry --model` set aside, each under the turn it answered."""
    from ctxchat.core.alternatives import alternatives

    kept = alternatives(session)
    if not kept:
        return []
    lines = ["", "## Alternative replies (set aside by /retry --model, never sent again)"]
    for alternative in kept:
        lines += ["", f"### Turn {alternative.turn}, by {alternative.model}", ""]
        lines.append(alternative.text.strip() or "(no text)")
    return lines


def default_export_name(session: Session, fmt: ExportFormat) -> str:
    return f"ctxchat-{session.id}.{fmt}"


def write_export(path: Path, text: str) -> None:
    """Write whole or not at all, owner-only: a conversation is private by default."""
    path = path.expanduser()
    parent = path.parent
    if path.is_dir():
        raise UsageError(f"cannot write the export to {path}: it is a directory")
    if not parent.is_dir():
        raise UsageError(f"cannot write the export to {path}: directory {parent} does not exist")
    try:
        atomic_write_text(path, text)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise UsageError(f"cannot write the export to {path}: {reason}") from exc
