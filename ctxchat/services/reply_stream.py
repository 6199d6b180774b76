"""One assistant message assembled from an OpenAI-compatible chat stream: text, reasoning
(a `<think>` block or a reasoning field), tool calls whose names and arguments arrive in
pieces, usage and the finish reason, each piece passed on to the caller as it comes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ctxchat.core.messages import Message, ToolCallPart, Usage
from ctxchat.core.model_types import EventSink, ModelReply, ReasoningDelta, TextDelta
from ctxchat.core.storable import storable
from ctxchat.core.think import ThinkSplitter


@dataclass
class PendingCall:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


class ReplyAssembler:
    """Builds one assistant message from streamed chunks."""

    def __init__(self, on_event: EventSink) -> None:
        self.on_event = on_event
        self.text: list[str] = []
        self.reasoning: list[str] = []
        self.think = ThinkSplitter()
        self.calls: dict[int, PendingCall] = {}
        self.usage: Usage | None = None
        self.finish_reason: str | None = None

    def add(self, chunk: Any) -> None:
        if getattr(chunk, "usage", None) is not None:
            self.usage = Usage(chunk.usage.prompt_tokens or 0, chunk.usage.completion_tokens or 0)
        for choice in chunk.choices or ():
            delta = choice.delta
            thought = reasoning_of(delta)
            if thought:
                self._emit("reasoning", thought)
            if delta is not None and delta.content:
                for kind, piece in self.think.feed(delta.content):
                    self._emit(kind, piece)
            for call in (delta.tool_calls if delta is not None else None) or ():
                pending = self.calls.setdefault(call.index, PendingCall())
                if call.id:
                    pending.id = call.id
                if call.function is not None:
                    if call.function.name:
                        pending.name += call.function.name
                    if call.function.arguments:
                        pending.arguments.append(call.function.arguments)
            if choice.finish_reason:
                self.finish_reason = choice.finish_reason

    def _emit(self, kind: str, piece: str) -> None:
        # Whatever the sink raises (a closed stdout's BrokenPipeError...) is the caller's
        # own failure and reaches it as it is: `complete` translates only what reading the
        # stream raises. What is shown is what is stored: no NUL, no lone surrogate that
        # no terminal could be sent (see `ctxchat.core.storable`).
        piece = storable(piece)
        if kind == "reasoning":
            self.reasoning.append(piece)
            self.on_event(ReasoningDelta(piece))
        else:
            self.text.append(piece)
            self.on_event(TextDelta(piece))

    def reply(self) -> ModelReply:
        for kind, piece in self.think.flush():
            self._emit(kind, piece)
        calls = [
            ToolCallPart(p.id or f"call_{i}", p.name, "".join(p.arguments))
            for i, p in sorted(self.calls.items())
        ]
        message = Message.assistant(
            "".join(self.text), calls, usage=self.usage, reasoning="".join(self.reasoning).strip()
        )
        return ModelReply(message, self.usage, self.finish_reason)


# Where OpenAI-compatible servers stream a model's reasoning beside the content: vLLM,
# llama.cpp's server and DeepSeek say `reasoning_content`, others (OpenRouter) `reasoning`.
REASONING_FIELDS = ("reasoning_content", "reasoning")


def reasoning_of(delta: Any) -> str:
    if delta is None:
        return ""
    for name in REASONING_FIELDS:
        value = getattr(delta, name, None)
        if isinstance(value, str) and value:
            return value
    return ""
