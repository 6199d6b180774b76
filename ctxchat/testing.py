"""For testing providers without a model server: a `ChatModel` that answers from a script.

    model = ScriptedModel("Hello!", ScriptedModel.calls(("get_time", {"zone": "UTC"})), "Noon.")
    agent = Agent(model=model, providers=[MyProvider("mine")])
    asyncio.run(agent.run(Session(), "hi"))
    model.requests[0].messages  # exactly what the model was shown

Each request takes the next scripted reply; when the script runs out, the model echoes
the last user message. Text is streamed to the run as one `TextDelta`, as a real model's
reply would be.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ctxchat.core.messages import Message, ToolCallPart
from ctxchat.core.model_types import EventSink, ModelReply, ModelRequest, TextDelta

if TYPE_CHECKING:
    from ctxchat.core.limits import ContextLimits

Scripted = str | ModelReply | Callable[[ModelRequest], "str | ModelReply"]


class ScriptedModel:
    def __init__(
        self, *replies: Scripted, name: str = "scripted-model", window: int = 128_000
    ) -> None:
        self._name = name
        self.window = window
        self.script: list[Scripted] = list(replies)
        self.requests: list[ModelRequest] = []

    @property
    def name(self) -> str:
        return self._name

    @staticmethod
    def calls(*calls: tuple[str, Mapping[str, Any]]) -> ModelReply:
        """A reply that calls tools: `(name, arguments)` pairs."""
        parts = [
            ToolCallPart(f"call_{i}", name, json.dumps(dict(arguments)))
            for i, (name, arguments) in enumerate(calls, start=1)
        ]
        return ModelReply(Message.assistant("", parts), finish_reason="tool_calls")

    async def complete(self, request: ModelRequest, on_event: EventSink) -> ModelReply:
        self.requests.append(request)
        reply: Scripted
        if self.script:
            reply = self.script.pop(0)
        else:
            asked = next((m.text for m in reversed(request.messages) if m.role == "user"), "")
            reply = f"echo: {asked}"
        if callable(reply):
            reply = reply(request)
        if isinstance(reply, str):
            reply = ModelReply(Message.assistant(reply), finish_reason="stop")
        if reply.message.text:
            on_event(TextDelta(reply.message.text))
        return reply

    def with_model(self, name: str) -> ScriptedModel:
        """The same script (shared: both models take turns from it), another name."""
        other = ScriptedModel(name=name, window=self.window)
        other.script = self.script
        other.requests = self.requests
        return other

    def check(self) -> None:
        """Always ready: there is no endpoint to configure."""

    async def limits(self) -> ContextLimits:
        """`window` tokens, counted by the local estimate."""
        from ctxchat.core.limits import ContextLimits

        return ContextLimits(self.window, "config")
