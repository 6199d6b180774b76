"""Chat messages: roles, content parts, usage and attribution, with a versioned dict form."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, Literal, TypeAlias, cast, get_args

from ctxchat.ids import new_id

MESSAGE_VERSION = 1

Role: TypeAlias = Literal["system", "user", "assistant", "tool"]
# Where a message the model sees came from. "response" marks what the model itself
# produced during the turn (assistant text and tool calls).
AttributionKind: TypeAlias = Literal["input", "history", "context", "tool", "response"]

ROLES: frozenset[str] = frozenset(get_args(Role))
ATTRIBUTION_KINDS: frozenset[str] = frozenset(get_args(AttributionKind))


class MessageFormatError(ValueError):
    """A serialised message is not one this version understands."""


@dataclass(frozen=True, slots=True)
class TextPart:
    text: str


@dataclass(frozen=True, slots=True)
class ToolCallPart:
    id: str
    name: str
    arguments: str  # JSON text exactly as the model produced it (it may be malformed)

    def parsed_arguments(self) -> Any:
        return json.loads(self.arguments) if self.arguments.strip() else {}


@dataclass(frozen=True, slots=True)
class ToolResultPart:
    call_id: str
    content: str
    is_error: bool = False


Part: TypeAlias = TextPart | ToolCallPart | ToolResultPart


@dataclass(frozen=True, slots=True)
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.input_tokens + other.input_tokens, self.output_tokens + other.output_tokens
        )


@dataclass(frozen=True, slots=True)
class Attribution:
    kind: AttributionKind
    source_id: str | None = None


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class Message:
    """One chat message. Immutable: derive changed copies with `dataclasses.replace`."""

    role: Role
    parts: tuple[Part, ...] = ()
    name: str | None = None
    id: str = field(default_factory=new_id)
    created_at: datetime = field(default_factory=_now)
    usage: Usage | None = None
    attribution: Attribution | None = None

    # -- constructors -------------------------------------------------------------------------
    @classmethod
    def user(cls, text: str, *, name: str | None = None) -> Message:
        return cls("user", (TextPart(text),), name=name)

    @classmethod
    def system(cls, text: str) -> Message:
        return cls("system", (TextPart(text),))

    @classmethod
    def assistant(
        cls,
        text: str = "",
        tool_calls: Iterable[ToolCallPart] = (),
        *,
        usage: Usage | None = None,
    ) -> Message:
        parts: list[Part] = [TextPart(text)] if text else []
        parts.extend(tool_calls)
        return cls("assistant", tuple(parts), usage=usage)

    @classmethod
    def tool_result(cls, call_id: str, content: str, *, is_error: bool = False) -> Message:
        return cls("tool", (ToolResultPart(call_id, content, is_error),))

    # -- views --------------------------------------------------------------------------------
    @property
    def text(self) -> str:
        return "".join(p.text for p in self.parts if isinstance(p, TextPart))

    @property
    def tool_calls(self) -> list[ToolCallPart]:
        return [p for p in self.parts if isinstance(p, ToolCallPart)]

    @property
    def tool_results(self) -> list[ToolResultPart]:
        return [p for p in self.parts if isinstance(p, ToolResultPart)]

    @property
    def source_id(self) -> str | None:
        return self.attribution.source_id if self.attribution else None

    @property
    def kind(self) -> AttributionKind | None:
        return self.attribution.kind if self.attribution else None

    def attributed(self, kind: AttributionKind, source_id: str | None = None) -> Message:
        """A copy stamped with where it came from; this message is left as it is."""
        return replace(self, attribution=Attribution(kind, source_id))

    # -- serialisation ------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "v": MESSAGE_VERSION,
            "id": self.id,
            "role": self.role,
            "parts": [_part_to_dict(p) for p in self.parts],
            "created_at": self.created_at.isoformat(),
        }
        if self.name is not None:
            data["name"] = self.name
        if self.usage is not None:
            data["usage"] = {"input": self.usage.input_tokens, "output": self.usage.output_tokens}
        if self.attribution is not None:
            data["attribution"] = {"kind": self.attribution.kind}
            if self.attribution.source_id is not None:
                data["attribution"]["source_id"] = self.attribution.source_id
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Message:
        try:
            version = data.get("v", 1)
            if not isinstance(version, int) or version > MESSAGE_VERSION:
                raise MessageFormatError(
                    f"message format version {version!r} is newer than this ctxchat understands"
                )
            role = data["role"]
            if role not in ROLES:
                raise MessageFormatError(f"unknown message role {role!r}")
            created = datetime.fromisoformat(data["created_at"])
            if created.tzinfo is None:
                created = created.replace(tzinfo=UTC)
            usage = data.get("usage")
            attribution = data.get("attribution")
            if attribution is not None and attribution["kind"] not in ATTRIBUTION_KINDS:
                raise MessageFormatError(f"unknown attribution kind {attribution['kind']!r}")
            return cls(
                role=cast(Role, role),
                parts=tuple(_part_from_dict(p) for p in data["parts"]),
                name=data.get("name"),
                id=str(data["id"]),
                created_at=created,
                usage=Usage(int(usage["input"]), int(usage["output"])) if usage else None,
                attribution=(
                    Attribution(attribution["kind"], attribution.get("source_id"))
                    if attribution
                    else None
                ),
            )
        except MessageFormatError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise MessageFormatError(f"malformed message: {exc!r}") from exc


def _part_to_dict(part: Part) -> dict[str, Any]:
    if isinstance(part, TextPart):
        return {"type": "text", "text": part.text}
    if isinstance(part, ToolCallPart):
        return {"type": "tool_call", "id": part.id, "name": part.name, "arguments": part.arguments}
    return {
        "type": "tool_result",
        "call_id": part.call_id,
        "content": part.content,
        "is_error": part.is_error,
    }


def _part_from_dict(data: Mapping[str, Any]) -> Part:
    kind = data["type"]
    if kind == "text":
        return TextPart(str(data["text"]))
    if kind == "tool_call":
        return ToolCallPart(str(data["id"]), str(data["name"]), str(data["arguments"]))
    if kind == "tool_result":
        return ToolResultPart(str(data["call_id"]), str(data["content"]), bool(data["is_error"]))
    raise MessageFormatError(f"unknown message part type {kind!r}")
