"""`recall eval`'s memory side: each conversation's user turns learnt by the configured user
memory, as a chat's learning stage would (the provider's own `after_run` on a stored turn),
and each question asked of it as the next input (its own `before_run`): which of the turns
that hold the answer the facts it recalls were learnt from.

The memory is the pipeline's own provider type and options, as its own user in the eval's
throwaway home (or on `[storage] url`), scoped to that user; everything it kept of that
user is erased afterwards. Without a model the `llm` extractor falls back to the offline
rules, so the figure never costs a model call.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Sequence
from typing import Any

from ctxchat.config.loading import Config, ProviderSpec
from ctxchat.core.context import RunContext
from ctxchat.core.errors import UsageError
from ctxchat.core.messages import Message
from ctxchat.core.provider import ContextProvider, HistoryProvider, ProviderEnv
from ctxchat.core.session import Session
from ctxchat.core.settings import AgentSettings


def memory_spec(config: Config) -> ProviderSpec | None:
    """The pipeline's user memory, if it has one."""
    return next((spec for spec in config.providers if spec.type == "user_memory"), None)


class _Ingesting:
    """What the memory's hooks may use of an agent while a conversation is ingested: its
    providers, no model (nothing here may call one)."""

    def __init__(self, providers: Sequence[ContextProvider[Any]]) -> None:
        self._providers = tuple(providers)
        self._settings = AgentSettings()

    @property
    def settings(self) -> AgentSettings:
        return self._settings

    def provider(self, source_id: str) -> ContextProvider[Any] | None:
        return next((p for p in self._providers if p.source_id == source_id), None)

    def run_providers(self) -> Sequence[ContextProvider[Any]]:
        return self._providers

    @property
    def loading_history(self) -> HistoryProvider[Any] | None:
        return None

    @property
    def model(self) -> Any:
        raise UsageError("recall eval asks no model")


class MemoryIngest:
    """One conversation's user memory: learns its user turns, then answers which turns the
    facts recalled for a question came from."""

    def __init__(self, spec: ProviderSpec, env: ProviderEnv, user: str) -> None:
        from ctxchat.core.capabilities import MemorySource
        from ctxchat.services.build import build_provider

        options = {**spec.options, "user": user, "scope": "user"}
        provider = build_provider(dataclasses.replace(spec, options=options), env)
        if not isinstance(provider, MemorySource):
            raise UsageError(f"provider '{spec.source_id}' keeps no facts to measure")
        self.provider: ContextProvider[Any] = provider
        self.source: MemorySource = provider
        self.view = _Ingesting([provider])
        self.turn_of: dict[str, str] = {}  # a learnt message's id: the conversation's turn id
        self._lines: dict[str, str] | None = None

    async def learn(self, key: str, message: Message, turn: str) -> None:
        """The user turn `message` (stored under history key `key`) learnt from."""
        self.turn_of[message.id] = turn
        context = RunContext(session_id=key, input_messages=[message])
        context.stored = True
        await self.provider.after_run(
            agent=self.view, session=Session(id=key), context=context, state={}
        )
        self._lines = None

    def facts(self) -> int:
        return len(self.source.remembered())

    async def recalled_turns(self, question: str) -> list[str]:
        """The turns the facts the memory recalls for `question` were learnt from."""
        lines = self._lines if self._lines is not None else self._fact_lines()
        self._lines = lines
        context = RunContext(session_id="", input_messages=[Message.user(question, origin="typed")])
        await self.provider.before_run(
            agent=self.view, session=Session(), context=context, state={}
        )
        block = "\n".join(context.instructions.get(self.provider.source_id, []))
        found = (lines.get(line) for line in block.splitlines())
        return [turn for turn in found if turn is not None]

    def _fact_lines(self) -> dict[str, str]:
        """Each fact's line in a recall block: the turn it was learnt from."""
        lines: dict[str, str] = {}
        for fact in self.source.remembered():
            message = (fact.get("provenance") or {}).get("message_id")
            turn = self.turn_of.get(str(message))
            if turn is not None:
                lines[f"- {fact['label']}: {fact['value']}"] = turn
        return lines

    async def forget(self) -> None:
        """Everything the memory keeps of the conversation's user deleted: by a memory that
        can erase a user, every row, retired facts and the marks of forgotten ones too;
        by any other, each fact it still holds."""
        from ctxchat.core.capabilities import ErasesUser

        if isinstance(self.provider, ErasesUser):
            await asyncio.to_thread(self.provider.erase_user)
            return
        for fact in await asyncio.to_thread(self.source.remembered):
            await asyncio.to_thread(self.source.forget_fact, str(fact["id"]))

    def close(self) -> None:
        from ctxchat.core.capabilities import Closes

        if isinstance(self.provider, Closes):
            self.provider.close()
