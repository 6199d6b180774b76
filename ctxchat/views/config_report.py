"""The effective configuration as TOML-like text, secrets masked, each value's origin noted.

Printed by `ctxchat config show`. It is for reading, not for pasting back: masked values and
comments about origins are not a config file.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ctxchat.config.loading import Config, ProviderSpec
from ctxchat.config.toml_values import toml_value
from ctxchat.core.capabilities import InDatabase
from ctxchat.core.redact import is_secret_name, is_url_name, mask_password, mask_url
from ctxchat.core.settings import mask_secret

if TYPE_CHECKING:
    from ctxchat.core.agent import Agent
    from ctxchat.core.limits import ContextLimits


def masked(name: str, value: Any) -> Any:
    """The value safe to print: secrets replaced, credentials in URLs hidden."""
    if is_secret_name(name):
        return mask_secret(str(value)) if value else mask_secret(None)
    if isinstance(value, str) and is_url_name(name):
        return mask_url(value)
    return value


def masked_toml(value: Any) -> str:
    """`value` after `key = `, the secrets of its tables masked (an MCP server's `env` may
    hold a token)."""
    return toml_value(value, masked)


def _line(name: str, value: Any, note: str = "") -> str:
    if value is None:
        # TOML has no null: an omitted key is how a config file leaves a value unset.
        return f"# {name}: not set" + (f" ({note})" if note and note != "default" else "")
    text = f"{name} = {masked_toml(masked(name, value))}"
    return f"{text}  # {note}" if note else text


def _table(name: str, values: Mapping[str, Any], origins: Mapping[str, str]) -> list[str]:
    lines = [f"[{name}]"]
    for key, value in values.items():
        lines.append(_line(key, value, origins.get(key, "default")))
    return lines


def history_note(agent: Agent) -> str:
    provider = agent.history_provider
    if provider is not None:
        return f"history: provider '{provider.source_id}' ({type(provider).__name__}) loads it"
    fallback = agent.fallback_history
    if fallback is not None:
        return (
            "history: no configured provider loads it, so an in-session history "
            f"('{fallback.source_id}', kept in each session file) is added"
        )
    return "history: nothing loads it; the model sees no earlier turns"


def _storage(config: Config) -> list[str]:
    url = config.storage.url
    unset = "SQL-backed providers default to history.sqlite3 in the data dir"
    return ["[storage]", _line("url", url, "file" if url else unset)]


def _database_line(provider: InDatabase, spec: ProviderSpec, config: Config) -> str:
    """Where the provider's tables are, resolved (the data dir's path filled in), and which
    setting put them there: the one thing its `url` line cannot say when it is not set."""
    if spec.options.get("url"):
        origin = "from its own url"
    elif config.storage.url:
        origin = "from [storage] url"
    else:
        origin = "the default"
    return f"# database: {mask_password(provider.database_url())} ({origin})"


def window_note(limits: ContextLimits | None) -> str:
    """Which context window a request is fitted to, and where that figure came from."""
    from ctxchat.core.limits import WINDOW_ORIGINS

    if limits is None:
        return "context window: found when a chat starts (the endpoint names its model then)"
    return (
        f"context window: {limits.window:,} tokens ({WINDOW_ORIGINS[limits.source]}), "
        f"{limits.reply_room:,} of them kept for the reply"
    )


def describe_config(config: Config, agent: Agent, limits: ContextLimits | None = None) -> str:
    if config.path is not None:
        head = f"# effective configuration: {config.path}, then environment, then flags"
    else:
        head = "# effective configuration: no config file (built-in defaults), environment, flags"
    if config.project_file is not None:
        head = head.replace(
            ", then environment", f", then project {config.project_file}, then environment"
        )
        head = head.replace("), environment", f"), project {config.project_file}, environment")
    model = dataclasses.asdict(config.model)
    agent_values = dataclasses.asdict(config.agent)
    origins = dict(config.origins)
    if config.model.model is None:
        origins["model"] = (
            "gpt-4o-mini on OpenAI"
            if config.model.on_openai
            else "the one model the endpoint lists is used; asked when a chat starts"
        )
    lines = [head, ""]
    if config.project is not None:
        lines += [f"# project: {config.project.id} ({config.project.root})", ""]
    lines += [*_table("model", model, origins), f"# {window_note(limits)}", ""]
    lines += _table("agent", agent_values, config.agent_origins)
    embeddings = dataclasses.asdict(config.embeddings)
    lines += ["", *_table("embeddings", embeddings, config.embeddings_origins)]
    lines += ["", *_storage(config)]
    for spec, provider in zip(config.providers, agent.providers, strict=True):
        note = "built-in default pipeline" if config.default_pipeline else spec.where
        lines += ["", f"[[providers]]  # {note}", _line("type", spec.type)]
        lines.append(_line("source_id", spec.source_id))
        options = provider.options
        is_instance = dataclasses.is_dataclass(options) and not isinstance(options, type)
        values = dataclasses.asdict(options) if is_instance else {}
        for key, value in values.items():
            lines.append(_line(key, value, "set" if key in spec.options else "default"))
        if isinstance(provider, InDatabase):
            lines.append(_database_line(provider, spec, config))
    lines += ["", f"# {history_note(agent)}"]
    return "\n".join(lines) + "\n"
