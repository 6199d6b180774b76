"""User memory: durable facts and preferences learnt from the user's own words, recalled in
every later conversation, and shown, corrected and forgotten on request.

Learning (`after_stored_turn`, so only from a turn that completed and was stored): the
input's own-words text (typed, given as the prompt argument, piped in as the message; never
a paste, an attached document, the model's words, tool results or another provider's
messages) goes through the extractor (`rules`: offline patterns, `llm`: the chat model
asked for operations with their evidence, or `both`), then the one deterministic update
step. Every change is announced in one line after the reply; nothing is stored silently.
Secrets are never stored.

Recall (`before_run`): one instruction block, bounded by `max_facts` and `max_chars`: style
preferences first, then the facts most relevant to the input (BM25 through the engine's
ranking module), then the newest.

Scope: "user" (default) keeps one memory per user in the SQL database shared by every
session, keyed by the user id (option `user`, else CTXCHAT_USER, else the login name), so a
team on one PostgreSQL database never mixes memories; "session" keeps it in the session.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from ctxchat import (
    AgentView,
    ContextProvider,
    Message,
    ModelRequest,
    RunContext,
    Session,
    StorageError,
)
from ctxchat.kit import SqlBacked, ignore_events

from .options import UserMemoryOptions, user_key_of
from .schema import MEMORY
from .turn_learning import change_line, learn_from_turn, own_words

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ctxchat import ChatModel, Command, CommandView
    from ctxchat.kit import Forgetting, LearnItem, Progress

    from . import Change, Extraction, Fact, FactSet
    from .store import SessionMemory, SqlMemory

# The memory library (its rules, its store) is imported when a turn first needs it: a
# command that only builds the pipeline (`sessions list`, `--help`) never pays for it.


class UserMemoryProvider(SqlBacked[UserMemoryOptions], ContextProvider[UserMemoryOptions]):
    """Learns durable facts about the user from their own words and recalls them."""

    stores: ClassVar = (MEMORY,)

    def setup(self) -> None:
        super().setup()
        self.user_key = user_key_of(self.options)
        self._user_memory: SqlMemory | None = None
        # Each project's facts (scope "project"): clients, one per project met, as
        # `_user_memory` is for the user's.
        self._project_memories: dict[str, SqlMemory] = {}

    @property
    def _sql(self) -> SqlMemory:
        """The user's facts in the database (one per provider: a process has one user)."""
        if self._user_memory is None:
            from .store import SqlMemory

            self._user_memory = SqlMemory(self.database, self.user_key)
        return self._user_memory

    def project_memory(self, session: Session) -> SqlMemory | None:
        """The memory of the session's project, with scope "project" in a project."""
        project = session.project
        if self.options.scope != "project" or project is None:
            return None
        found = self._project_memories.get(project)
        if found is None:
            from .project import project_owner
            from .store import SqlMemory

            found = SqlMemory(self.database, project_owner(self.user_key, project))
            self._project_memories[project] = found
        return found

    @property
    def stores_outside_session(self) -> bool:
        return self.options.scope != "session"

    def memory(self, state: dict[str, Any]) -> SqlMemory | SessionMemory:
        from .store import SessionMemory

        return SessionMemory(state) if self.options.scope == "session" else self._sql

    # -- recall -------------------------------------------------------------------------------
    async def before_run(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        if state.get("off"):
            return
        memories = [self.memory(state)]
        project = self.project_memory(session)
        if project is not None:
            memories.append(project)
        try:
            read = [await asyncio.to_thread(memory.facts) for memory in memories]
        except StorageError as exc:
            # Its database full or gone while the history's is not: the turn goes on
            # without recall rather than failing every turn (issue 21, item 11).
            context.warn(self.source_id, f"recall skipped: {exc.message}")
            return
        active = [fact for facts, _ in read for fact in facts.active()]
        if not active:
            return  # nothing remembered: nothing to rank or render
        from ctxchat.kit import rank_texts

        from . import render_recall
        from .project import joint_relevance
        from .store import relevance_of

        if len(read) == 1:
            relevance = relevance_of(read[0][1]())
        else:
            relevance = joint_relevance([index for _, index in read])
        query = own_words(context)

        def recall(max_facts: int) -> str:
            return render_recall(
                active,
                query,
                max_facts=max_facts,
                max_chars=self.options.max_chars,
                rank=rank_texts,
                relevance=relevance,
            )

        block = recall(self.options.max_facts)
        if not block:
            return
        context.extend_instructions(self.source_id, block)
        shown = [sum(1 for line in block.splitlines() if line.startswith("- "))]

        def shrink(tokens: int) -> bool:
            """Over the model's window: recall one fact fewer (the least relevant goes)."""
            if shown[0] <= 0:
                return False
            shown[0] -= 1
            fewer = recall(shown[0]) if shown[0] else ""
            context.instructions[self.source_id] = [fewer] if fewer else []
            return True

        context.on_over_budget(self.source_id, shrink, priority=10)

    # -- learning -----------------------------------------------------------------------------
    async def after_stored_turn(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        await learn_from_turn(self, agent=agent, session=session, context=context, state=state)

    async def extract(
        self, context: RunContext, text: str, memory: SqlMemory | SessionMemory
    ) -> Extraction:
        """The operations the configured extractor finds in `text`. The model's failure
        never fails the turn: it is a warning, and `both` keeps what the rules found."""
        from . import Extraction, extract_rules, merge
        from .antecedents import opens_with_pronoun
        from .names_again import might_rename
        from .thing_types import named_things

        kind = self.options.extractor
        found = Extraction()
        # The facts learnt so far, read once: for whom "she" or "his" stands for, which
        # name a name said again replaces, or which thing of a type a new one replaces
        # (only when the message may hold such words), and for the model's prompt.
        known: list[Fact] | None = None
        if kind != "llm":
            if opens_with_pronoun(text) or might_rename(text) or named_things(text):
                stored, _ = await asyncio.to_thread(memory.facts)
                known = stored.active()
            found = extract_rules(text, known or [])
        if kind == "rules" or context.model is None:
            return found
        try:
            if known is None:
                stored, _ = await asyncio.to_thread(memory.facts)
                known = stored.active()
            asked = await self.ask_model(context.model, text, known)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            detail = str(exc) or type(exc).__name__
            return Extraction(found.ops, found.secret_dropped, f"memory extractor failed: {detail}")
        return merge(found, asked) if kind == "both" else asked

    async def ask_model(self, model: ChatModel, text: str, known: Sequence[Fact]) -> Extraction:
        from ctxchat import ModelError

        from .llm import build_prompt, parse_reply, request_options

        if self.options.model:
            model = model.with_model(self.options.model)
        prompt = build_prompt(text, known)
        messages = (Message.system(prompt.system), Message.user(prompt.user))
        try:
            reply = await model.complete(
                ModelRequest(messages, options=request_options(schema=True)), ignore_events
            )
        except ModelError as exc:
            if "response_format" not in str(exc) and "json_schema" not in str(exc):
                raise
            # A server that takes no schema: the prompt alone says what to answer.
            reply = await model.complete(
                ModelRequest(messages, options=request_options(schema=False)), ignore_events
            )
        return parse_reply(reply.message.text, text)

    # -- imports (`ctxchat import`, see `.import_learning`) -----------------------------------
    @staticmethod
    def mask_secrets(text: str) -> tuple[str, int]:
        from .import_learning import mask_secrets

        return mask_secrets(text)

    async def preview_learning(self, items: Sequence[LearnItem]) -> list[str]:
        """What `learn_from` would remember, as change lines; nothing is stored."""
        from . import InMemoryFactSet
        from .import_learning import held_slots, learn

        self._refuse_session_scope()
        stored, _ = await asyncio.to_thread(self._sql.facts)
        copy = InMemoryFactSet(stored.all())
        return [change_line(c) for c in learn(copy, items, held_slots(stored))]

    async def learn_from(self, items: Sequence[LearnItem]) -> list[str]:
        """Remember what the user's imported words say about them, in one transaction."""
        from .import_learning import held_slots, learn

        self._refuse_session_scope()

        def work(facts: FactSet) -> list[Change]:
            return learn(facts, items, held_slots(facts))

        changes = await asyncio.to_thread(self._sql.change, work)
        return [change_line(c) for c in changes]

    def _refuse_session_scope(self) -> None:
        if self.options.scope == "session":
            from ctxchat import UsageError

            raise UsageError(
                f'{self.source_id}: scope = "session" keeps no memory an import can learn into'
            )

    # -- the user's control over it -----------------------------------------------------------
    def commands(self) -> Sequence[Command[CommandView]]:
        from .commands import memory_commands

        return memory_commands(self)

    def remembered(self) -> list[dict[str, Any]]:
        from .commands import fact_document

        facts, _ = self._sql.facts()
        return [fact_document(f) for f in facts.active()]

    def remembered_by_scope(self, project: str | None, *, every: bool) -> list[dict[str, Any]]:
        """Facts with their scope: the project's (`project`), or the user's and every
        project's (`every`)."""
        from .commands import fact_document
        from .project import project_owner, project_owners
        from .store import SqlMemory

        owners: list[tuple[str, str | None]] = []
        if every:
            owners.append((self.user_key, None))
            owners += project_owners(self.database(), self.user_key)
        elif project is not None:
            owners.append((project_owner(self.user_key, project), project))
        found = []
        for owner, of_project in owners:
            facts, _ = SqlMemory(self.database, owner).facts()
            scope = {"scope": "project", "project": of_project} if of_project else {"scope": "user"}
            found += [{**fact_document(f), **scope} for f in facts.active()]
        return found

    async def forget_elsewhere(
        self,
        providers: Sequence[ContextProvider[Any]],
        facts: Sequence[Fact],
        run_metadata: dict[str, Any] | None = None,
    ) -> None:
        """Take the values of facts just forgotten out of the copies other providers keep
        (the audit's rows); summaries are cleaned before their next use instead."""
        from ctxchat.kit import forget_elsewhere

        from .forgotten import values_of

        await forget_elsewhere(providers, values_of(facts), datetime.now(UTC), run_metadata)

    def forgettings_since(self, since: datetime | None) -> list[Forgetting]:
        """What this user forgot after `since` (`ForgetSource`): the summary provider
        cleans its summary against it. A session-scoped memory keeps no such record."""
        if self.options.scope == "session":
            return []
        return self._sql.forgettings_since(since)

    def forgotten_message_ids(self) -> set[str]:
        """The messages this user's forgotten facts were learnt from, for recall and the
        `search_sessions` tool to leave out."""
        from .forgotten import forgotten_message_ids

        return forgotten_message_ids(self.database(), self.user_key)

    def erase_user(self) -> int:
        """Every row of this user, marks of forgotten facts included (`ErasesUser`)."""
        from .erase import erase_user

        deleted = erase_user(self.database(), self.user_key)
        self._user_memory = None  # its facts, cached per process, are gone
        return deleted

    def forget_fact(self, fact_id: str) -> bool:
        def forget(facts: FactSet) -> bool:
            if not any(f.id == fact_id for f in facts.all()):
                return False
            facts.delete(fact_id)
            return True

        return bool(self._sql.change(forget))

    async def evaluate_cases(
        self, path: Path, *, extractor: str | None, model: ChatModel, progress: Progress | None
    ) -> dict[str, Any]:
        from .eval_command import evaluate_cases

        return await evaluate_cases(self, path, extractor=extractor, model=model, progress=progress)
