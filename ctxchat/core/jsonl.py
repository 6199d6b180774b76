"""A JSON Lines file read as its objects, each with its line number. What is wrong with the
file is one line naming it (and the line), raised as the caller's own error type, so each
command keeps its exit code."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any


def json_objects(
    path: Path, error: Callable[[str], Exception]
) -> Iterator[tuple[int, dict[str, Any]]]:
    """The JSON objects of `path` with their line numbers; blank lines skipped."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"{path}: cannot be read: {unreadable(exc)}") from None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError as exc:
            raise error(f"{path}:{number}: not JSON: {exc}") from None
        if not isinstance(record, dict):
            raise error(f"{path}:{number}: not a JSON object")
        yield number, record


def unreadable(exc: Exception) -> str:
    """Why a file could not be read, without the errno and path an OSError repeats."""
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return str(exc)
