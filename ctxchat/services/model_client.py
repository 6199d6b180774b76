"""The chat model behind any OpenAI-compatible endpoint, through the `openai` package.

`openai` costs about half a second to import, so it is imported on the first call only.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ctxchat.core.errors import ModelError, ModelNotConfigured
from ctxchat.core.messages import Message, ToolCallPart, Usage
from ctxchat.core.model_types import EventSink, ModelReply, ModelRequest, TextDelta
from ctxchat.core.openai_format import to_openai_messages
from ctxchat.core.redact import scrub_secrets
from ctxchat.core.settings import ModelSettings

if TYPE_CHECKING:
    import openai

NOT_CONFIGURED = (
    "no model endpoint configured: set OPENAI_API_KEY for OpenAI, or point ctxchat at a "
    "local server with OPENAI_BASE_URL=http://localhost:11434/v1 (Ollama) or "
    "[model] base_url in the config file"
)


@dataclass
class _PendingCall:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


class _ReplyAssembler:
    """Builds one assistant message from streamed chunks."""

    def __init__(self, on_event: EventSink) -> None:
        self.on_event = on_event
        self.text: list[str] = []
        self.calls: dict[int, _PendingCall] = {}
        self.usage: Usage | None = None
        self.finish_reason: str | None = None

    def add(self, chunk: Any) -> None:
        if getattr(chunk, "usage", None) is not None:
            self.usage = Usage(chunk.usage.prompt_tokens or 0, chunk.usage.completion_tokens or 0)
        for choice in chunk.choices or ():
            delta = choice.delta
            if delta is not None and delta.content:
                self.text.append(delta.content)
                # Whatever the sink raises (a closed stdout's BrokenPipeError...) is the
                # caller's own failure and reaches it as it is: `complete` translates only
                # what reading the stream raises.
                self.on_event(TextDelta(delta.content))
            for call in (delta.tool_calls if delta is not None else None) or ():
                pending = self.calls.setdefault(call.index, _PendingCall())
                if call.id:
                    pending.id = call.id
                if call.function is not None:
                    if call.function.name:
                        pending.name += call.function.name
                    if call.function.arguments:
                        pending.arguments.append(call.function.arguments)
            if choice.finish_reason:
                self.finish_reason = choice.finish_reason

    def reply(self) -> ModelReply:
        calls = [
            ToolCallPart(p.id or f"call_{i}", p.name, "".join(p.arguments))
            for i, p in sorted(self.calls.items())
        ]
        message = Message.assistant("".join(self.text), calls, usage=self.usage)
        return ModelReply(message, self.usage, self.finish_reason)


class OpenAIChatModel:
    """A `ChatModel` that streams from an OpenAI-compatible Chat Completions endpoint.

    `OpenAIChatModel("llama3.2", base_url="http://localhost:11434/v1")`, or with the
    `ModelSettings` of a config file.
    """

    def __init__(self, settings: ModelSettings | str, **options: Any) -> None:
        if isinstance(settings, str):
            settings = ModelSettings(model=settings, **options)
        elif options:
            from dataclasses import replace

            settings = replace(settings, **options)
        self.settings = settings
        self._client: openai.AsyncOpenAI | None = None
        self._client_loop: asyncio.AbstractEventLoop | None = None
        self._closer: Any = None

    @property
    def name(self) -> str:
        return self.settings.model

    def check(self) -> None:
        if not self.settings.api_key and not self.settings.base_url:
            raise ModelNotConfigured(NOT_CONFIGURED)

    def client(self) -> openai.AsyncOpenAI:
        # The async client's connection pool belongs to the event loop it was first used
        # on; a caller that runs turns under separate asyncio.run() calls gets a new one,
        # and the old one was closed as its loop ended (see `_close_with_loop`).
        loop = asyncio.get_running_loop()
        if self._client is not None and self._client_loop is not loop:
            self._client = None
        self._client_loop = loop
        if self._client is None:
            self.check()
            settings = self.settings
            import openai

            self._client = openai.AsyncOpenAI(
                # Local servers (Ollama, llama.cpp) ignore the key but the client wants one.
                api_key=settings.api_key or "not-needed",
                base_url=settings.base_url,
                timeout=settings.timeout,
                max_retries=settings.retries,
            )
            self._closer = _close_with_loop(self._client)
        return self._client

    def with_model(self, name: str) -> OpenAIChatModel:
        return OpenAIChatModel(self.settings, model=name)

    async def complete(self, request: ModelRequest, on_event: EventSink) -> ModelReply:
        client = self.client()
        settings = self.settings
        params: dict[str, Any] = {
            "model": settings.model,
            "messages": to_openai_messages(request.messages),
            "stream": True,
            "stream_options": {"include_usage": True},
        }
        if request.tools:
            params["tools"] = [t.spec() for t in request.tools]
        if settings.temperature is not None:
            params["temperature"] = settings.temperature
        if settings.max_tokens is not None:
            params["max_tokens"] = settings.max_tokens
        params.update(request.options)
        assembler = _ReplyAssembler(on_event)
        try:
            stream = await client.chat.completions.create(**params)
        except Exception as exc:
            raise self._translate(exc) from exc
        try:
            while True:
                try:
                    chunk = await anext(stream)
                except StopAsyncIteration:
                    break
                except Exception as exc:
                    raise self._translate(exc, streaming=True) from exc
                assembler.add(chunk)
        finally:
            # Closed here on an error too (the sink's or the stream's): a half-read response
            # left to the garbage collector is closed from async-generator cleanup, which
            # fails noisily ("aclose(): asynchronous generator is already running").
            with contextlib.suppress(Exception):
                await stream.close()
        if assembler.finish_reason is None:
            raise ModelError(
                f"the reply stream from {settings.endpoint} ended before the reply was complete"
            )
        return assembler.reply()

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        client = self.client()
        try:
            result = await client.embeddings.create(
                model=self.settings.embedding_model, input=list(texts)
            )
        except Exception as exc:
            raise self._translate(exc) from exc
        ordered = sorted(result.data, key=lambda d: d.index)
        return [list(d.embedding) for d in ordered]

    def _translate(self, exc: Exception, *, streaming: bool = False) -> ModelError:
        """One clear line for each way the endpoint can fail; never the key, even when the
        server quotes it back in its own message."""
        text = self._describe(exc, streaming=streaming).message
        key = self.settings.api_key
        return ModelError(scrub_secrets(text.replace(key, "***") if key else text))

    def _describe(self, exc: Exception, *, streaming: bool) -> ModelError:
        import openai

        where = self.settings.endpoint
        if streaming and not isinstance(exc, openai.APITimeoutError):
            # The connection was up and the reply had begun: whatever broke, broke mid-way.
            return ModelError(f"the reply stream from {where} was cut mid-way")
        model = self.settings.model
        retries = self.settings.retries
        if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
            return ModelError(
                f"authentication failed at {where} (HTTP {exc.status_code}): "
                "set a valid key in OPENAI_API_KEY (or [model] api_key)"
            )
        if isinstance(exc, openai.NotFoundError):
            return ModelError(
                f"model '{model}' not found at {where} (HTTP 404): check [model] model, and "
                "that base_url ends with the API path, e.g. /v1"
            )
        if isinstance(exc, openai.RateLimitError):
            return ModelError(f"rate limited by {where} after {retries} retries (HTTP 429)")
        if isinstance(exc, openai.APITimeoutError):
            # A stream that stalls is not retried; a request that never answers is, so the
            # user waited the timeout once per attempt.
            attempts = 1 if streaming else retries + 1
            tried = f"{attempts} attempts; " if attempts > 1 else ""
            return ModelError(
                f"no reply from {where} within {self.settings.timeout:g}s "
                f"({tried}raise [model] timeout to wait longer)"
            )
        if isinstance(exc, openai.APIConnectionError):
            return ModelError(f"cannot reach {where}: is the server running?")
        if isinstance(exc, openai.APIStatusError):
            detail = _error_detail(exc)
            kind = "server error" if exc.status_code >= 500 else "request rejected"
            return ModelError(f"{kind} from {where} (HTTP {exc.status_code}){detail}")
        if isinstance(exc, openai.APIError):
            return ModelError(f"the endpoint {where} failed: {exc.message}")
        return ModelError(f"unexpected failure talking to {where}: {type(exc).__name__}: {exc}")


def _close_with_loop(client: openai.AsyncOpenAI) -> Any:
    """Close `client` when the event loop it belongs to ends.

    `asyncio.run` ends by closing every async generator still suspended in its loop, and
    it does so from inside the loop, where the client's connections can still be closed
    properly. Left to the garbage collector after the loop has closed instead, they fail
    noisily ("Event loop is closed"). The generator is started here and kept by the caller.
    """

    async def closer() -> AsyncGenerator[None, None]:
        try:
            yield
        finally:
            await client.close()

    generator = closer()
    # Step it to its `yield` (nothing before that awaits): the running loop now tracks it.
    with contextlib.suppress(StopIteration):
        generator.__anext__().send(None)
    return generator


def _error_detail(exc: Any) -> str:
    body = getattr(exc, "body", None)
    message = None
    if isinstance(body, dict):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, dict) else None
    if not message:
        return ""
    message = " ".join(str(message).split())
    return f": {message[:200]}"
