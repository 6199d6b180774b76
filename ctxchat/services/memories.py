"""What the CLI may ask of a provider that remembers things about the user, whatever its
type: `ctxchat memory list|forget|export|eval`, and `--no-memory` leaving it out of a run.

A provider offers this by implementing `MemorySource`, as it offers an audit trail by
implementing `AuditSource`. Facts cross this line as plain JSON-ready dicts, so the CLI
needs nothing of the provider's own types.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ctxchat.core.capabilities import ForgetSource, MemorySource, StoresOutsideSession
from ctxchat.core.errors import UsageError
from ctxchat.core.forgetting import Forgetting
from ctxchat.core.options import NoOptions
from ctxchat.core.provider import ContextProvider

if TYPE_CHECKING:
    from ctxchat.core.agent import Agent


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


async def forget_fact_everywhere(agent: Agent, fact_id: str) -> bool:
    """Forget a fact (`ctxchat memory forget`), and take its values out of the copies the
    pipeline's other providers keep (the audit); False when there is no such fact."""
    from datetime import UTC, datetime

    from ctxchat.core.forgetting import forget_elsewhere

    memory = the_memory(agent)
    fact = next((f for f in memory.remembered() if f.get("id") == fact_id), None)
    if not memory.forget_fact(fact_id):
        return False
    if fact is not None:
        values = [str(fact["value"]), *(str(p["value"]) for p in fact.get("history", ()))]
        await forget_elsewhere(agent.run_providers(), values, datetime.now(UTC))
    return True


class ForgetMarks(ContextProvider[NoOptions]):
    """A memory that is off for this run (`--no-memory`), reduced to what it forgot: it
    recalls and learns nothing, and answers `ForgetSource` so that summaries stay clean."""

    def __init__(self, memory: ForgetSource) -> None:
        super().__init__(f"{getattr(memory, 'source_id', 'memory')}-forgets")
        self._memory = memory

    def forgettings_since(self, since: datetime | None) -> list[Forgetting]:
        return self._memory.forgettings_since(since)


def without(
    providers: Sequence[ContextProvider[Any]], *, memory: bool, outside: bool
) -> list[ContextProvider[Any]]:
    """The providers a run keeps: without the user's memory (`--no-memory`), without
    anything that stores outside the session file (`--temp`, which drops both)."""
    kept: list[ContextProvider[Any]] = []
    for provider in providers:
        recalls = isinstance(provider, MemorySource) or getattr(provider, "recalls_user", False)
        if (memory or outside) and recalls:
            if memory and not outside and isinstance(provider, ForgetSource):
                # Off for this run, the memory still says what was forgotten: a summary
                # must not send a forgotten value because memory is off.
                kept.append(ForgetMarks(provider))
            continue
        if (
            outside
            and isinstance(provider, StoresOutsideSession)
            and provider.stores_outside_session
        ):
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
