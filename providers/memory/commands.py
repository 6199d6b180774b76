"""`/memory` in the REPL: see what is remembered, add, forget, ask where a fact came from,
clear it all, or turn memory off for this session.

Facts are numbered in one stable order (style preferences first, then by when each was
first said). A number means what the last `/memory` listing showed, until the next one:
forgetting fact 2 does not make fact 3 the new 2 under the user's hands. An id or its
prefix (`ctxchat memory list` shows them) works too.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ctxchat import Command, CommandResult, CommandView, Note, Table, UsageError

from . import Change, Fact, FactSet, Provenance, apply_ops, extract_rules, slot_info
from .ops import Op
from .secrets import screen
from .slots import STYLE_SLOTS

if TYPE_CHECKING:
    from .provider import UserMemoryProvider

USAGE = "usage: /memory [forget N | add TEXT | why N | clear | off | on]"


def fact_document(fact: Fact) -> dict[str, Any]:
    """A fact for people and programs: its stored form plus the label it is shown with."""
    return {**fact.to_dict(), "label": slot_info(fact.slot).label}


def numbered(facts: Sequence[Fact]) -> list[Fact]:
    active = [f for f in facts if f.active]
    return sorted(active, key=lambda f: (f.slot not in STYLE_SLOTS, f.first_seen, f.id))


def memory_commands(provider: UserMemoryProvider) -> Sequence[Command[CommandView]]:
    async def handle(ctx: CommandView, args: str) -> CommandResult:
        word, _, rest = args.strip().partition(" ")
        rest = rest.strip()
        memory: Any = provider.memory(ctx.state)
        project = provider.project_memory(ctx.session)
        if project is not None:
            from .project import JointMemory

            memory = JointMemory(memory, project)
        if not word:
            return await listing(ctx, memory)
        if word in ("off", "on"):
            ctx.state["off"] = word == "off"
            state = "off: nothing is recalled or learnt" if word == "off" else "on"
            return CommandResult.say(f"memory {state} in this session")
        if word == "add" and rest:
            return await add(ctx, memory, rest)
        if word in ("forget", "why") and rest:
            fact = await chosen(ctx, memory, rest)
            if word == "why":
                return await why(ctx, fact)
            holder = memory.holder(fact.id) if project is not None else memory
            await asyncio.to_thread(holder.change, lambda facts: facts.delete(fact.id))
            await provider.forget_elsewhere(ctx.agent.run_providers(), [fact])
            return CommandResult.say(f"forgot: {slot_info(fact.slot).label}: {fact.value}")
        if word == "clear":
            return await clear(ctx, provider, memory, confirmed=rest == "yes")
        raise UsageError(USAGE)

    return [
        Command(
            "memory",
            "what is remembered about you; forget, add, why, clear, off, on",
            handle,
            usage="[forget N|add TEXT|why N|clear|off|on]",
            completions=("forget", "add", "why", "clear", "off", "on"),
        )
    ]


async def listing(ctx: CommandView, memory: Any) -> CommandResult:
    facts, _ = await asyncio.to_thread(memory.facts)
    shown = numbered(facts.all())
    ctx.state["listed"] = [f.id for f in shown]  # what the numbers mean until the next listing
    if not shown:
        return CommandResult.say("nothing remembered yet")
    scope_of = getattr(memory, "scope_of", None)
    if scope_of is not None:  # a project's facts beside the user's: each says which
        scoped = tuple(
            (number, scope_of(f.id), slot_info(f.slot).label, f.value, f.last_seen)
            for number, f in enumerate(shown, start=1)
        )
        header = ("#", "scope", "what", "remembered", "last said")
        return CommandResult((Table(header, scoped),))
    rows = tuple(
        (number, slot_info(f.slot).label, f.value, f.last_seen)
        for number, f in enumerate(shown, start=1)
    )
    return CommandResult((Table(("#", "what", "remembered", "last said"), rows),))


async def chosen(ctx: CommandView, memory: Any, text: str) -> Fact:
    """The fact `text` names: a number of the last listing, else an id or id prefix."""
    from ctxchat.kit import matching

    facts, _ = await asyncio.to_thread(memory.facts)
    by_id: dict[str, Fact] = {f.id: f for f in facts.all() if f.active}
    if text.isdigit():
        listed = ctx.state.get("listed")
        if not isinstance(listed, list):
            raise UsageError("list the facts first: /memory numbers them")
        number = int(text)
        if not 1 <= number <= len(listed):
            raise UsageError(f"no fact number {text!r}: the last /memory listed 1 to {len(listed)}")
        fact = by_id.get(listed[number - 1])
        if fact is None:
            raise UsageError(f"fact {number} of the last listing is forgotten already")
        return fact
    found = matching(text, list(by_id))
    if len(found) == 1:
        return by_id[found[0]]
    if not found:
        raise UsageError(f"no fact number or id {text!r}: /memory lists them")
    shown = ", ".join(f"{i} ({slot_info(by_id[i].slot).label})" for i in found[:8])
    raise UsageError(f"{text!r} is ambiguous: {len(found)} facts match: {shown}")


async def add(ctx: CommandView, memory: Any, text: str) -> CommandResult:
    """What the user asks to be remembered, in their words: what the extractor finds in it,
    else the sentence as a free-text fact."""
    extraction = extract_rules(text)
    # The free-text fallback goes through the same screen as what the rules found.
    fallback = () if extraction.secret_dropped else (Op("add", None, text.strip(), text),)
    ops = screen(extraction.ops or fallback).ops
    if not ops:
        raise UsageError("that looks like a password, key or account number: not remembered")
    provenance = Provenance(ctx.session.id, None)
    now = datetime.now(UTC)

    def update(facts: FactSet) -> list[Change]:
        return apply_ops(facts, ops, now=now, provenance=provenance)

    changes = await asyncio.to_thread(memory.change, update)
    from .turn_learning import change_line

    if not changes:
        return CommandResult.say("already remembered")
    return CommandResult(tuple(Note(change_line(c)) for c in changes))


async def why(ctx: CommandView, fact: Fact) -> CommandResult:
    """Where a fact came from: the session and the message, read back when they still exist."""
    origin = fact.provenance
    label = f"{slot_info(fact.slot).label}: {fact.value}"
    if origin.session_id is None:
        return CommandResult.say(f"{label}: added by hand, first on {fact.first_seen:%Y-%m-%d}")
    lines = [f"{label}: said in session {origin.session_id}"]
    stored = await ctx.stored_session(origin.session_id)
    if stored is None:
        lines.append("(that session has been deleted since)")
        return CommandResult.say(*lines)
    session, messages = stored
    lines[0] += f" '{session.display_title()}'"
    if origin.message_id is not None:
        said = next((m for m in messages if m.id == origin.message_id), None)
        if said is not None:
            lines.append(f"you said: {said.text}")
    return CommandResult.say(*lines)


async def clear(
    ctx: CommandView, provider: UserMemoryProvider, memory: Any, *, confirmed: bool
) -> CommandResult:
    facts, _ = await asyncio.to_thread(memory.facts)
    count = len(facts.all())
    if not count:
        return CommandResult.say("nothing remembered yet")
    if not confirmed:
        return CommandResult.say(
            f"this forgets all {count} facts remembered about you; to go on: /memory clear yes",
            tone="warning",
        )

    def forget_all(facts: FactSet) -> int:
        ids = [f.id for f in facts.all()]
        for fact_id in ids:
            facts.delete(fact_id)
        return len(ids)

    everything = facts.all()
    gone = await asyncio.to_thread(memory.change, forget_all)
    await provider.forget_elsewhere(ctx.agent.run_providers(), everything)
    return CommandResult.say(f"forgot everything ({gone} facts)")
