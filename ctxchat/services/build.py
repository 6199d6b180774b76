"""From a `Config` to a ready `Agent`: provider types looked up, options checked, built."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

from ctxchat.config.loading import Config, ProviderSpec
from ctxchat.core.agent import Agent
from ctxchat.core.capabilities import ChecksReach, Closes
from ctxchat.core.errors import EXIT_USAGE, ConfigError, CtxchatError, ProblemGroup
from ctxchat.core.handles import Handles
from ctxchat.core.model_types import ChatModel
from ctxchat.core.options import build_options
from ctxchat.core.paths import data_dir
from ctxchat.core.pipeline import in_memory_fallback
from ctxchat.core.progress import ProgressBars, no_bars
from ctxchat.core.provider import ContextProvider, ProviderEnv
from ctxchat.core.redact import remember_secret
from ctxchat.core.registry import load_provider_class
from ctxchat.services.model_client import OpenAIChatModel


def build_provider(spec: ProviderSpec, env: ProviderEnv) -> ContextProvider[Any]:
    cls = load_provider_class(spec.type, spec.where)
    try:
        options = build_options(cls.Options, spec.options, spec.where)
    except ConfigError as exc:
        raise _with_table_hints(exc, spec) from exc
    try:
        return cls(spec.source_id, options, env=env)
    except CtxchatError as exc:
        raise ConfigError(f"{spec.where}: {exc}") from exc
    except Exception as exc:
        raise ConfigError(f"{spec.where} ('{spec.source_id}'): {exc}") from exc


# Sub-tables a TOML file puts under the [[providers]] table written last before them: one
# meant for another provider lands in the wrong one when written after it.
_TABLE_OWNERS = {"mcp": "tools"}


def _with_table_hints(exc: ConfigError, spec: ProviderSpec) -> ConfigError:
    """`providers[5].mcp: unknown option`, with where the table belongs."""
    problems = []
    for problem in exc.problems:
        for key, owner in _TABLE_OWNERS.items():
            if problem.startswith(f"{spec.where}.{key}: unknown option") and spec.type != owner:
                problem += (
                    f" ([providers.{key}.NAME] tables belong to the '{owner}' provider: TOML "
                    f"puts a table under the [[providers]] above it, so move it right after "
                    f'the one with type = "{owner}")'
                )
        problems.append(problem)
    return ConfigError.of(problems)


def build_env(config: Config, progress: ProgressBars = no_bars) -> ProviderEnv:
    from ctxchat.services.embeddings import OpenAIEmbeddings

    # A local GGUF's server never runs in embedding mode (chat requests fail with it on):
    # with no [embeddings] endpoint of its own there is none, and `auto` ranks lexically.
    local_only = config.origins.get("model") == "local" and config.embeddings.base_url is None
    embeddings = None if local_only else OpenAIEmbeddings(config.embeddings, config.model)
    return ProviderEnv(
        data_dir=data_dir(),
        # The pipeline's own engines, closed with its providers: another pipeline of the
        # process (a second chat, a role switched to) never closes them under it.
        databases=Handles(),
        storage_url=config.storage.url,
        embeddings=embeddings,
        progress=progress,
        message_embeddings=embeddings if config.embeddings_origins else None,
    )


def build_agent(
    config: Config,
    *,
    model: ChatModel | None = None,
    no_memory: bool = False,
    temporary: bool = False,
    progress: ProgressBars = no_bars,
) -> Agent:
    """The agent the config describes; its errors name the config file, as loading does.

    `no_memory` leaves out the providers that remember the user (`run --no-memory`);
    `temporary` also every provider that stores outside the session (`run --temp`);
    `progress` shows the long work of providers outside a turn (a migration)."""
    try:
        return _build(config, model, no_memory=no_memory, temporary=temporary, progress=progress)
    except ConfigError as exc:
        if config.path is None:
            raise
        raise exc.prefixed(f"{config.path}: ") from exc


def validate_config(
    config: Config, problems: Sequence[str] = (), *, check: bool = True
) -> CtxchatError | None:
    """Everything wrong with a config, at once: the `problems` found loading it, each
    provider that cannot be built, and, when all can and `check` says so, each one's
    `check()` (SQL providers open their database). None when there is nothing to report.
    The error has a line per problem; it exits 2 when any is in the file, else as the
    first check's cause does."""
    found = list(problems)
    prefix = f"{config.path}: " if config.path is not None else ""
    env = build_env(config)
    providers, failures = _build_providers(config.providers, env)
    found += [prefix + failure for failure in failures]
    exit_code = EXIT_USAGE
    if failures or found or not check:
        _close_quietly(providers)
    else:
        try:
            agent = Agent(
                model=OpenAIChatModel(config.model),  # never asked: nothing is sent
                providers=providers,
                settings=config.agent,
                fallback_history=in_memory_fallback(env),
            )
        except ConfigError as exc:
            _close_quietly(providers)
            found += [prefix + problem for problem in exc.problems]
        else:
            try:
                checked = _check_providers(config, agent)
            finally:
                agent.close()
            if checked:
                exit_code = checked[0].exit_code
            found += [error.message for error in checked]
    if not found:
        return None
    return ProblemGroup(found, exit_code)


def _check_providers(config: Config, agent: Agent) -> list[CtxchatError]:
    """Each provider's `check()` failure, with its place in the config and its cause's
    exit code."""
    wheres = {spec.source_id: spec.where for spec in config.providers}
    prefix = f"{config.path}: " if config.path is not None else ""
    failures: list[CtxchatError] = []
    for provider in agent.run_providers():
        if not isinstance(provider, ChecksReach):
            continue
        try:
            provider.check()
        except CtxchatError as exc:
            where = wheres.get(provider.source_id, "provider")
            message = f"{prefix}{where} ('{provider.source_id}'): {exc.message}"
            failures.append(ProblemGroup([message], exc.exit_code))
    return failures


def _build_providers(
    specs: Sequence[ProviderSpec], env: ProviderEnv
) -> tuple[list[ContextProvider[Any]], list[str]]:
    """The providers that could be built, and what is wrong with the others."""
    built: list[ContextProvider[Any]] = []
    problems: list[str] = []
    for spec in specs:
        try:
            built.append(build_provider(spec, env))
        except ConfigError as exc:
            problems.extend(exc.problems)
    return built, problems


def _close_quietly(providers: Sequence[ContextProvider[Any]]) -> None:
    for provider in providers:
        if isinstance(provider, Closes):
            with contextlib.suppress(Exception):
                provider.close()


def _build(
    config: Config,
    model: ChatModel | None,
    *,
    no_memory: bool,
    temporary: bool,
    progress: ProgressBars,
) -> Agent:
    from ctxchat.services.memories import without

    # Scrubbed from every error text and traceback from now on: a server may quote the key
    # back, and an exception chain carries its message (see `ctxchat.core.redact`).
    remember_secret(config.model.api_key)
    chat_model = model if model is not None else OpenAIChatModel(config.model)
    env = build_env(config, progress)
    providers, problems = _build_providers(config.providers, env)
    if problems:
        _close_quietly(providers)
        raise ConfigError.of(problems)
    if no_memory or temporary:
        providers = without(providers, memory=no_memory, outside=temporary)
    return Agent(
        model=chat_model,
        providers=providers,
        settings=config.agent,
        fallback_history=in_memory_fallback(env),
    )
