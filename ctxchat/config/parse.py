"""A config document (the file's TOML, with a project's laid over it) checked table by
table into a `Config`, with the environment's and the flags' model settings on top; every
problem collected, each naming its key path or its own source."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

from ctxchat.config.defaults import DEFAULT_PIPELINE
from ctxchat.config.effective import Config, ProviderSpec
from ctxchat.config.prices import parse_prices
from ctxchat.config.projects import project_settings_problems
from ctxchat.config.roles import parse_roles
from ctxchat.core.errors import ConfigError
from ctxchat.core.options import OptionValueError, build_options, did_you_mean
from ctxchat.core.provider import SOURCE_ID_PATTERN, SOURCE_ID_RULE
from ctxchat.core.settings import (
    AgentSettings,
    AttachmentSettings,
    EmbeddingSettings,
    ModelSettings,
    StorageSettings,
)

T = TypeVar("T")

TOP_LEVEL_KEYS = [
    "model",
    "agent",
    "embeddings",
    "storage",
    "attachments",
    "providers",
    "roles",
    "projects",
    "prices",
]
# Environment variable -> [model] key. They override the file; flags override them.
ENV_OVERRIDES = {
    "OPENAI_API_KEY": "api_key",
    "OPENAI_BASE_URL": "base_url",
    "CTXCHAT_MODEL": "model",
}


def config_problems(
    data: Mapping[str, Any],
    *,
    path: Path | None,
    environ: Mapping[str, str],
    model_overrides: Mapping[str, Any],
    instructions: str | None = None,
) -> tuple[Config, list[str]]:
    problems = _Problems()
    config = _parse(data, path, environ, model_overrides, instructions, problems)
    prefix = f"{path}: " if path else ""
    return config, [*problems.own_source, *(prefix + problem for problem in problems)]


class _Problems(list[str]):
    """What is wrong, collected table by table instead of stopping at the first. Those in
    `own_source` name where the value came from themselves (an environment variable, a
    flag): they are not the file's."""

    def __init__(self) -> None:
        super().__init__()
        self.own_source: list[str] = []

    def build(self, options_cls: type[T], raw: Mapping[str, Any], where: str) -> T:
        try:
            return build_options(options_cls, raw, where)
        except ConfigError as exc:
            self.extend(exc.problems)
            return options_cls()


def _parse(
    data: Mapping[str, Any],
    path: Path | None,
    environ: Mapping[str, str],
    model_overrides: Mapping[str, Any],
    instructions: str | None,
    problems: _Problems,
) -> Config:
    for key in data:
        if key not in TOP_LEVEL_KEYS:
            problems.append(f"{key}: unknown setting{did_you_mean(key, TOP_LEVEL_KEYS)}")
    model_table = _table(data, "model", problems)
    origins = dict.fromkeys(model_table, "file")
    model = problems.build(ModelSettings, model_table, "model")
    # Each value from the environment or a flag is checked on its own, so a bad one is
    # blamed on where it came from (`OPENAI_BASE_URL: ...`), never on the config file.
    overrides: list[tuple[str, Any, str]] = [
        (key, environ[var], var) for var, key in ENV_OVERRIDES.items() if environ.get(var)
    ]
    overrides += [
        (key, value, "--" + key.replace("_", "-"))
        for key, value in model_overrides.items()
        if value is not None
    ]
    for key, value, source in overrides:
        origins[key] = "flag" if source.startswith("--") else f"env {source}"
        try:
            model = replace(model, **{key: value})
        except ValueError as exc:
            problems.own_source.append(f"{source}: {_problem_of(exc)}")
        except TypeError as exc:
            problems.own_source.append(f"{source}: {exc}")

    agent_table = dict(_table(data, "agent", problems))
    agent_origins = dict.fromkeys(agent_table, "file")
    if instructions is not None:
        agent_table["instructions"] = instructions
        agent_origins["instructions"] = "flag"
    agent = problems.build(AgentSettings, agent_table, "agent")
    storage = problems.build(StorageSettings, _table(data, "storage", problems), "storage")
    embeddings_table = _table(data, "embeddings", problems)
    embeddings = problems.build(EmbeddingSettings, embeddings_table, "embeddings")
    attachments_table = _table(data, "attachments", problems)
    attachments = problems.build(AttachmentSettings, attachments_table, "attachments")

    if "providers" in data:
        raw = data["providers"]
        specs: list[ProviderSpec] = []
        if not isinstance(raw, list):
            problems.append("providers: expected an array of tables ([[providers]])")
            raw = []
        taken: dict[str, str] = {}
        for i, entry in enumerate(raw):
            try:
                spec = _provider_spec(entry, i)
            except ConfigError as exc:
                problems.extend(exc.problems)
                continue
            if spec.source_id in taken:
                problems.append(
                    f"{taken[spec.source_id]} and {spec.where} share source_id "
                    f"'{spec.source_id}': each provider needs its own"
                )
                continue
            taken[spec.source_id] = spec.where
            specs.append(spec)
        default = False
    else:
        specs = [
            ProviderSpec(type_name, source_id, dict(options), f"providers[{i}]")
            for i, (type_name, source_id, options) in enumerate(DEFAULT_PIPELINE)
        ]
        default = True
    problems.extend(project_settings_problems(data.get("projects", {})))
    source_ids = [spec.source_id for spec in specs]
    roles = parse_roles(data.get("roles", {}), source_ids, problems, str(path or "defaults"))
    prices = parse_prices(data.get("prices", {}), problems)
    return Config(
        path,
        model,
        agent,
        tuple(specs),
        default,
        origins,
        storage,
        embeddings,
        agent_origins,
        dict.fromkeys(embeddings_table, "file"),
        attachments,
        roles,
        prices=prices,
    )


def _problem_of(exc: ValueError) -> str:
    return exc.problem if isinstance(exc, OptionValueError) else str(exc)


def _table(data: Mapping[str, Any], key: str, problems: list[str]) -> Mapping[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        problems.append(f"{key}: expected a table ([{key}])")
        return {}
    return value


def _provider_spec(entry: Any, index: int) -> ProviderSpec:
    where = f"providers[{index}]"
    if not isinstance(entry, dict):
        raise ConfigError(f"{where}: expected a table")
    options = dict(entry)
    type_name = options.pop("type", None)
    if not isinstance(type_name, str) or not type_name:
        raise ConfigError(f"{where}.type: required, the provider type name")
    source_id = options.pop("source_id", type_name)
    if not isinstance(source_id, str) or not source_id.strip():
        raise ConfigError(f"{where}.source_id: expected a non-empty string")
    if not SOURCE_ID_PATTERN.match(source_id):
        # Checked here too, not only by the provider, so the message carries the key path.
        raise ConfigError(f"{where}.source_id: {source_id!r} {SOURCE_ID_RULE}")
    return ProviderSpec(type_name, source_id, options, where)
