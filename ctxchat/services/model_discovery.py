"""Which model to talk to when the config names none, and whether a named one exists.

OpenAI's own endpoint defaults to gpt-4o-mini. Any other endpoint (a local llama.cpp,
Ollama or vLLM server) is asked what it serves (`GET /v1/models`): the one model it lists
is used, and said so; several make the user choose. A named model the endpoint does not
list gets a warning naming the close matches (it is sent anyway: some servers answer to
any name).

The lists are kept per endpoint in the data dir for a day, so start-up asks an endpoint
once, not on every run. A kept list is trusted only to settle: a named model missing from
it, or a list of several when none is named, has the endpoint asked again first.
"""

from __future__ import annotations

import contextlib
import difflib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from ctxchat.core.errors import ModelError, ModelNotConfigured
from ctxchat.core.settings import ModelSettings
from ctxchat.services.model_client import NoModelList, OpenAIChatModel
from ctxchat.storage.fsutil import atomic_write_text

KEPT_FOR = timedelta(days=1)
# A named model is only checked: a slow endpoint must not hold the chat up for long.
CHECK_TIMEOUT = 5.0
CACHE_VERSION = 1
NAME_IT = "name one with --model NAME, CTXCHAT_MODEL or [model] model"


class ModelListCache:
    """Model lists by endpoint, in one small JSON file written atomically (0600). A file
    that cannot be read or written is no cache: the endpoint is asked instead."""

    def __init__(self, path: Path, *, kept_for: timedelta = KEPT_FOR) -> None:
        self.path = path
        self.kept_for = kept_for

    def _entries(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text("utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("version") != CACHE_VERSION:
            return {}
        entries = data.get("endpoints")
        return entries if isinstance(entries, dict) else {}

    def get(self, endpoint: str, now: datetime | None = None) -> list[str] | None:
        entry = self._entries().get(endpoint)
        if not isinstance(entry, dict):
            return None
        try:
            asked = datetime.fromisoformat(entry["asked_at"])
            models = [str(m) for m in entry["models"]]
            age = (now or datetime.now(UTC)) - asked  # a naive date: TypeError, asked again
        except (KeyError, TypeError, ValueError):
            return None
        if not timedelta(0) <= age <= self.kept_for:
            return None
        return models

    def put(self, endpoint: str, models: Sequence[str], now: datetime | None = None) -> None:
        entries = self._entries()
        entry = {"models": list(models), "asked_at": (now or datetime.now(UTC)).isoformat()}
        said = (
            entries.get(endpoint, {}).get("said")
            if isinstance(entries.get(endpoint), dict)
            else None
        )
        if isinstance(said, str):
            entry["said"] = said
        entries[endpoint] = entry
        self._write(entries)

    def said(self, endpoint: str) -> str | None:
        """The model the user was last told this endpoint serves."""
        entry = self._entries().get(endpoint)
        said = entry.get("said") if isinstance(entry, dict) else None
        return said if isinstance(said, str) else None

    def mark_said(self, endpoint: str, name: str) -> None:
        entries = self._entries()
        entry = entries.get(endpoint)
        if isinstance(entry, dict) and entry.get("said") != name:
            entry["said"] = name
            self._write(entries)

    def _write(self, entries: dict[str, Any]) -> None:
        text = json.dumps({"version": CACHE_VERSION, "endpoints": entries}, indent=1)
        # A read-only home keeps nothing: the endpoint is asked again next time.
        with contextlib.suppress(OSError):
            atomic_write_text(self.path, text)


@dataclass(frozen=True)
class Settled:
    """The model a run talks to, and what to tell the user about it."""

    name: str
    note: str | None = None  # the endpoint's only model was chosen: said once, quietly
    warning: str | None = None  # a named model the endpoint does not list


class EndpointModels:
    """The models of the endpoint `settings` name, asked at most once per run."""

    def __init__(self, settings: ModelSettings, cache: ModelListCache) -> None:
        self.settings = settings
        self.cache = cache
        self._asked: list[str] | None = None

    @property
    def endpoint(self) -> str:
        return self.settings.endpoint  # credentials masked: never written to the cache

    async def _ask(self, timeout: float | None) -> list[str]:
        if self._asked is None:
            self._asked = await OpenAIChatModel(self.settings).list_models(timeout=timeout)
            self.cache.put(self.endpoint, self._asked)
        return self._asked

    async def only_model(self) -> Settled:
        """The one model the endpoint lists, or `ModelNotConfigured` saying what to do."""
        listed = self.cache.get(self.endpoint)
        if listed is None or len(listed) != 1:  # kept only to settle; about to fail: ask
            try:
                listed = await self._ask(None)
            except NoModelList as exc:
                raise ModelNotConfigured(f"no model named, and {exc.message}: {NAME_IT}") from exc
            # Any other failure (the server is down, say) is the thing to fix first: raised.
        if len(listed) == 1:
            (name,) = listed
            # Said once per endpoint and model, not on every run: the chat's banner and
            # `config show` name it after that.
            if self.cache.said(self.endpoint) == name:
                return Settled(name)
            return Settled(name, note=f"model {name}: the one {self.endpoint} serves")
        if not listed:
            raise ModelNotConfigured(f"no model named, and {self.endpoint} lists none: {NAME_IT}")
        shown = ", ".join(listed[:20]) + (
            f" and {len(listed) - 20} more" if len(listed) > 20 else ""
        )
        raise ModelNotConfigured(
            f"no model named, and {self.endpoint} serves {len(listed)}: {shown}; {NAME_IT}"
        )

    def said(self, name: str) -> None:
        """The user was told `name` is the endpoint's one model: not again."""
        self.cache.mark_said(self.endpoint, name)

    async def unlisted(self, name: str) -> str | None:
        """A warning when the endpoint does not list `name`; None when it does, or when it
        cannot say (no listing, not reachable right now: the turn will tell)."""
        listed = self.cache.get(self.endpoint)
        if listed is None or name not in listed:
            try:
                listed = await self._ask(CHECK_TIMEOUT)
            except ModelError:
                return None
        if name in listed:
            return None
        close = difflib.get_close_matches(name, listed, n=3, cutoff=0.5)
        hint = f"close: {', '.join(close)}" if close else f"it lists {len(listed)}"
        return f"model '{name}' is not listed by {self.endpoint} ({hint}); sending it anyway"


def endpoint_models(settings: ModelSettings, cache_path: Path) -> EndpointModels | None:
    """The models of the configured endpoint, when it is one to ask: OpenAI's own is not
    (its default is known, and its list is long)."""
    if settings.on_openai:
        return None
    return EndpointModels(settings, ModelListCache(cache_path))
