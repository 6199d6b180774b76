"""The plain data every format reader returns, and the error of a file that cannot be read.

A conversation is what becomes one ctxchat session: where it came from (`source`, the
format, and `key`, the conversation's own id there: importing twice finds it by these), a
title and dates when the source has them, and its messages in order. A message is a user's
or an assistant's text, an assistant's tool calls, or one tool result.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from ctxchat.core.errors import UsageError
from ctxchat.core.jsonl import json_objects, unreadable

ImportedRole = Literal["user", "assistant", "tool"]


class ImportDataError(UsageError):
    """A file that is not what its format says: names the file (and line) and why."""


@dataclass(frozen=True)
class ImportedCall:
    id: str
    name: str
    arguments: str  # JSON text


@dataclass(frozen=True)
class ImportedMessage:
    role: ImportedRole
    text: str
    at: datetime | None = None
    calls: tuple[ImportedCall, ...] = ()
    call_id: str | None = None  # a tool result's call


@dataclass(frozen=True)
class ImportedConversation:
    source: str
    key: str
    title: str | None
    created_at: datetime | None
    messages: tuple[ImportedMessage, ...]
    model: str | None = None
    updated_at: datetime | None = None


def parse_time(value: Any) -> datetime | None:
    """A time as the formats write it: seconds since the epoch, or ISO 8601 (a trailing Z
    included); None for anything else. A time without a zone is taken as UTC."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        try:
            return datetime.fromtimestamp(float(value), UTC)
        except (OverflowError, OSError, ValueError):
            return None
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip()
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def read_json(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ImportDataError(f"{path}: cannot be read: {unreadable(exc)}") from None
    try:
        return json.loads(text)
    except ValueError as exc:
        raise ImportDataError(f"{path}: not JSON: {exc}") from None


def json_lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """The JSON objects of a JSONL file with their line numbers; blank lines skipped."""
    return json_objects(path, ImportDataError)


def files_in(path: Path, pattern: str) -> list[Path]:
    """`path` itself when it is a file, else the files under it matching `pattern`, in
    order; a path that is neither is an error."""
    if path.is_file():
        return [path]
    if path.is_dir():
        found = sorted(p for p in path.rglob(pattern) if p.is_file())
        if not found:
            raise ImportDataError(f"{path}: no {pattern} files in this directory")
        return found
    raise ImportDataError(f"{path}: no such file or directory")


def text_of(content: Any) -> str:
    """The text of a content value: a string, or a list of parts whose `text` fields (or
    string items) are joined by blank lines."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        pieces = []
        for part in content:
            if isinstance(part, str):
                pieces.append(part)
            elif isinstance(part, dict) and isinstance(part.get("text"), str):
                pieces.append(part["text"])
        return "\n\n".join(p for p in pieces if p)
    return ""


def arguments_text(value: Any) -> str:
    """Tool call arguments as JSON text, whether the source kept a string or an object."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
