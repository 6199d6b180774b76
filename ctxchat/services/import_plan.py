"""What `ctxchat import` would make of a file, with nothing written (all `--dry-run` does).

The format's reader (`services.importers`) gives plain conversations; each becomes the
session it would be, every text (messages, tool calls and results, titles) through memory's
secret screen (`SecretScreen`, what the user_memory provider offers), masked and counted,
its tokens counted for `--embed`. A conversation this home imported before is found by its
session id, which is made from this home, the user, the format and the conversation's own
id in its source: importing twice adds nothing twice, and never needs to read the sessions
already kept. `services.import_sessions` stores the plan.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ctxchat.core.capabilities import SecretScreen
from ctxchat.core.errors import UsageError
from ctxchat.core.importing import ImportedTurn
from ctxchat.core.messages import Message, TextPart, ToolCallPart, ToolResultPart
from ctxchat.core.session import Session

if TYPE_CHECKING:
    from ctxchat.core.provider import ContextProvider
    from ctxchat.services.importers import ImportedConversation, ImportedMessage

IMPORT_STATE = "import"  # the session state's key for where an imported session came from
_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # ids' Crockford base32 (`core.messages`)


@dataclass
class PlannedSession:
    """One conversation as the session it becomes."""

    session: Session
    turns: list[ImportedTurn]
    messages: int
    secrets: int
    tokens: int
    exists: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "session": self.session.id,
            "title": self.session.title,
            "created_at": self.session.created_at.isoformat(),
            "messages": self.messages,
            "secrets_masked": self.secrets,
            "tokens": self.tokens,
            "already_imported": self.exists,
        }


@dataclass
class ImportPlan:
    source: str
    path: Path
    sessions: list[PlannedSession] = field(default_factory=list)

    @property
    def new(self) -> list[PlannedSession]:
        return [s for s in self.sessions if not s.exists]

    def counts(self) -> dict[str, int]:
        new = self.new
        return {
            "sessions": len(new),
            "messages": sum(s.messages for s in new),
            "secrets_masked": sum(s.secrets for s in new),
            "tokens_to_embed": sum(s.tokens for s in new),
            "already_imported": len(self.sessions) - len(new),
        }


def import_origin(session: Session) -> str | None:
    """Where an imported session came from, for `sessions show`; None for any other."""
    found = session.state.get(IMPORT_STATE)
    if not isinstance(found, dict) or not found.get("source"):
        return None
    model = f", {found['model']}" if found.get("model") else ""
    when = str(found.get("imported_at", ""))[:10]
    return f"imported from {found['source']} ({found.get('key')}{model}) on {when}"


def secret_screen(providers: Sequence[ContextProvider[Any]]) -> SecretScreen:
    """Memory's secret screen: the pipeline's memory provider's, else that of the
    `user_memory` provider type, found through the registry like any provider type (an
    import is screened whether or not memory is in the pipeline)."""
    for provider in providers:
        if isinstance(provider, SecretScreen):
            return provider
    from ctxchat.core.errors import ConfigError
    from ctxchat.core.registry import load_provider_class

    try:
        cls: object = load_provider_class("user_memory")
    except ConfigError as exc:
        raise UsageError(f"import needs memory's secret screen: {exc}") from None
    if not isinstance(cls, SecretScreen):
        raise UsageError("import needs memory's secret screen; user_memory offers none")
    return cls


def import_session_id(home: str, user: str, source: str, key: str) -> str:
    """The id an imported conversation's session has: the same for the same conversation
    imported by the same user in the same home, 26 characters like every id."""
    digest = hashlib.sha256("\0".join((home, user, source, key)).encode()).digest()
    value = int.from_bytes(digest[:17], "big") >> 6  # 130 bits: 26 characters
    chars = []
    for _ in range(26):
        chars.append(_ALPHABET[value & 31])
        value >>= 5
    return "".join(reversed(chars))


def plan_import(
    source: str,
    path: Path,
    conversations: Sequence[ImportedConversation],
    *,
    screen: SecretScreen,
    owner: tuple[str, str],
    exists: Callable[[str], bool],
    history_source: str,
    now: datetime | None = None,
) -> ImportPlan:
    """What importing `conversations` would make; nothing is written."""
    from ctxchat.core.sanitize import one_line
    from ctxchat.core.tokens import count_text_tokens
    from ctxchat.services.titles import title_from

    plan = ImportPlan(source, path)
    when = now or datetime.now(UTC)
    for conversation in conversations:
        masker = _Masker(screen)
        turns = _turns(conversation, masker, when)
        if not turns:
            continue
        session_id = import_session_id(*owner, source, conversation.key)
        title = one_line(masker(conversation.title)) if conversation.title else None
        if not title:
            first = next((m for t in turns for m in t.messages if m.role == "user"), None)
            title = title_from(first.text) if first is not None and first.text else None
        started = conversation.created_at or turns[0].at
        session = Session(
            id=session_id,
            title=title or None,
            created_at=started,
            updated_at=conversation.updated_at or turns[-1].at,
            turns=len(turns),
        )
        # The source's model is said, not taken: a session goes on with its own model
        # (`conversation_model`), and another tool's is seldom one this endpoint serves.
        session.state[IMPORT_STATE] = {
            "source": source,
            "key": conversation.key,
            "path": str(path),
            "model": conversation.model,
            "imported_at": when.isoformat(),
        }
        session.provider_state(history_source)
        messages = [m for t in turns for m in t.messages]
        tokens = sum(count_text_tokens(_body(m)) for m in messages if _body(m))
        plan.sessions.append(
            PlannedSession(session, turns, len(messages), masker.count, tokens, exists(session_id))
        )
    return plan


class _Masker:
    def __init__(self, screen: SecretScreen) -> None:
        self.screen = screen
        self.count = 0

    def __call__(self, text: str) -> str:
        masked, found = self.screen.mask_secrets(text)
        self.count += found
        return masked


def _turns(conversation: ImportedConversation, mask: _Masker, now: datetime) -> list[ImportedTurn]:
    """The conversation as ctxchat turns: each begins with a user's message (what comes
    before the first belongs to it). A tool call whose result is not in the source is
    left out with its result-less call, and a result without its call too: a model is never
    sent half a tool exchange."""
    answered = {m.call_id for m in conversation.messages if m.role == "tool"}
    asked = {c.id for m in conversation.messages for c in m.calls}
    groups: list[list[ImportedMessage]] = []
    for message in conversation.messages:
        if message.role == "user" and (not groups or any(m.role != "user" for m in groups[-1])):
            groups.append([])
        if not groups:
            groups.append([])
        groups[-1].append(message)
    turns = []
    last = conversation.created_at or now
    for group in groups:
        built: list[Message] = []
        for item in group:
            at = item.at or last
            last = at
            made = _message(item, mask, asked, answered)
            if made is not None:
                built.append(dataclasses.replace(made, created_at=at))
        if built:
            turns.append(ImportedTurn(built[0].created_at, built))
    return turns


def _message(
    item: ImportedMessage, mask: _Masker, asked: set[str], answered: set[str | None]
) -> Message | None:
    if item.role == "tool":
        if item.call_id not in asked or item.call_id is None:
            return None
        return Message("tool", (ToolResultPart(item.call_id, mask(item.text)),)).attributed("tool")
    if item.role == "user":
        if not item.text.strip():
            return None
        return Message("user", (TextPart(mask(item.text), "typed"),)).attributed("input")
    calls = [ToolCallPart(c.id, c.name, mask(c.arguments)) for c in item.calls if c.id in answered]
    if not item.text.strip() and not calls:
        return None
    return Message.assistant(mask(item.text), calls).attributed("response")


def _body(message: Message) -> str:
    """What would be embedded of a message: its text and tool results (`searchable_text`)."""
    pieces = [
        p.text if isinstance(p, TextPart) else p.content
        for p in message.parts
        if isinstance(p, TextPart | ToolResultPart)
    ]
    return "\n\n".join(piece for piece in pieces if piece)


def import_owner(history: object) -> tuple[str, str]:
    """Whose the imported sessions are: the history's owner (this home, the configured
    user), else this home and the user as memory keys it."""
    owner = getattr(history, "owner", None)
    home, user = getattr(owner, "home", None), getattr(owner, "user", None)
    if isinstance(home, str) and isinstance(user, str):
        return home, user
    from ctxchat.core.paths import data_dir
    from ctxchat.storage.owner import home_id, user_key

    return home_id(data_dir()), user_key(None)
