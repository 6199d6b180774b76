"""What `ctxchat import` asks of the providers: a screen for secrets, a history that can
store a whole conversation at once, and a memory that can learn from imported words.

The engine never imports a built-in provider (`tests/test_layers.py`): whichever provider
offers one of these capabilities is found by it, as `MemorySource` or `AuditSource` are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class SecretScreen(Protocol):
    """Masks what looks like a secret in a text: `(masked text, how many were masked)`.
    A class may offer it (a static method): the screen needs no open store."""

    def mask_secrets(self, text: str) -> tuple[str, int]: ...


@dataclass(frozen=True)
class ImportedTurn:
    """One turn to store: its messages, and when it was said."""

    at: datetime
    messages: Sequence[Any]  # core.messages.Message


@runtime_checkable
class ConversationImporter(Protocol):
    """A history kept outside the session file that stores a whole imported conversation
    in one transaction: all its turns or none."""

    async def import_conversation(
        self, session_id: str, turns: Sequence[ImportedTurn], *, state: dict[str, Any]
    ) -> None: ...


@dataclass(frozen=True)
class LearnItem:
    """A message of the user's own, with where it is kept (the fact's provenance)."""

    session_id: str
    message_id: str
    text: str


@runtime_checkable
class ImportLearner(Protocol):
    """A memory that learns from imported messages: first what it would keep (nothing
    stored), then, once the user agrees, keeping it."""

    async def preview_learning(self, items: Sequence[LearnItem]) -> list[str]: ...

    async def learn_from(self, items: Sequence[LearnItem]) -> list[str]: ...
