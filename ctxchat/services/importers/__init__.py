"""Readers of other tools' conversation logs, for `ctxchat import FORMAT PATH`.

Each format has its own small module with one `read(path)` returning plain data
(`ImportedConversation`s); nothing here stores, masks or prints. Where each shape was
checked is said in each module's docstring.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

from ctxchat.core.errors import UsageError

from .model import ImportDataError, ImportedCall, ImportedConversation, ImportedMessage

Reader = Callable[[Path], list[ImportedConversation]]

# Format name -> module of this package. The names are what the user types.
FORMATS: dict[str, str] = {
    "llm": "llm_logs",
    "chatgpt": "chatgpt",
    "claude-code": "claude_code",
    "codex": "codex",
    "gptme": "gptme",
    "jsonl": "openai_jsonl",
}

__all__ = [
    "FORMATS",
    "ImportDataError",
    "ImportedCall",
    "ImportedConversation",
    "ImportedMessage",
    "reader",
]


def reader(name: str) -> Reader:
    """The reader of the format `name`; an unknown one is a usage error naming the known."""
    module = FORMATS.get(name)
    if module is None:
        from ctxchat.core.options import did_you_mean

        raise UsageError(
            f"unknown import format '{name}'{did_you_mean(name, list(FORMATS))}; "
            f"known formats: {', '.join(FORMATS)}"
        )
    found: Reader = importlib.import_module(f"{__name__}.{module}").read
    return found
