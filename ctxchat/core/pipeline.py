"""The rules a provider list must satisfy, and the history a pipeline gets when none of its
providers loads one."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ctxchat.core.errors import ConfigError
from ctxchat.core.provider import ContextProvider, HistoryProvider, ProviderEnv

FallbackFactory = Callable[[set[str]], HistoryProvider[Any]]

FALLBACK_HISTORY_TYPE = "in_memory_history"
FALLBACK_HISTORY_ID = "session_history"


def validate_pipeline(providers: Sequence[ContextProvider[Any]]) -> None:
    """The rules a provider list must satisfy, each reported with the offending entries."""
    seen: dict[str, int] = {}
    for index, provider in enumerate(providers):
        if provider.source_id in seen:
            raise ConfigError(
                f"providers[{seen[provider.source_id]}] and providers[{index}] share "
                f"source_id '{provider.source_id}': each provider needs its own"
            )
        seen[provider.source_id] = index
    loaders = [
        f"providers[{i}] ('{p.source_id}')"
        for i, p in enumerate(providers)
        if isinstance(p, HistoryProvider) and p.load_messages
    ]
    if len(loaders) > 1:
        raise ConfigError(
            f"more than one history provider loads messages: {', '.join(loaders)}; "
            "set load_messages = false on all but one"
        )


def in_memory_fallback(env: ProviderEnv | None = None) -> FallbackFactory:
    """The history a pipeline gets when none of its providers loads one: the conversation
    kept in the session itself, found through the entry points like any provider."""

    def build(taken: set[str]) -> HistoryProvider[Any]:
        from ctxchat.core.registry import load_provider_class

        cls = load_provider_class(FALLBACK_HISTORY_TYPE, "fallback history")
        source_id, n = FALLBACK_HISTORY_ID, 2
        while source_id in taken:
            source_id, n = f"{FALLBACK_HISTORY_ID}_{n}", n + 1
        provider = cls(source_id, env=env)
        if not isinstance(provider, HistoryProvider):
            raise ConfigError(f"'{FALLBACK_HISTORY_TYPE}' is not a history provider")
        return provider

    return build


DEFAULT_FALLBACK = in_memory_fallback()
