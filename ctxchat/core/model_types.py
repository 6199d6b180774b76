"""What passes between the engine and a chat model, and the middleware that may wrap it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ctxchat.core.messages import Message, ToolCallPart, ToolResultPart, Usage
from ctxchat.core.tools import Tool

if TYPE_CHECKING:
    from ctxchat.core.limits import ContextLimits


@dataclass(frozen=True)
class TextDelta:
    """A piece of the reply text as it streams in."""

    text: str


@dataclass(frozen=True)
class ReasoningDelta:
    """A piece of what the model thinks aloud before its reply, as it streams in."""

    text: str


@dataclass(frozen=True)
class ToolCallStarted:
    call: ToolCallPart


@dataclass(frozen=True)
class ToolCallFinished:
    call: ToolCallPart
    result: ToolResultPart
    # How long the tool itself ran (not the time spent asking the user); 0 when it did
    # not run (refused, unknown, bad arguments).
    seconds: float = 0.0


@dataclass(frozen=True)
class ProviderWarning:
    """A provider could not do something (its after_run failed, say); the turn stands."""

    source_id: str
    message: str


@dataclass(frozen=True)
class ProviderNotice:
    """A line a provider has for the user about the turn ("remembered: ...")."""

    source_id: str
    message: str


@dataclass(frozen=True)
class ProviderProgress:
    """Long work a provider does before the model is asked (embedding a tool catalogue):
    `done` of `total` items. Shown as a progress bar on a terminal, never on a pipe."""

    source_id: str
    label: str  # what is being done, a few words ("embedding tools")
    done: int
    total: int


@dataclass(frozen=True)
class ModelNotice:
    """A line for the user from the model client about how it talks to the endpoint
    ("tools are off for this model: it does not support them")."""

    message: str


@dataclass(frozen=True)
class ReplyCut:
    """A reply longer than [agent] max_reply_bytes: shown whole, kept cut to `kept` bytes
    (see `ctxchat.core.reply_limit`)."""

    size: int
    kept: int


Event = (
    TextDelta
    | ReasoningDelta
    | ToolCallStarted
    | ToolCallFinished
    | ProviderWarning
    | ProviderNotice
    | ProviderProgress
    | ModelNotice
    | ReplyCut
)
EventSink = Callable[[Event], None]


def ignore_events(_event: Event) -> None:
    return None


@dataclass(frozen=True)
class ModelRequest:
    messages: tuple[Message, ...]
    tools: tuple[Tool, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ModelReply:
    message: Message  # the assistant message: text and/or tool calls
    usage: Usage | None = None
    finish_reason: str | None = None


class ChatModel(Protocol):
    """Anything that turns a request into one assistant reply, streaming deltas to `on_event`."""

    @property
    def name(self) -> str: ...

    async def complete(self, request: ModelRequest, on_event: EventSink) -> ModelReply: ...

    def with_model(self, name: str) -> ChatModel:
        """The same endpoint and settings, talking to the model called `name`."""
        ...

    def check(self) -> None:
        """Raise `ModelNotConfigured` when there is no endpoint to talk to; cheap, no
        network (the REPL asks before the user types a first message)."""
        ...

    async def limits(self) -> ContextLimits:
        """The model's context window and how to count tokens for it (see
        `ctxchat.core.limits`); may ask the endpoint once, then remembers."""
        ...


class Embeddings(Protocol):
    """An embeddings endpoint: vectors for texts, and an identity that changes when the
    vectors would (another model, another endpoint), for caches keyed by it."""

    @property
    def identity(self) -> str: ...

    async def embed(self, texts: list[str]) -> list[list[float]]: ...

    async def available(self) -> bool:
        """Whether the endpoint serves embeddings (asked once, then remembered)."""
        ...


ModelCall = Callable[[ModelRequest], Awaitable[ModelReply]]
ToolCall = Callable[[Tool | None, ToolCallPart], Awaitable[ToolResultPart]]


class Middleware:
    """Wraps the model calls and tool calls of one run; override either hook.

    Providers add middleware for the current run with `context.extend_middleware`; the
    engine applies it in provider order, the first added being the outermost.
    """

    async def on_model_call(self, request: ModelRequest, call_next: ModelCall) -> ModelReply:
        return await call_next(request)

    async def on_tool_call(
        self, tool: Tool | None, call: ToolCallPart, call_next: ToolCall
    ) -> ToolResultPart:
        return await call_next(tool, call)


def chain_model_call(middleware: list[Middleware], innermost: ModelCall) -> ModelCall:
    call = innermost
    for layer in reversed(middleware):
        call = _bind_model(layer, call)
    return call


def chain_tool_call(middleware: list[Middleware], innermost: ToolCall) -> ToolCall:
    call = innermost
    for layer in reversed(middleware):
        call = _bind_tool(layer, call)
    return call


def _bind_model(layer: Middleware, call_next: ModelCall) -> ModelCall:
    async def call(request: ModelRequest) -> ModelReply:
        return await layer.on_model_call(request, call_next)

    return call


def _bind_tool(layer: Middleware, call_next: ToolCall) -> ToolCall:
    async def call(tool: Tool | None, part: ToolCallPart) -> ToolResultPart:
        return await layer.on_tool_call(tool, part, call_next)

    return call
