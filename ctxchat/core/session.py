"""A session: identity, title, timestamps and a plain JSON state dict, versioned on disk."""

from __future__ import annotations

import copy as copy_module
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ctxchat.core.messages import new_id
from ctxchat.core.text import title_or_untitled

SESSION_VERSION = 2


class SessionFormatError(ValueError):
    pass


class SessionTooNew(SessionFormatError):
    """Written by a newer ctxchat: readable later, so it must not be treated as corrupt."""


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass
class Session:
    id: str = field(default_factory=new_id)
    title: str | None = None
    created_at: datetime = field(default_factory=_now)
    updated_at: datetime = field(default_factory=_now)
    model: str | None = None
    turns: int = 0  # completed turns
    state: dict[str, Any] = field(default_factory=dict)

    def provider_state(self, source_id: str) -> dict[str, Any]:
        """The provider's namespace in `state`, created on first use."""
        value = self.state.setdefault(source_id, {})
        if not isinstance(value, dict):
            raise SessionFormatError(f"state for provider '{source_id}' is not a JSON object")
        return value

    def display_title(self) -> str:
        return title_or_untitled(self.title)

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": SESSION_VERSION,
            "id": self.id,
            "title": self.title,
            "created_at": self.created_at.isoformat(),
            "updated_at": self.updated_at.isoformat(),
            "model": self.model,
            "turns": self.turns,
            "state": self.state,
        }

    @classmethod
    def from_dict(cls, data: Any, *, copy: bool = True) -> Session:
        """The session `data` describes. Its state is a copy, so the two never share a
        dict; `copy=False` is for a document nobody else holds (one just parsed)."""
        if not isinstance(data, dict):
            raise SessionFormatError("a session document must be a JSON object")
        data = upgrade(data)
        try:
            state = data["state"]
            if not isinstance(state, dict):
                raise SessionFormatError("'state' must be a JSON object")
            if copy:
                state = copy_module.deepcopy(state)
            return cls(
                id=str(data["id"]),
                title=data.get("title"),
                created_at=_parse_time(data["created_at"]),
                updated_at=_parse_time(data["updated_at"]),
                model=data.get("model"),
                turns=int(data.get("turns", 0)),
                state=state,
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, SessionFormatError):
                raise
            raise SessionFormatError(f"malformed session document: {exc!r}") from exc


def _parse_time(text: Any) -> datetime:
    value = datetime.fromisoformat(str(text))
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _count_user_messages(state: dict[str, Any]) -> int:
    count = 0
    for provider_state in state.values():
        messages = provider_state.get("messages") if isinstance(provider_state, dict) else None
        if isinstance(messages, list):
            count = max(
                count, sum(1 for m in messages if isinstance(m, dict) and m.get("role") == "user")
            )
    return count


def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    # Version 1 had no turn counter; count the turns an in-session history holds.
    upgraded = dict(data)
    upgraded["turns"] = _count_user_messages(data.get("state") or {})
    upgraded["version"] = 2
    return upgraded


# from-version -> step to the next version. Steps are small and never skip a version.
UPGRADES: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _v1_to_v2}


def upgrade(data: dict[str, Any]) -> dict[str, Any]:
    version = data.get("version")
    if not isinstance(version, int) or version < 1:
        raise SessionFormatError(f"unknown session format version {version!r}")
    if version > SESSION_VERSION:
        raise SessionTooNew(
            f"session format version {version} is newer than this ctxchat "
            f"(knows up to {SESSION_VERSION}); upgrade ctxchat to open it"
        )
    while version < SESSION_VERSION:
        data = UPGRADES[version](data)
        version = data["version"]
    return data
