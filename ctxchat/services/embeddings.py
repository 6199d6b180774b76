"""The embeddings endpoint, through the `openai` package: `[embeddings]` in the config,
defaulting to the chat endpoint and its key.

Whether the endpoint serves embeddings at all is asked once (one tiny request) and
remembered per endpoint and model in the data dir, beside the context-size answers: many
local servers serve chat only, and a tool selector that tried to embed on every start
would pay a failed request each time.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from typing import TYPE_CHECKING, Any

from ctxchat.core.errors import ModelError

if TYPE_CHECKING:
    import openai

    from ctxchat.core.settings import EmbeddingSettings, ModelSettings


class OpenAIEmbeddings:
    """Vectors from an OpenAI-compatible `/v1/embeddings`; one client per event loop."""

    def __init__(self, settings: EmbeddingSettings, chat: ModelSettings) -> None:
        self.settings = settings
        self.base_url = settings.base_url or chat.base_url
        key_variable = settings.api_key_env
        self.api_key = os.environ.get(key_variable) if key_variable else chat.api_key
        self.timeout = chat.timeout
        self.retries = chat.retries
        self._client: openai.AsyncOpenAI | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closer: Any = None
        self._available: bool | None = None

    @property
    def identity(self) -> str:
        from ctxchat.ranking.cache import ranker_identity

        return ranker_identity(
            self.settings.model, self.base_url, dimensions=self.settings.dimensions
        )

    def _client_for_loop(self) -> openai.AsyncOpenAI:
        loop = asyncio.get_running_loop()
        if self._client is None or self._loop is not loop:
            import openai

            from ctxchat.services.http_client import async_http_client
            from ctxchat.services.model_client import close_with_loop

            if not self.api_key and not self.base_url:
                raise ModelError("no embeddings endpoint: set OPENAI_API_KEY or a base_url")
            self._client = openai.AsyncOpenAI(
                api_key=self.api_key or "not-needed",
                base_url=self.base_url,
                timeout=self.timeout,
                max_retries=self.retries,
                http_client=async_http_client(timeout=self.timeout),
            )
            self._loop = loop
            self._closer = close_with_loop(self._client)
        return self._client

    async def embed(self, texts: list[str]) -> list[list[float]]:
        from ctxchat.ranking.embedding import openai_embedder

        embed = openai_embedder(
            self._client_for_loop(), self.settings.model, dimensions=self.settings.dimensions
        )
        try:
            return await embed(texts)
        except Exception as exc:
            where = self.base_url or "OpenAI"
            raise ModelError(f"embeddings from {where} failed: {type(exc).__name__}") from exc

    async def available(self) -> bool:
        if self._available is not None:
            return self._available
        from ctxchat.core.paths import data_dir
        from ctxchat.services.model_info import EndpointCache

        cache = EndpointCache(data_dir())
        key = f"embeddings {self.identity}"
        known = cache.get(key)
        if known is not None:
            self._available = bool(known.get("serves"))
            return self._available
        serves = False
        with contextlib.suppress(ModelError):
            serves = len(await self.embed(["probe"])) == 1
        cache.put(key, {"serves": serves})
        self._available = serves
        return serves
