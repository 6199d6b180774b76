"""Provider types, found through the `ctxchat.providers` entry-point group.

Built-in providers register there exactly as a third-party package would.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from ctxchat.core.errors import ConfigError
from ctxchat.core.options import did_you_mean
from ctxchat.core.provider import ContextProvider

ENTRY_POINT_GROUP = "ctxchat.providers"


def provider_entry_points() -> dict[str, EntryPoint]:
    return dict(_installed_entry_points())


@cache
def _installed_entry_points() -> tuple[tuple[str, EntryPoint], ...]:
    """Read once a process: each look-up reads every installed package's metadata (2 to 3
    ms of CPU with the dev tools installed), and a turn's config looks up each of its seven
    providers. What is installed does not change under a running process."""
    found: dict[str, EntryPoint] = {}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(ep.name, ep)
    return tuple(sorted(found.items()))


def load_provider_class(type_name: str, where: str = "provider") -> type[ContextProvider[Any]]:
    available = provider_entry_points()
    ep = available.get(type_name)
    if ep is None:
        known = ", ".join(available) or "none installed"
        raise ConfigError(
            f"{where}.type: unknown provider type '{type_name}'"
            f"{did_you_mean(type_name, list(available))}; known types: {known}"
        )
    try:
        cls = ep.load()
    except Exception as exc:  # a broken plugin must not take the whole CLI down
        raise ConfigError(
            f"{where}.type: provider type '{type_name}' ({ep.value}) failed to load: {exc}"
        ) from exc
    if not (isinstance(cls, type) and issubclass(cls, ContextProvider)):
        raise ConfigError(
            f"{where}.type: '{type_name}' ({ep.value}) is not a ctxchat ContextProvider"
        )
    return cls
