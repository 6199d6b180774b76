"""From a `Config` to a ready `Agent`: provider types looked up, options checked, built."""

from __future__ import annotations

from typing import Any

from ctxchat.config.loading import Config, ProviderSpec
from ctxchat.core.agent import Agent
from ctxchat.core.errors import ConfigError, CtxchatError
from ctxchat.core.model_types import ChatModel
from ctxchat.core.options import build_options
from ctxchat.core.paths import data_dir
from ctxchat.core.pipeline import in_memory_fallback
from ctxchat.core.provider import ContextProvider, ProviderEnv
from ctxchat.core.redact import remember_secret
from ctxchat.core.registry import load_provider_class
from ctxchat.services.model_client import OpenAIChatModel


def build_provider(spec: ProviderSpec, env: ProviderEnv) -> ContextProvider[Any]:
    cls = load_provider_class(spec.type, spec.where)
    options = build_options(cls.Options, spec.options, spec.where)
    try:
        return cls(spec.source_id, options, env=env)
    except CtxchatError as exc:
        raise ConfigError(f"{spec.where}: {exc}") from exc
    except Exception as exc:
        raise ConfigError(f"{spec.where} ('{spec.source_id}'): {exc}") from exc


def build_env(config: Config) -> ProviderEnv:
    return ProviderEnv(data_dir=data_dir(), storage_url=config.storage.url)


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
    # Scrubbed from every error text and traceback from now on: a server may quote the key
    # back, and an exception chain carries its message (see `ctxchat.core.redact`).
    remember_secret(config.model.api_key)
    chat_model = model if model is not None else OpenAIChatModel(config.model)
    env = build_env(config)
    providers = [build_provider(spec, env) for spec in config.providers]
    return Agent(
        model=chat_model,
        providers=providers,
        settings=config.agent,
        fallback_history=in_memory_fallback(env),
    )
