"""The effective configuration: TOML file, then environment, then command-line flags."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from ctxchat.config.effective import Config, ProviderSpec
from ctxchat.config.parse import config_problems
from ctxchat.config.projects import TRUST_FILE, ProjectLayer, merged, project_layer
from ctxchat.config.toml_file import read_toml
from ctxchat.core.errors import ConfigError
from ctxchat.core.paths import data_dir, default_config_path

__all__ = [
    "Config",
    "ProviderSpec",
    "config_from_dict",
    "config_path",
    "load_config",
    "read_config",
]


def config_path(explicit: Path | None, environ: Mapping[str, str]) -> tuple[Path, bool]:
    """The config file to read and whether the user named it (then it must exist)."""
    if explicit is not None:
        return explicit.expanduser(), True
    from_env = environ.get("CTXCHAT_CONFIG")
    if from_env:
        return Path(from_env).expanduser(), True
    return default_config_path(), False


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
