"""The chat model behind any OpenAI-compatible endpoint, through the `openai` package.

`openai` costs about half a second to import, so it is imported on the first call only.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncGenerator
from typing import TYPE_CHECKING, Any

from ctxchat.core.errors import ModelError, ModelNotConfigured
from ctxchat.core.model_types import (
    EventSink,
    ModelNotice,
    ModelReply,
    ModelRequest,
)
from ctxchat.core.openai_format import to_openai_messages
from ctxchat.core.settings import ModelSettings
from ctxchat.services.model_failures import error_detail, failure, image_refusal, refuses_images
from ctxchat.services.reply_stream import ReplyAssembler

if TYPE_CHECKING:
    import openai

    from ctxchat.core.limits import ContextLimits
    from ctxchat.services.tool_support import ToolSupport

NOT_CONFIGURED = (
    "no model endpoint configured: set OPENAI_API_KEY for OpenAI, or point ctxchat at a "
    "local server with OPENAI_BASE_URL=http://localhost:11434/v1 (Ollama) or "
    "[model] base_url in the config file"
)


class NoModelList(ModelError):
    """The endpoint serves no list of its models (`GET /models` is 404)."""


class OpenAIChatModel:
    """A `ChatModel` that streams from an OpenAI-compatible Chat Completions endpoint.

    `OpenAIChatModel("llama3.2", base_url="http://localhost:11434/v1")`, or with the
    `ModelSettings` of a config file.
    """

    def __init__(
        self,
        settings: ModelSettings | str,
        *,
        tool_support: ToolSupport | None = None,
        **options: Any,
    ) -> None:
        # The pairs known not to take tools (see `tool_support`): shared with the models
        # derived from this one, read from the data dir on first use.
        self._tool_support = tool_support
        if isinstance(settings, str):
            settings = ModelSettings(model=settings, **options)
        elif options:
            from dataclasses import replace

            settings = replace(settings, **options)
        self.settings = settings
        self._client: openai.AsyncOpenAI | None = None
        self._client_loop: asyncio.AbstractEventLoop | None = None
        self._closer: Any = None
        self._limits: ContextLimits | None = None
        self._said_no_tools = False

    @property
    def name(self) -> str:
        return self.settings.model_name

    def check(self) -> None:
        self._check_endpoint()
        if not self.name:
            raise ModelNotConfigured(
                f"no model named for {self.settings.endpoint}: name one with --model, "
                "CTXCHAT_MODEL or [model] model"
            )

    def _check_endpoint(self) -> None:
        if not self.settings.api_key and not self.settings.base_url:
            raise ModelNotConfigured(NOT_CONFIGURED)

    def client(self) -> openai.AsyncOpenAI:
        # The async client's connection pool belongs to the event loop it was first used
        # on; a caller that runs turns under separate asyncio.run() calls gets a new one,
        # and the old one was closed as its loop ended (see `close_with_loop`).
        loop = asyncio.get_running_loop()
        if self._client is not None and self._client_loop is not loop:
            self._client = None
        self._client_loop = loop
        if self._client is None:
            self._check_endpoint()
            settings = self.settings
            import openai

            from ctxchat.services.http_client import async_http_client

            self._client = openai.AsyncOpenAI(
                # Local servers (Ollama, llama.cpp) ignore the key but the client wants one.
                api_key=settings.api_key or "not-needed",
                base_url=settings.base_url,
                timeout=settings.timeout,
                max_retries=settings.retries,
                http_client=async_http_client(timeout=settings.timeout),
            )
            self._closer = close_with_loop(self._client)
        return self._client

    async def limits(self) -> ContextLimits:
        """The window: `[model] context_window` if set, else what the endpoint reports for
        this model (asked once, remembered: see `model_info`), else the default; tokens
        counted by the endpoint's tokenizer, or tiktoken for OpenAI's models, or estimated."""
        if self._limits is None:
            self._limits = await asyncio.to_thread(self._find_limits)
        return self._limits

    def _find_limits(self) -> ContextLimits:
        from ctxchat.core.limits import DEFAULT_WINDOW, ContextLimits
        from ctxchat.services import model_info

        settings = self.settings
        reserve = settings.max_tokens
        if settings.base_url is None:  # OpenAI itself
            from ctxchat.core.tokens import tiktoken_counter

            counter = tiktoken_counter()
            if settings.context_window:
                return ContextLimits(settings.context_window, "config", reserve, counter)
            known = model_info.openai_window(self.name)
            if known:
                return ContextLimits(known, "endpoint", reserve, counter)
            return ContextLimits(DEFAULT_WINDOW, "default", reserve, counter)
        from ctxchat.core.paths import data_dir

        headers = {"Authorization": f"Bearer {settings.api_key}"} if settings.api_key else {}
        cache = model_info.EndpointCache(data_dir())
        key = model_info.endpoint_key(settings.base_url, self.name)
        found = cache.get(key)
        if found is None or (found.get("tokenize") and "template" not in found):
            found = model_info.probe(settings.base_url, self.name, headers)
            cache.put(key, found)
        counter = None
        template = found.get("template")
        template = template if isinstance(template, dict) else {}
        if found.get("tokenize"):
            counter = model_info.llama_cpp_counter(
                settings.base_url, headers, model=self.name, data_dir=data_dir()
            )
            counter = model_info.with_template(counter, template.get("message"))
        prompt = template.get("prompt")
        said: dict[str, Any] = {
            "uncapped": found.get("uncapped") is True,
            "takes_tools": found.get("tools") is not False,
            "prompt_overhead": prompt if isinstance(prompt, int) and 0 <= prompt < 256 else 0,
        }
        if settings.context_window:
            return ContextLimits(settings.context_window, "config", reserve, counter, **said)
        reported = found.get("window")
        if isinstance(reported, int) and model_info.usable_window(reported):
            return ContextLimits(reported, "endpoint", reserve, counter, **said)
        return ContextLimits(DEFAULT_WINDOW, "default", reserve, counter, **said)

    def with_model(self, name: str) -> OpenAIChatModel:
        return OpenAIChatModel(self.settings, tool_support=self.tool_support, model=name)

    @property
    def tool_support(self) -> ToolSupport:
        if self._tool_support is None:
            from ctxchat.services.tool_support import default_tool_support

            self._tool_support = default_tool_support()
        return self._tool_support

    async def list_models(self, *, timeout: float | None = None) -> list[str]:
        """The ids of the models the endpoint serves (`GET /models`), as it lists them."""
        import openai

        client = self.client()
        if timeout is not None:
            client = client.with_options(timeout=timeout, max_retries=0)
        try:
            page = await client.models.list()
        except openai.NotFoundError as exc:
            raise NoModelList(
                f"{self.settings.endpoint} does not list its models (HTTP 404)"
            ) from exc
        except Exception as exc:
            raise failure(exc, self.settings, self.name) from exc
        return [str(item.id) for item in page.data]

    async def complete(self, request: ModelRequest, on_event: EventSink) -> ModelReply:
        self.check()
        client = self.client()
        settings = self.settings
        params: dict[str, Any] = {
            "model": self.name,
            "messages": to_openai_messages(request.messages),
            "stream": True,
            "stream_options": {"include_usage": True},
        }
        if request.tools and self._takes_tools(on_event):
            params["tools"] = [t.spec() for t in request.tools]
        if settings.temperature is not None:
            params["temperature"] = settings.temperature
        if settings.max_tokens is not None:
            params["max_tokens"] = settings.max_tokens
        elif "max_tokens" not in request.options:
            # A server with no cap of its own would let a reply run until the window is
            # full: it gets the room the budget keeps for the reply. One with its own cap
            # (OpenAI, most hosted APIs) keeps it.
            limits = await self.limits()
            if limits.uncapped:
                params["max_tokens"] = limits.reply_room
        params.update(request.options)
        asked = request.options.get("max_tokens")
        if isinstance(asked, int):
            # An internal call's own cap (a summary, memory extraction), within what the
            # window has left after the request (at least the room kept for a reply): a
            # server asked for more than fits shifts its context and writes on and on.
            limits = await self.limits()
            used = sum(limits.count_text(m.text) + 4 for m in request.messages)
            params["max_tokens"] = min(asked, max(limits.reply_room, limits.window - used))
        assembler = ReplyAssembler(on_event)
        stream: Any = await self._direct_stream(params)
        try:
            if stream is None:
                stream = await client.chat.completions.create(**params)
        except Exception as exc:
            if any(m.images for m in request.messages) and refuses_images(exc):
                raise image_refusal(exc, settings, self.name) from exc
            if "tools" not in params or not self._refused_tools(exc, on_event):
                raise failure(exc, settings, self.name) from exc
            # The model cannot take tools: the same request once more without them.
            del params["tools"]
            try:
                stream = await client.chat.completions.create(**params)
            except Exception as again:
                raise failure(again, settings, self.name) from again
        try:
            while True:
                try:
                    # A stream that stalls is a timeout, named, not minutes of silence.
                    # Not `wait_for`: on 3.11 it returns a chunk that arrives together with
                    # a Ctrl-C and drops the cancellation, so the reply would run on.
                    async with asyncio.timeout(settings.read_timeout):
                        chunk = await anext(stream)
                except StopAsyncIteration:
                    break
                except TimeoutError:
                    raise ModelError(
                        f"timed out: {settings.endpoint} sent nothing of the reply for "
                        f"{settings.read_timeout:g}s (raise [model] read_timeout to wait longer)"
                    ) from None
                except Exception as exc:
                    raise failure(exc, settings, self.name, streaming=True) from exc
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

    async def _direct_stream(self, params: dict[str, Any]) -> Any:
        """The reply's stream read without the openai client, when the endpoint is a
        llama.cpp child server of this process (see `direct_stream`); None otherwise, and
        when that server did not answer with a stream (the openai client then asks, and
        says why)."""
        local = sys.modules.get("ctxchat.services.local_model")
        if local is None or not local.runs_here(self.settings.base_url):
            return None
        from ctxchat.services.direct_stream import DirectRefused, open_stream

        try:
            return await open_stream(
                str(self.settings.base_url), params, timeout=self.settings.timeout
            )
        except DirectRefused:
            return None

    def _takes_tools(self, on_event: EventSink) -> bool:
        """Whether to send tools: not to a model that refused them before (on disk)."""
        if self.tool_support.takes_tools(self.settings.endpoint, self.name):
            return True
        self._say_no_tools(on_event)
        return False

    def _refused_tools(self, exc: Exception, on_event: EventSink) -> bool:
        """Whether `exc` is the endpoint saying the model cannot take tools; if so, it is
        remembered for this endpoint and model and said once."""
        import openai

        from ctxchat.services.tool_support import refuses_tools

        if not isinstance(exc, openai.APIStatusError) or exc.status_code == 401:
            return False
        said = error_detail(exc).removeprefix(": ") or str(exc.message)
        if not refuses_tools(said):
            return False
        self.tool_support.remember_no_tools(self.settings.endpoint, self.name, said)
        self._say_no_tools(on_event)
        return True

    def _say_no_tools(self, on_event: EventSink) -> None:
        if not self._said_no_tools:
            self._said_no_tools = True
            on_event(
                ModelNotice(
                    f"tools are off for {self.name} at {self.settings.endpoint}: "
                    "the model does not support them"
                )
            )


def close_with_loop(client: openai.AsyncOpenAI) -> Any:
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


def window_in_effect(settings: ModelSettings) -> ContextLimits | None:
    """The window a chat with these settings fits its requests to, found as a turn finds
    it (asking the endpoint once, then from the cache); None when no model is named and
    the endpoint must be asked which it serves."""
    if not settings.model_name:
        return None
    return asyncio.run(OpenAIChatModel(settings).limits())
