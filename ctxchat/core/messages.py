"""Chat messages: roles, content parts, usage and attribution, with a versioned dict form."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, Literal, TypeAlias, cast, get_args

# Ids: ULIDs (48-bit millisecond time + 80 random bits, Crockford base32), so ids sort by
# creation time. Messages, turns, sessions and facts all take theirs from here.
_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_BURST_STEP_BITS = 75


def _encode(value: int, length: int) -> str:
    chars = []
    for _ in range(length):
        chars.append(_ALPHABET[value & 31])
        value >>= 5
    return "".join(reversed(chars))


class _MonotonicIds:
    """The last id made, so the next one sorts after it.

    One per process (`_IDS`), as uuid's state is: ids made anywhere in the process (every
    chat, every thread) must sort in the order they were made, which no per-chat object
    could promise once two chats write to the same history. Nothing else lives here."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last_ms = -1
        self._last_random = 0

    def next(self) -> str:
        with self._lock:
            now_ms = time.time_ns() // 1_000_000
            random_part = int.from_bytes(os.urandom(10), "big")
            if now_ms <= self._last_ms:
                # Same millisecond (or a clock step back): the random part grows so order
                # holds, by a random step in its upper bits, so ids of one burst differ
                # early on and short prefixes tell them apart (`ctxchat.core.idprefix`).
                # When it would overflow, the id takes the next millisecond.
                step = 1 + (random_part >> (80 - _BURST_STEP_BITS))
                if self._last_random + step < 1 << 80:
                    now_ms, random_part = self._last_ms, self._last_random + step
                else:
                    now_ms = self._last_ms + 1
            self._last_ms, self._last_random = now_ms, random_part
        return _encode(now_ms, 10) + _encode(random_part, 16)


_IDS = _MonotonicIds()


def new_id() -> str:
    """A 26-character id; ids made later in this process always sort after earlier ones."""
    return _IDS.next()


# 2: usage keys are input_tokens/output_tokens, as everywhere else (1 said input/output).
# Reasoning parts came later within 2: a reader without them names the unknown part type,
# while every message without one stays readable by it (a new version would refuse all).
# Image parts came later within 2 for the same reason.
MESSAGE_VERSION = 2

Role: TypeAlias = Literal["system", "user", "assistant", "tool"]
# Where a message the model sees came from. "response" marks what the model itself
# produced during the turn (assistant text and tool calls).
AttributionKind: TypeAlias = Literal["input", "history", "context", "tool", "response"]
# Where the text of an input came from. The user's own words are what they typed in the
# REPL, gave as the prompt argument, or piped in as the message itself; a paste in the
# REPL and stdin attached to a prompt argument are documents the user handed over, which
# providers that learn about the user (memory) must not take as the user speaking.
InputOrigin: TypeAlias = Literal["typed", "argument", "stdin", "pasted", "document"]
OWN_WORDS: frozenset[str] = frozenset({"typed", "argument", "stdin"})

ROLES: frozenset[str] = frozenset(get_args(Role))
ATTRIBUTION_KINDS: frozenset[str] = frozenset(get_args(AttributionKind))
INPUT_ORIGINS: frozenset[str] = frozenset(get_args(InputOrigin))


class MessageFormatError(ValueError):
    """A serialised message is not one this version understands."""


@dataclass(frozen=True, slots=True)
class TextPart:
    text: str
    origin: InputOrigin | None = None  # set on input text; None elsewhere


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


@dataclass(frozen=True, slots=True)
class ReasoningPart:
    """What a model thought aloud before answering (a `<think>` block, or the separate
    reasoning field some servers stream). Kept with the reply, shown folded, and never
    sent back to a model: it is not part of the conversation."""

    text: str


@dataclass(frozen=True, slots=True)
class ImagePart:
    """An image the user attached: its bytes as base64 `data`, its media type, the name
    it was attached under, and its size in pixels (what a provider bills it by)."""

    media_type: str
    data: str
    name: str
    width: int
    height: int

    @property
    def data_url(self) -> str:
        return f"data:{self.media_type};base64,{self.data}"


Part: TypeAlias = TextPart | ToolCallPart | ToolResultPart | ReasoningPart | ImagePart


@dataclass(frozen=True, slots=True)
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.input_tokens + other.input_tokens, self.output_tokens + other.output_tokens
        )

    def to_dict(self) -> dict[str, int]:
        return {"input_tokens": self.input_tokens, "output_tokens": self.output_tokens}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Usage:
        """Reads the keys of every version (`input`/`output` were written before)."""
        return cls(
            int(data.get("input_tokens", data.get("input", 0))),
            int(data.get("output_tokens", data.get("output", 0))),
        )


