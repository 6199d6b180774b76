"""A session: identity, title, timestamps and a plain JSON state dict, versioned on disk.

A document is checked whole when it is read (`check_document`): valid JSON of the wrong
shape (a title that is an object, a provider state that is a string) would otherwise load,
and fail later in every command that touches it, far from the file that caused it. A
document that fails the check is as unreadable as a corrupt one (the store moves it aside).
"""

from __future__ import annotations

import copy as copy_module
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ctxchat.core.messages import new_id
from ctxchat.core.text import title_or_untitled

SESSION_VERSION = 3


class SessionFormatError(ValueError):
    pass


class SessionTooNew(SessionFormatError):
    """Written by a newer ctxchat: readable later, so it must not be treated as corrupt."""


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class ForkPoint:
    """Where a forked session came from: the session, and how many of its turns it took."""

    session: str
    turn: int

    def to_dict(self) -> dict[str, Any]:
        return {"session": self.session, "turn": self.turn}


@dataclass
class Session:
    id: str = field(default_factory=new_id)
    title: str | None = None
    created_at: datetime = field(default_factory=_now)
    updated_at: datetime = field(default_factory=_now)
    model: str | None = None
    turns: int = 0  # completed turns
    state: dict[str, Any] = field(default_factory=dict)
    # The turn under way, while histories outside this file store it: see
    # `ctxchat.services.journal`. Left set only by a process that ended mid-turn.
    pending_turn: str | None = None
    # A kept turn whose record stage (the audit's row) may not have run: set by the save
    # that counts it, cleared with the next save after the stage ran. Left set only by a
    # process killed in between; the next one records what is missing (see the journal).
    unrecorded_turn: str | None = None
    forked_from: ForkPoint | None = None
    # The role it was started or last switched to (`run --role`, `/role`), and the project
    # it belongs to (`ctxchat.config.projects`): both optional keys of the document.
    role: str | None = None
    project: str | None = None

    def provider_state(self, source_id: str) -> dict[str, Any]:
        """The provider's namespace in `state`, created on first use."""
        value = self.state.setdefault(source_id, {})
        if not isinstance(value, dict):
            raise SessionFormatError(f"state for provider '{source_id}' is not a JSON object")
        return value

    def display_title(self) -> str:
        return title_or_untitled(self.title)

    def to_dict(self) -> dict[str, Any]:
        document = {
            "version": SESSION_VERSION,
            "id": self.id,
            "title": self.title,
            "created_at": self.created_at.isoformat(),
            "updated_at": self.updated_at.isoformat(),
            "model": self.model,
            "turns": self.turns,
            "state": self.state,
        }
        if self.pending_turn is not None:
            document["pending_turn"] = self.pending_turn
        if self.unrecorded_turn is not None:
            document["unrecorded_turn"] = self.unrecorded_turn
        if self.forked_from is not None:
            document["forked_from"] = self.forked_from.to_dict()
        for key in ("role", "project"):
            if getattr(self, key) is not None:
                document[key] = getattr(self, key)
        return document

    @classmethod
    def from_dict(cls, data: Any, *, copy: bool = True) -> Session:
        """The session `data` describes. Its state is a copy, so the two never share a
        dict; `copy=False` is for a document nobody else holds (one just parsed)."""
        if not isinstance(data, dict):
            raise SessionFormatError("a session document must be a JSON object")
        data = upgrade(data)
        check_document(data)
        state = data["state"]
        fork = data.get("forked_from")
        return cls(
            id=data["id"],
            title=data.get("title"),
            created_at=_parse_time(data["created_at"], "created_at"),
            updated_at=_parse_time(data["updated_at"], "updated_at"),
            model=data.get("model"),
            turns=data.get("turns", 0),
            state=copy_module.deepcopy(state) if copy else state,
            pending_turn=data.get("pending_turn"),
            unrecorded_turn=data.get("unrecorded_turn"),
            forked_from=ForkPoint(fork["session"], fork["turn"]) if fork is not None else None,
            role=data.get("role"),
            project=data.get("project"),
        )


_KINDS = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return "a number"
    return _KINDS.get(type(value), type(value).__name__)


def check_document(data: dict[str, Any]) -> None:
    """Raise `SessionFormatError` naming the first field of the (upgraded) document whose
    type is wrong; the times must also parse."""
    problems = [
        ("id", isinstance(data.get("id"), str) and bool(data.get("id")), "a non-empty string"),
        ("title", data.get("title") is None or isinstance(data["title"], str), "a string or null"),
        ("model", data.get("model") is None or isinstance(data["model"], str), "a string or null"),
        ("turns", _is_count(data.get("turns", 0)), "a whole number, 0 or more"),
        ("created_at", isinstance(data.get("created_at"), str), "a time (ISO 8601 string)"),
        ("updated_at", isinstance(data.get("updated_at"), str), "a time (ISO 8601 string)"),
        ("state", isinstance(data.get("state"), dict), "an object"),
        ("pending_turn", _is_optional_id(data.get("pending_turn")), "a string or null"),
        ("unrecorded_turn", _is_optional_id(data.get("unrecorded_turn")), "a string or null"),
        ("forked_from", _is_fork_point(data.get("forked_from")), "{session, turn} or null"),
        ("role", _is_optional_id(data.get("role")), "a string or null"),
        ("project", _is_optional_id(data.get("project")), "a string or null"),
    ]
    for name, ok, expected in problems:
        if not ok:
            raise SessionFormatError(f"'{name}' must be {expected}, not {_kind(data.get(name))}")
    for source_id, value in data["state"].items():
        if not isinstance(value, dict):
            raise SessionFormatError(
                f"'state' of provider '{source_id}' must be an object, not {_kind(value)}"
            )
    for name in ("created_at", "updated_at"):
        _parse_time(data[name], name)


def _is_optional_id(value: Any) -> bool:
    return value is None or (isinstance(value, str) and bool(value))


def _is_fork_point(value: Any) -> bool:
    return value is None or (
        isinstance(value, dict)
        and isinstance(value.get("session"), str)
        and bool(value["session"])
        and _is_count(value.get("turn"))
    )


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _parse_time(text: str, name: str) -> datetime:
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        raise SessionFormatError(f"'{name}' is not a time: {text[:40]!r}") from None
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _count_user_messages(state: Any) -> int:
    if not isinstance(state, dict):
        return 0  # left for `check_document` to report
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


def _v2_to_v3(data: dict[str, Any]) -> dict[str, Any]:
    # Version 3 may say where a session was forked from (`forked_from`); none before it.
    return {**data, "version": 3}


# from-version -> step to the next version. Steps are small and never skip a version.
UPGRADES: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _v1_to_v2, 2: _v2_to_v3}


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
