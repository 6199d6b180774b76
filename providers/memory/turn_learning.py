"""Learning from a stored turn (`UserMemoryProvider.after_stored_turn`): the user's own
words this turn go through the configured extractor, then the one update step, into the
user's memory (and the project's, with scope "project"); every change is announced in one
line, and facts just forgotten are taken out of the copies other providers keep."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ctxchat.kit import OWN_WORDS

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from ctxchat import AgentView, RunContext, Session

    from . import Change, FactSet
    from .ops import Op
    from .provider import UserMemoryProvider

NOTHING_TO_FORGET = "nothing remembered matched that, so nothing was forgotten"
SECRET_NOTE = "not remembered: that looked like a password, key or account number"


def own_words(context: RunContext) -> str:
    """What the user said in their own words this turn (see `InputOrigin`)."""
    return "\n".join(
        text for m in context.input_messages if (text := m.text_from(OWN_WORDS).strip())
    )


def change_line(change: Change) -> str:
    from . import slot_info

    label = slot_info(change.fact.slot).label
    if change.kind == "added":
        return f"remembered: {label}: {change.fact.value}"
    if change.kind == "changed":
        was = f" (was {change.previous})" if change.previous else ""
        return f"remembered: {label}: {change.fact.value}{was}"
    if change.kind == "retired":
        return f"no longer remembered: {label}: {change.fact.value}"
    return f"forgot: {label}: {change.fact.value}"


async def learn_from_turn(
    provider: UserMemoryProvider,
    *,
    agent: AgentView,
    session: Session,
    context: RunContext,
    state: dict[str, Any],
) -> None:
    """What the turn just stored teaches (`UserMemoryProvider.after_stored_turn`)."""
    if state.get("off"):
        return
    text = own_words(context)
    if not text:
        return
    memory = provider.memory(state)
    extraction = await provider.extract(context, text, memory)
    if extraction.warning:
        context.warn(provider.source_id, extraction.warning)
    if extraction.secret_dropped:
        context.notify(provider.source_id, SECRET_NOTE)
    if not extraction.ops:
        return
    from . import Provenance, apply_ops

    asked = next((m for m in context.input_messages if m.text_from(OWN_WORDS)), None)
    provenance = Provenance(session.id, asked.id if asked is not None else None)
    now = datetime.now(UTC)

    def update(ops: Sequence[Op]) -> Callable[[FactSet], list[Change]]:
        return lambda facts: apply_ops(facts, ops, now=now, provenance=provenance)

    project = provider.project_memory(session)
    if project is None:
        changes = await asyncio.to_thread(memory.change, update(extraction.ops))
    else:
        from .project import split_ops

        person, work = split_ops(extraction.ops)
        changes = await asyncio.to_thread(memory.change, update(person)) if person else []
        if work:
            changes += await asyncio.to_thread(project.change, update(work))
    for change in changes:
        context.notify(provider.source_id, change_line(change))
    forgotten = [c.fact for c in changes if c.kind == "forgotten"]
    if forgotten:
        await provider.forget_elsewhere(agent.run_providers(), forgotten, context.metadata)
    elif any(op.kind == "forget" for op in extraction.ops):
        context.notify(provider.source_id, NOTHING_TO_FORGET)
