"""Projects: the work tree a command runs in, and its own `.ctxchat.toml`, trusted first.

A project is the nearest directory, from the working directory up, that holds a
`.ctxchat.toml` or is a git work tree (a `.git` directory, or the `.git` file of a linked
work tree or submodule). It is known by its git remote's URL where it has one (the same
project in two clones is one project), else by its path. Git itself is not run: reading
`.git/config` costs nothing at start-up, and a missing `git` binary changes nothing.

A `.ctxchat.toml` arrives with every cloned repository, so it is read only once the user
has trusted it (`ctxchat config trust`), by its path and the hash of its content: an
edited file is ignored again until trusted again. Even trusted, it may not send the
conversation or the key elsewhere, nor run anything: see `refused_keys`.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ctxchat.core.redact import mask_url

PROJECT_FILE = ".ctxchat.toml"
TRUST_FILE = "trusted-projects.json"
# Keys a project file may not set at any depth, unless the user's own config allows it for
# the project ([projects."ID"] unrestricted = true): where requests and the key go (model
# and embeddings endpoints, the storage URL), and what would run on this machine (MCP
# commands, their arguments, environment and directory, Python references).
REFUSED_KEYS = frozenset(
    {
        "base_url",
        "api_key",
        "api_key_env",
        "url",
        "storage",
        "mcp",
        "command",
        "args",
        "env",
        "cwd",
        "python",
        "tool_text",
        "context_text",
    }
)
# A string like "package.module:function": a Python reference, whatever key holds it.
_PYTHON_REFERENCE = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")


@dataclass(frozen=True)
class Project:
    root: Path
    id: str  # "git:URL" or "path:/abs/path"
    file: Path | None  # its .ctxchat.toml, when it has one


def find_project(start: Path) -> Project | None:
    """The project `start` is in, or None outside any."""
    start = start.resolve()
    for folder in (start, *start.parents):
        config = folder / PROJECT_FILE
        git = folder / ".git"
        has_file = config.is_file()
        if has_file or git.exists():
            url = _remote_url(git) if git.exists() else None
            identity = f"git:{url}" if url else f"path:{folder}"
            return Project(folder, identity, config if has_file else None)
    return None


def _git_dir(git: Path) -> Path | None:
    """The repository directory: `.git` itself, or where a `.git` file points."""
    if git.is_dir():
        return git
    try:
        first = git.read_text("utf-8", errors="replace").splitlines()[0]
    except (OSError, IndexError):
        return None
    if not first.startswith("gitdir:"):
        return None
    target = Path(first.removeprefix("gitdir:").strip())
    target = target if target.is_absolute() else git.parent / target
    # A linked work tree's dir holds `commondir`, naming the repository that has the config.
    common = target / "commondir"
    if common.is_file():
        try:
            shared = Path(common.read_text("utf-8").strip())
        except OSError:
            return target
        return shared if shared.is_absolute() else (target / shared).resolve()
    return target


def _remote_url(git: Path) -> str | None:
    """The URL of the `origin` remote, else of the first remote; credentials removed."""
    repository = _git_dir(git)
    if repository is None:
        return None
    try:
        text = (repository / "config").read_text("utf-8", errors="replace")
    except OSError:
        return None
    remotes: dict[str, str] = {}
    section: str | None = None
    for raw in text.splitlines():
        line = raw.strip()
        header = re.fullmatch(r'\[remote\s+"([^"]*)"\]', line)
        if header:
            section = header.group(1)
        elif line.startswith("["):
            section = None
        elif section is not None and re.match(r"url\s*=", line):
            remotes.setdefault(section, line.split("=", 1)[1].strip())
    url = remotes.get("origin") or next(iter(remotes.values()), None)
    return _without_credentials(url) if url else None


def _without_credentials(url: str) -> str:
    """A remote URL as an identity: no user or token (a session file keeps it)."""
    if "://" in url:
        scheme, rest = url.split("://", 1)
        host, slash, path = rest.partition("/")
        return f"{scheme}://{host.rpartition('@')[2]}{slash}{path}"
    return mask_url(url)


def content_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def trusted(trust_file: Path, project_file: Path) -> bool | None:
    """True: trusted as it is now; False: trusted once, changed since; None: never."""
    entries = read_trust(trust_file)
    known = entries.get(str(project_file))
    if known is None:
        return None
    try:
        return known == content_hash(project_file)
    except OSError:
        return None


def read_trust(trust_file: Path) -> dict[str, str]:
    """Path -> content hash of each trusted project file (a damaged record trusts none)."""
    try:
        data = json.loads(trust_file.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}


def trust(trust_file: Path, project_file: Path) -> str:
    """Record `project_file` as trusted as it is now (0600, written atomically)."""
    from ctxchat.storage.fsutil import atomic_write_text, ensure_private_dir

    digest = content_hash(project_file)
    entries = read_trust(trust_file)
    entries[str(project_file)] = digest
    ensure_private_dir(trust_file.parent)
    atomic_write_text(trust_file, json.dumps(entries, indent=2, sort_keys=True) + "\n")
    return digest


def refused_keys(data: Mapping[str, Any]) -> list[str]:
    """The key paths of a project file that it may not set (see `REFUSED_KEYS`)."""
    return sorted(set(_refused(data, "")))


def _refused(value: Any, where: str) -> Iterator[str]:
    if isinstance(value, Mapping):
        for key, inner in value.items():
            path = f"{where}.{key}" if where else str(key)
            if key in REFUSED_KEYS:
                yield path
            else:
                yield from _refused(inner, path)
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from _refused(inner, f"{where}[{i}]")
    elif isinstance(value, str) and _PYTHON_REFERENCE.match(value):
        yield where


def merged(user: Mapping[str, Any], project: Mapping[str, Any]) -> dict[str, Any]:
    """The user's config with the project's laid over it: settings tables key by key,
    roles by name, and providers added after the user's (one with a source_id the user's
    pipeline has lays its options over that one's instead)."""
    result = dict(user)
    for key, value in project.items():
        if key == "providers" and isinstance(value, list):
            result[key] = _merged_providers(user.get("providers"), value)
        elif key == "projects":
            continue  # what a project may do is the user's to say, never the project's
        elif isinstance(value, dict) and isinstance(user.get(key), dict):
            result[key] = {**user[key], **value}
        else:
            result[key] = value
    return result


