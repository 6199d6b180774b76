"""Facts: what the memory holds, with a versioned JSON-ready dict form and an exact round trip.

A fact is immutable; the update step stores a changed copy. A single-valued slot keeps one
fact whose `history` lists the values it replaced, so "moved from Paris to Berlin" leaves one
active fact (Berlin) that still knows it was Paris. Forgetting deletes the fact, history and
all.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, TypeAlias, cast

FACT_VERSION = 1

Status: TypeAlias = Literal["active", "superseded"]
STATUSES: frozenset[str] = frozenset({"active", "superseded"})


class FactFormatError(ValueError):
    """A serialised fact is not one this version understands."""


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where a value was learnt: the session and the user message it came from."""

    session_id: str | None = None
    message_id: str | None = None


@dataclass(frozen=True, slots=True)
class PastValue:
    """A value the fact held before it was replaced, and when it held it."""

    value: str
    first_seen: datetime
    last_seen: datetime
    replaced_at: datetime
    provenance: Provenance = Provenance()


@dataclass(frozen=True, slots=True)
class Fact:
    id: str
    slot: str | None  # None: free text
    value: str
    first_seen: datetime
    last_seen: datetime
    provenance: Provenance = Provenance()
    status: Status = "active"
    history: tuple[PastValue, ...] = ()

    @property
    def active(self) -> bool:
        return self.status == "active"

    def to_dict(self) -> dict[str, Any]:
        return {
            "v": FACT_VERSION,
            "id": self.id,
            "slot": self.slot,
            "value": self.value,
            "first_seen": self.first_seen.isoformat(),
            "last_seen": self.last_seen.isoformat(),
            "provenance": _provenance_to_dict(self.provenance),
            "status": self.status,
            "history": [
                {
                    "value": p.value,
                    "first_seen": p.first_seen.isoformat(),
                    "last_seen": p.last_seen.isoformat(),
                    "replaced_at": p.replaced_at.isoformat(),
                    "provenance": _provenance_to_dict(p.provenance),
                }
                for p in self.history
            ],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Fact:
        try:
            version = data.get("v", 1)
            if not isinstance(version, int) or version > FACT_VERSION:
                raise FactFormatError(
                    f"fact format version {version!r} is newer than this ctxchat understands"
                )
            status = data.get("status", "active")
            if status not in STATUSES:
                raise FactFormatError(f"unknown fact status {status!r}")
            slot = data["slot"]
            if slot is not None and not isinstance(slot, str):
                raise FactFormatError("fact slot must be a string or null")
            return cls(
                id=_text(data["id"]),
                slot=slot,
                value=_text(data["value"]),
                first_seen=_time(data["first_seen"]),
                last_seen=_time(data["last_seen"]),
                provenance=_provenance_from_dict(data.get("provenance") or {}),
                status=cast(Status, status),
                history=tuple(
                    PastValue(
                        value=_text(p["value"]),
                        first_seen=_time(p["first_seen"]),
                        last_seen=_time(p["last_seen"]),
                        replaced_at=_time(p["replaced_at"]),
                        provenance=_provenance_from_dict(p.get("provenance") or {}),
                    )
                    for p in data.get("history", ())
                ),
            )
        except FactFormatError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise FactFormatError(f"malformed fact: {exc!r}") from exc


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise FactFormatError(f"expected a string, got {type(value).__name__}")
    return value


def _time(value: object) -> datetime:
    parsed = datetime.fromisoformat(_text(value))
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)


def _provenance_to_dict(p: Provenance) -> dict[str, str | None]:
    return {"session_id": p.session_id, "message_id": p.message_id}


def _provenance_from_dict(data: Mapping[str, Any]) -> Provenance:
    session_id, message_id = data.get("session_id"), data.get("message_id")
    if session_id is not None:
        session_id = _text(session_id)
    if message_id is not None:
        message_id = _text(message_id)
    return Provenance(session_id, message_id)
