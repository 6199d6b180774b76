"""The effective configuration: TOML file, then environment, then command-line flags."""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from ctxchat.config.defaults import DEFAULT_PIPELINE
from ctxchat.config.prices import Price, parse_prices
from ctxchat.config.projects import (
    TRUST_FILE,
    Project,
    ProjectLayer,
    merged,
    project_layer,
    project_settings_problems,
)
from ctxchat.config.roles import Role, parse_roles
from ctxchat.core.errors import ConfigError
from ctxchat.core.options import OptionValueError, build_options, did_you_mean
from ctxchat.core.paths import data_dir, default_config_path
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
MAX_CONFIG_BYTES = 1_000_000
# Environment variable -> [model] key. They override the file; flags override them.
ENV_OVERRIDES = {
    "OPENAI_API_KEY": "api_key",
    "OPENAI_BASE_URL": "base_url",
    "CTXCHAT_MODEL": "model",
}


@dataclass(frozen=True)
class ProviderSpec:
    """One `[[providers]]` entry, before its type is looked up."""

    type: str
    source_id: str
    options: Mapping[str, Any] = field(default_factory=dict)
    where: str = "providers[?]"


@dataclass(frozen=True)
class Config:
    path: Path | None  # the file read, or None when running on built-in defaults
    model: ModelSettings
    agent: AgentSettings
    providers: tuple[ProviderSpec, ...]
    default_pipeline: bool  # True when the file lists no providers
    origins: Mapping[str, str] = field(default_factory=dict)  # model key -> file/env/flag
    storage: StorageSettings = field(default_factory=StorageSettings)
    embeddings: EmbeddingSettings = field(default_factory=EmbeddingSettings)
    agent_origins: Mapping[str, str] = field(default_factory=dict)  # agent key -> file/flag
    embeddings_origins: Mapping[str, str] = field(default_factory=dict)  # key -> "file"
    attachments: AttachmentSettings = field(default_factory=AttachmentSettings)
    roles: Mapping[str, Role] = field(default_factory=dict)  # [roles.NAME], by name
    project: Project | None = None  # the project the command runs in (`config.projects`)
    project_file: Path | None = None  # its .ctxchat.toml, when laid over this config
    notices: tuple[str, ...] = ()  # for the user: a project file left unread, and why
    prices: Mapping[str, Price] = field(default_factory=dict)  # [prices."MODEL"], by model


def config_path(explicit: Path | None, environ: Mapping[str, str]) -> tuple[Path, bool]:
    """The config file to read and whether the user named it (then it must exist)."""
    if explicit is not None:
        return explicit.expanduser(), True
    from_env = environ.get("CTXCHAT_CONFIG")
    if from_env:
        return Path(from_env).expanduser(), True
    return default_config_path(), False


def read_toml(path: Path) -> dict[str, Any]:
    """The file's TOML; no more than `MAX_CONFIG_BYTES` of it is read: a config holds
    settings, and whatever it holds (a system prompt) is sent with every turn."""
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_CONFIG_BYTES + 1)
        if len(raw) > MAX_CONFIG_BYTES:
            raise ConfigError(f"config file {path} is over the limit of {MAX_CONFIG_BYTES:,} bytes")
        text = raw.decode("utf-8")
    except FileNotFoundError:
        raise ConfigError(f"config file {path} does not exist") from None
    except IsADirectoryError:
        raise ConfigError(f"config file {path} is a directory") from None
    except UnicodeDecodeError:
        raise ConfigError(f"config file {path} is not UTF-8 text") from None
    except OSError as exc:
        raise ConfigError(f"cannot read config file {path}: {exc.strerror}") from exc
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(
            f"{path}:{_toml_position(exc, text)} invalid TOML: {_toml_reason(exc)}"
        ) from exc


def _toml_position(exc: tomllib.TOMLDecodeError, text: str) -> str:
    line = getattr(exc, "lineno", None)
    col = getattr(exc, "colno", None)
    if line is None:
        found = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        if found:
            line, col = int(found.group(1)), int(found.group(2))
        elif "(at end of document)" in str(exc):
            lines = text.split("\n")
            line, col = len(lines), len(lines[-1]) + 1
    return f"{line}:{col}:" if line is not None else ""


def _toml_reason(exc: tomllib.TOMLDecodeError) -> str:
    message = getattr(exc, "msg", None) or str(exc)
    return re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", message)


