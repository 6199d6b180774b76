"""`ctxchat recall index`: old history given vectors, for hybrid search and recall.

New messages are embedded after each turn (by the recall provider); what was stored before
`[embeddings]` was set, or while its endpoint was down, is embedded only when asked: on a
paid endpoint every message costs money, so the count is shown first.
"""

from __future__ import annotations

from collections.abc import Callable

from ctxchat.config.loading import Config
from ctxchat.core.capabilities import EmbeddableHistory
from ctxchat.core.errors import UsageError


class VectorIndexer:
    """The configured SQL history, opened for embedding this home's rows of the user."""

    def __init__(self, config: Config) -> None:
        from ctxchat.services.build import build_env, build_provider
        from ctxchat.services.recall_eval import history_spec

        env = build_env(config)
        if env.message_embeddings is None:
            raise UsageError("recall index needs an [embeddings] table in the config")
        provider = build_provider(history_spec(config), env)
        if not isinstance(provider, EmbeddableHistory):
            raise UsageError("recall index needs a sql_history provider")
        self.provider = provider
        self.history: EmbeddableHistory = provider
        self.model = config.embeddings.model

    async def count(self) -> int:
        return await self.history.count_unembedded()

    async def embed(self, progress: Callable[[int, int], None] | None = None) -> int:
        try:
            return await self.history.embed_unembedded(progress=progress)
        finally:
            self.provider.close()