def _merged_providers(user: Any, project: list[Any]) -> list[Any]:
    from ctxchat.config.defaults import DEFAULT_PIPELINE

    if isinstance(user, list):
        pipeline = [dict(entry) if isinstance(entry, dict) else entry for entry in user]
    else:
        pipeline = [{"type": t, "source_id": s, **options} for t, s, options in DEFAULT_PIPELINE]
    by_id = {
        entry.get("source_id", entry.get("type")): entry
        for entry in pipeline
        if isinstance(entry, dict)
    }
    for entry in project:
        if isinstance(entry, dict):
            same = by_id.get(entry.get("source_id", entry.get("type")))
            if same is not None and same.get("type") == entry.get("type", same.get("type")):
                same.update(entry)
                continue
        pipeline.append(entry)
    return pipeline


@dataclass(frozen=True)
class ProjectLayer:
    """What the project adds to a config: its data when used, and a line for the user
    when its file is not (untrusted, changed, refused or unreadable)."""

    project: Project | None
    data: Mapping[str, Any]  # the file's TOML when used, else empty
    notice: str | None = None


def project_layer(cwd: Path, user: Mapping[str, Any], trust_file: Path) -> ProjectLayer:
    project = find_project(cwd)
    if project is None or project.file is None:
        return ProjectLayer(project, {})
    file = project.file
    state = trusted(trust_file, file)
    if state is None:
        return ProjectLayer(
            project, {}, f"{file} is ignored until you trust it: `ctxchat config trust`"
        )
    if state is False:
        return ProjectLayer(
            project,
            {},
            f"{file} changed since you trusted it: ignored until `ctxchat config trust` again",
        )
    from ctxchat.config.toml_file import read_toml
    from ctxchat.core.errors import ConfigError

    try:
        data = read_toml(file)
    except ConfigError as exc:
        return ProjectLayer(project, {}, f"{exc.message}: the project file is ignored")
    refused = refused_keys(data)
    if refused and not _unrestricted(user, project):
        keys = ", ".join(refused)
        return ProjectLayer(
            project,
            {},
            f"{file} is ignored: a project file cannot set {keys} (endpoints, keys, storage, "
            f'commands and Python references) unless your config says [projects."'
            f'{project.id}"] unrestricted = true',
        )
    return ProjectLayer(project, data)


def _unrestricted(user: Mapping[str, Any], project: Project) -> bool:
    table = user.get("projects")
    if not isinstance(table, Mapping):
        return False
    for key in (project.id, str(project.root)):
        entry = table.get(key)
        if isinstance(entry, Mapping) and entry.get("unrestricted") is True:
            return True
    return False


def project_settings_problems(raw: Any) -> list[str]:
    """What is wrong with the user's `[projects."ID"]` tables."""
    if not isinstance(raw, Mapping):
        return ['projects: expected a table of projects ([projects."ID"])']
    problems = []
    for key, entry in raw.items():
        where = f'projects."{key}"'
        if not isinstance(entry, Mapping):
            problems.append(f"{where}: expected a table")
            continue
        for name, value in entry.items():
            if name != "unrestricted":
                problems.append(f"{where}.{name}: unknown setting (it takes unrestricted)")
            elif not isinstance(value, bool):
                problems.append(f"{where}.unrestricted: expected a boolean")
    return problems