def load_config(
    explicit: Path | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    model_overrides: Mapping[str, Any] | None = None,
    instructions: str | None = None,
    cwd: Path | None = None,
) -> Config:
    """The effective config; every problem in it raised at once (`ConfigError.problems`)."""
    config, problems = read_config(
        explicit,
        environ=environ,
        model_overrides=model_overrides,
        instructions=instructions,
        cwd=cwd,
    )
    if problems:
        raise ConfigError.of(problems)
    return config


def read_config(
    explicit: Path | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    model_overrides: Mapping[str, Any] | None = None,
    instructions: str | None = None,
    cwd: Path | None = None,
) -> tuple[Config, list[str]]:
    """The config and every problem found in it, each naming the file and key path. Where a
    table is wrong the config holds its defaults and a wrong provider entry is left out, so
    the rest can still be checked (`config validate` reports all). A file that cannot be
    read or parsed as TOML raises: nothing more can be said about it. The project the
    working directory (`cwd`) is in lays its trusted `.ctxchat.toml` over the file."""
    environ = os.environ if environ is None else environ
    data, source = _read_file(explicit, environ)
    layer = project_layer(cwd or Path.cwd(), data, data_dir() / TRUST_FILE)
    config, problems = config_problems(
        merged(data, layer.data) if layer.data else data,
        path=source,
        environ=environ,
        model_overrides=model_overrides or {},
        instructions=instructions,
    )
    file = layer.project.file if layer.data and layer.project is not None else None
    return _with_project(config, layer), [
        _blamed(problem, source, file, layer.data) for problem in problems
    ]


def _blamed(
    problem: str, source: Path | None, project_file: Path | None, layer: Mapping[str, Any]
) -> str:
    """A problem named after the file its key came from: the project's `.ctxchat.toml`
    when that set the key, else the user's config file."""
    prefix = f"{source}: " if source is not None else ""
    if project_file is None or not problem.startswith(prefix):
        return problem  # named its own source (a flag, an environment variable)
    said = problem[len(prefix) :]
    key = said.split(":", 1)[0]
    if key.startswith("--") or re.fullmatch(r"[A-Z][A-Z0-9_]*", key) or not _sets(layer, key):
        return problem
    return f"{project_file}: {said}"


def _sets(layer: Mapping[str, Any], key: str) -> bool:
    """Whether the key path `key` ("roles.x.instructionz") is set in `layer`."""
    node: Any = layer
    for part in key.replace('"', "").split("."):
        if not isinstance(node, Mapping) or part not in node:
            return False
        node = node[part]
    return True


def _with_project(config: Config, layer: ProjectLayer) -> Config:
    """The config told its project, and the project file named as the origin of what it
    set (unless the environment or a flag set it after)."""
    notices = (layer.notice,) if layer.notice else ()
    if not layer.data or layer.project is None or layer.project.file is None:
        return replace(config, project=layer.project, notices=notices)
    file = layer.project.file
    origin = f"project {file}"

    def marked(origins: Mapping[str, str], table: str) -> dict[str, str]:
        keys = layer.data.get(table)
        changed = dict(origins)
        for key in keys if isinstance(keys, dict) else ():
            if changed.get(key, "file") == "file":
                changed[key] = origin
        return changed

    project_ids = {
        entry.get("source_id", entry.get("type"))
        for entry in layer.data.get("providers") or []
        if isinstance(entry, dict)
    }
    specs = tuple(
        replace(spec, where=f"{spec.where} ({origin})") if spec.source_id in project_ids else spec
        for spec in config.providers
    )
    project_roles = layer.data.get("roles")
    roles = {
        name: replace(role, origin=str(file))
        if isinstance(project_roles, dict) and name in project_roles
        else role
        for name, role in config.roles.items()
    }
    return replace(
        config,
        origins=marked(config.origins, "model"),
        agent_origins=marked(config.agent_origins, "agent"),
        embeddings_origins=marked(config.embeddings_origins, "embeddings"),
        providers=specs,
        roles=roles,
        project=layer.project,
        project_file=file,
        notices=notices,
    )


def _read_file(
    explicit: Path | None, environ: Mapping[str, str]
) -> tuple[dict[str, Any], Path | None]:
    """The config file's TOML and its path; none, when no file was named and the default
    one does not exist."""
    path, named = config_path(explicit, environ)
    if named or path.exists():
        return read_toml(path), path
    return {}, None


def config_from_dict(
    data: Mapping[str, Any],
    *,
    path: Path | None,
    environ: Mapping[str, str],
    model_overrides: Mapping[str, Any],
    instructions: str | None = None,
) -> Config:
    config, problems = config_problems(
        data, path=path, environ=environ, model_overrides=model_overrides, instructions=instructions
    )
    if problems:
        raise ConfigError.of(problems)
    return config


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
