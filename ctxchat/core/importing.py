"""What `ctxchat import` hands the providers: the turns of an imported conversation and
the user's own messages to learn from. The capabilities that take them (`SecretScreen`,
`ConversationImporter`, `ImportLearner`) are in `ctxchat.core.capabilities`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class ImportedTurn:
    """One turn to store: its messages, and when it was said."""

    at: datetime
    messages: Sequence[Any]  # core.messages.Message


@dataclass(frozen=True)
class LearnItem:
    """A message of the user's own, with where it is kept (the fact's provenance)."""

    session_id: str
    message_id: str
    text: str
