"""Which sessions a project's recall and search may draw on.

A session in a project recalls from its own project's sessions and from those outside any
(older ones, a chat in the home directory), never from another project's: rules of one
codebase must not steer the work in another. Search, which the user asks for, shows
everything but puts the project's sessions first.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ctxchat.storage.store import SessionStore


def project_of(store: SessionStore) -> Callable[[str], str | None]:
    """The project of the session under a history key (its id), read once per key; None
    for a session outside any project, or none at all."""
    known: dict[str, str | None] = {}

    def lookup(key: str) -> str | None:
        if key not in known:
            session = store.peek(key)
            known[key] = session.project if session is not None else None
        return known[key]

    return lookup


def in_other_project(store: SessionStore, project: str | None) -> Callable[[str], bool]:
    """Whether the session under a key belongs to a project other than `project` (never,
    when `project` is None: a chat outside any project draws on all)."""
    lookup = project_of(store)

    def other(key: str) -> bool:
        if project is None:
            return False
        found = lookup(key)
        return found is not None and found != project

    return other


def in_another_project(data_dir: Path, project: str | None) -> Callable[[str], bool]:
    """`in_other_project` over the sessions kept in `data_dir` (a provider's
    `env.data_dir`): what a provider recalling across sessions leaves out, in the kit."""
    from ctxchat.core.paths import sessions_dir
    from ctxchat.storage.store import SessionStore

    return in_other_project(SessionStore(sessions_dir(data_dir)), project)
