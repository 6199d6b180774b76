"""`ctxchat config trust`: use the project's `.ctxchat.toml` from now on, as it is now."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ctxchat.storage.catalog import SessionCatalog
    from ctxchat.storage.store import SessionSummary


def trust() -> None:
    """Use this project's .ctxchat.toml, as it is now.

    It is asked again when the file changes. Even trusted, it cannot set endpoints,
    keys, storage URLs, commands or Python references unless your own config allows that
    for the project.
    """
    from ctxchat.cli.common import warn
    from ctxchat.config.projects import TRUST_FILE, find_project, refused_keys
    from ctxchat.config.projects import trust as record_trust
    from ctxchat.config.toml_file import read_toml
    from ctxchat.core.errors import UsageError
    from ctxchat.core.paths import data_dir

    project = find_project(Path.cwd())
    if project is None or project.file is None:
        raise UsageError("there is no .ctxchat.toml in this directory or above it to trust")
    refused = refused_keys(read_toml(project.file))  # a file that is not TOML is refused
    digest = record_trust(data_dir() / TRUST_FILE, project.file)
    print(f"trusted {project.file} (sha256 {digest[:12]}…) for project {project.id}")
    if refused:
        warn(
            f"it sets {', '.join(refused)}, which a project file cannot: it stays ignored "
            f'unless your config says [projects."{project.id}"] unrestricted = true'
        )


def project_sessions(catalog: SessionCatalog, limit: int | None) -> list[SessionSummary]:
    """The sessions of the project the working directory is in, most recent first."""
    from ctxchat.config.projects import find_project
    from ctxchat.core.errors import UsageError

    project = find_project(Path.cwd())
    if project is None:
        raise UsageError(
            "--project: this directory is in no project (no git work tree or .ctxchat.toml "
            "here or above it)"
        )
    found = [s for s in catalog.list() if s.project == project.id]
    return found[:limit] if limit is not None else found


def scoped_facts(memory: object, *, project: bool, every: bool) -> list[dict[str, Any]]:
    """`memory list --project | --all`: the facts of this directory's project, or the
    user's and every project's, each with its scope."""
    from ctxchat.config.projects import find_project
    from ctxchat.core.errors import UsageError

    if project and every:
        raise UsageError("--project and --all both choose the facts; give one of them")
    by_scope = getattr(memory, "remembered_by_scope", None)
    if by_scope is None:
        raise UsageError("this memory keeps no project scope")
    found = None
    if project:
        found = find_project(Path.cwd())
        if found is None:
            raise UsageError("--project: this directory is in no project")
    facts: list[dict[str, Any]] = by_scope(found.id if found else None, every=every)
    return facts
