"""What the CLI may ask of a provider that remembers things about the user, whatever its
type: `ctxchat memory list|forget|export|eval`, and `--no-memory` leaving it out of a run.

A provider offers this by implementing `MemorySource`, as it offers an audit trail by
implementing `AuditSource`. Facts cross this line as plain JSON-ready dicts, so the CLI
needs nothing of the provider's own types.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from ctxchat.core.errors import UsageError

if TYPE_CHECKING:
    from ctxchat.core.agent import Agent
    from ctxchat.core.model_types import ChatModel
    from ctxchat.core.provider import ContextProvider

Progress = Callable[[int, int], None]  # (done, in all)


@runtime_checkable
class MemorySource(Protocol):
    source_id: str

    def remembered(self) -> list[dict[str, Any]]:
        """Every active fact of the configured user: id, slot, label, value, first_seen,
        last_seen, provenance {session_id, message_id}, history [...]."""
        ...

    def forget_fact(self, fact_id: str) -> bool:
        """Delete the fact and its history for real; False when there is no such fact."""
        ...

    async def evaluate_cases(
        self, path: Path, *, extractor: str | None, model: ChatModel, progress: Progress | None
    ) -> dict[str, Any]:
        """Run a case file through the provider, each case in a fresh isolated store:
        `{"pass_rate", "by_tag", "failed"}`."""
        ...


def memory_sources(agent: Agent) -> list[MemorySource]:
    return [p for p in agent.run_providers() if isinstance(p, MemorySource)]


def the_memory(agent: Agent) -> MemorySource:
    """The one memory provider of the pipeline (the first, when there are several)."""
    sources = memory_sources(agent)
    if not sources:
        raise UsageError(
            "no provider in this pipeline remembers the user; add one to the config: "
            '[[providers]] type = "user_memory"'
        )
    return sources[0]


def without(
    providers: Sequence[ContextProvider[Any]], *, memory: bool, outside: bool
) -> list[ContextProvider[Any]]:
    """The providers a run keeps: without the user's memory (`--no-memory`), without
    anything that stores outside the session file (`--temp`, which drops both)."""
    kept = []
    for provider in providers:
        if (memory or outside) and isinstance(provider, MemorySource):
            continue
        if outside and provider.stores_outside_session:
            continue
        kept.append(provider)
    return kept


def fact_by_reference(facts: Sequence[dict[str, Any]], ref: str) -> dict[str, Any]:
    """The fact whose id is `ref` or starts with it (`memory list` shows the shortest
    prefix that tells it apart); an ambiguous one lists the facts it could mean."""
    from ctxchat.core.idprefix import matching

    by_id = {str(f["id"]): f for f in facts}
    found = matching(ref, list(by_id))
    if len(found) == 1:
        return by_id[found[0]]
    if not found:
        raise UsageError(f"no remembered fact has the id {ref!r} (see `ctxchat memory list`)")
    shown = ", ".join(f"{i} ({by_id[i]['label']}: {by_id[i]['value']})" for i in found[:8])
    more = f" and {len(found) - 8} more" if len(found) > 8 else ""
    raise UsageError(f"{ref!r} is ambiguous: {len(found)} facts match: {shown}{more}")
