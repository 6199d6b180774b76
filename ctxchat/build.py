"""From a `Config` to a ready `Agent`: provider types looked up, options checked, built."""

from __future__ import annotations

from ctxchat.agent import Agent
from ctxchat.config import Config, ProviderSpec
from ctxchat.defaults import FALLBACK_HISTORY_ID, FALLBACK_HISTORY_TYPE
from ctxchat.errors import ConfigError, CtxchatError
from ctxchat.model_client import OpenAIChatModel
from ctxchat.model_types import ChatModel
from ctxchat.options import build_options
from ctxchat.paths import data_dir
from ctxchat.provider import ContextProvider, HistoryProvider, ProviderEnv
from ctxchat.registry import load_provider_class
from ctxchat.tools import ToolRegistry


def build_provider(spec: ProviderSpec, env: ProviderEnv) -> ContextProvider:
    cls = load_provider_class(spec.type, spec.where)
    options = build_options(cls.Options, spec.options, spec.where)
    try:
        return cls(spec.source_id, options, env=env)
    except CtxchatError as exc:
        raise ConfigError(f"{spec.where}: {exc}") from exc
    except Exception as exc:
        raise ConfigError(f"{spec.where} ('{spec.source_id}'): {exc}") from exc


def build_env(config: Config, model: ChatModel) -> ProviderEnv:
    return ProviderEnv(data_dir=data_dir(), tools=ToolRegistry(), chat_model=model)


def build_agent(config: Config, *, model: ChatModel | None = None) -> Agent:
    """The agent the config describes; its errors name the config file, as loading does."""
    try:
        return _build(config, model)
    except ConfigError as exc:
        if config.path is None:
            raise
        raise ConfigError(f"{config.path}: {exc.message}") from exc


def check_agent(config: Config, agent: Agent) -> None:
    """Run every provider's `check()` (SQL providers open their database), each failure
    reported with the provider's place in the config and the exit code of its cause."""
    wheres = {spec.source_id: spec.where for spec in config.providers}
    for provider in agent.run_providers():
        try:
            provider.check()
        except CtxchatError as exc:
            where = wheres.get(provider.source_id, "provider")
            prefix = f"{config.path}: " if config.path is not None else ""
            failure = CtxchatError(f"{prefix}{where} ('{provider.source_id}'): {exc.message}")
            failure.exit_code = exc.exit_code
            raise failure from exc


def _build(config: Config, model: ChatModel | None) -> Agent:
    chat_model = model if model is not None else OpenAIChatModel(config.model)
    env = build_env(config, chat_model)
    providers = [build_provider(spec, env) for spec in config.providers]
    taken = {p.source_id for p in providers}

    def fallback() -> HistoryProvider:
        cls = load_provider_class(FALLBACK_HISTORY_TYPE, "fallback history")
        source_id = FALLBACK_HISTORY_ID
        n = 2
        while source_id in taken:
            source_id, n = f"{FALLBACK_HISTORY_ID}_{n}", n + 1
        provider = cls(source_id, env=env)
        if not isinstance(provider, HistoryProvider):
            raise ConfigError(f"'{FALLBACK_HISTORY_TYPE}' is not a history provider")
        return provider

    return Agent(
        model=chat_model, providers=providers, settings=config.agent, fallback_history=fallback
    )