@dataclass(frozen=True, slots=True)
class Attribution:
    """Where a message comes from in a run: its `kind`, the provider that added it
    (`source_id`) and, when that provider passed on another's message, the provider the
    message first came from (`origin`)."""

    kind: AttributionKind
    source_id: str | None = None
    origin: str | None = None


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
    def user(
        cls, text: str, *, name: str | None = None, origin: InputOrigin | None = None
    ) -> Message:
        return cls("user", (TextPart(text, origin),), name=name)

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
        reasoning: str = "",
    ) -> Message:
        parts: list[Part] = [ReasoningPart(reasoning)] if reasoning else []
        if text:
            parts.append(TextPart(text))
        parts.extend(tool_calls)
        return cls("assistant", tuple(parts), usage=usage)

    @classmethod
    def tool_result(cls, call_id: str, content: str, *, is_error: bool = False) -> Message:
        return cls("tool", (ToolResultPart(call_id, content, is_error),))

    # -- views --------------------------------------------------------------------------------
    @property
    def text(self) -> str:
        """The text parts, a blank line between two (a prompt and the document after it)."""
        return "\n\n".join(p.text for p in self.parts if isinstance(p, TextPart))

    def text_from(self, origins: frozenset[str]) -> str:
        """The text of the parts whose origin is one of `origins` (see `InputOrigin`)."""
        return "\n\n".join(
            p.text for p in self.parts if isinstance(p, TextPart) and p.origin in origins
        )

    @property
    def images(self) -> list[ImagePart]:
        return [p for p in self.parts if isinstance(p, ImagePart)]

    @property
    def reasoning(self) -> str:
        """What the model thought aloud before this reply; not in `text`, never sent."""
        return "\n\n".join(p.text for p in self.parts if isinstance(p, ReasoningPart))

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

    @property
    def origin(self) -> str | None:
        """The provider this message first came from (its own source id unless passed on)."""
        if self.attribution is None:
            return None
        return self.attribution.origin or self.attribution.source_id

    def attributed(self, kind: AttributionKind, source_id: str | None = None) -> Message:
        """A copy stamped with where it came from; this message is left as it is. A message
        another provider added keeps that provider as its origin."""
        previous = self.attribution
        origin = None
        if previous is not None and previous.source_id not in (None, source_id):
            origin = previous.origin or previous.source_id
        elif previous is not None:
            origin = previous.origin
        return replace(self, attribution=Attribution(kind, source_id, origin))

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
            data["usage"] = self.usage.to_dict()
        if self.attribution is not None:
            data["attribution"] = {"kind": self.attribution.kind}
            if self.attribution.source_id is not None:
                data["attribution"]["source_id"] = self.attribution.source_id
            if self.attribution.origin is not None:
                data["attribution"]["origin"] = self.attribution.origin
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
                usage=Usage.from_dict(usage) if usage else None,
                attribution=(
                    Attribution(
                        attribution["kind"],
                        attribution.get("source_id"),
                        attribution.get("origin"),
                    )
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
        if part.origin is None:
            return {"type": "text", "text": part.text}
        return {"type": "text", "text": part.text, "origin": part.origin}
    if isinstance(part, ToolCallPart):
        return {"type": "tool_call", "id": part.id, "name": part.name, "arguments": part.arguments}
    if isinstance(part, ReasoningPart):
        return {"type": "reasoning", "text": part.text}
    if isinstance(part, ImagePart):
        return {
            "type": "image",
            "media_type": part.media_type,
            "data": part.data,
            "name": part.name,
            "width": part.width,
            "height": part.height,
        }
    return {
        "type": "tool_result",
        "call_id": part.call_id,
        "content": part.content,
        "is_error": part.is_error,
    }


def _part_from_dict(data: Mapping[str, Any]) -> Part:
    kind = data["type"]
    if kind == "text":
        origin = data.get("origin")
        if origin is not None and origin not in INPUT_ORIGINS:
            raise MessageFormatError(f"unknown input origin {origin!r}")
        return TextPart(str(data["text"]), cast(InputOrigin | None, origin))
    if kind == "tool_call":
        return ToolCallPart(str(data["id"]), str(data["name"]), str(data["arguments"]))
    if kind == "tool_result":
        return ToolResultPart(str(data["call_id"]), str(data["content"]), bool(data["is_error"]))
    if kind == "reasoning":
        return ReasoningPart(str(data["text"]))
    if kind == "image":
        return ImagePart(
            str(data["media_type"]),
            str(data["data"]),
            str(data["name"]),
            int(data["width"]),
            int(data["height"]),
        )
    raise MessageFormatError(f"unknown message part type {kind!r}")
