"""Conversations: sessions on disk driven through the agent, one saved turn at a time.

This is the layer the CLI calls. It holds the session lock for the length of a turn and
reloads the session inside it, so two processes on one session take turns instead of
overwriting each other's. A turn is counted in the session file only once the histories
have stored it, and taken back out of them if that save fails or the process dies before
it: see `ctxchat.services.journal` for the order and the recovery.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ctxchat.core.agent import Agent, TurnFailed
from ctxchat.core.approval import Approver, refuse_unasked
from ctxchat.core.capabilities import UndoesTurns
from ctxchat.core.context import RunContext
from ctxchat.core.deferred import DeferredWork
from ctxchat.core.errors import (
    CtxchatError,
    SessionNotFound,
    UsageError,
)
from ctxchat.core.messages import Message, new_id
from ctxchat.core.model_types import ChatModel, EventSink, ProviderWarning, ignore_events
from ctxchat.core.provider import HistoryUnsupported
from ctxchat.core.session import Session
from ctxchat.services import journal
from ctxchat.services.session_reading import SessionReading
from ctxchat.services.sessions_on_disk import SessionsOnDisk
from ctxchat.services.titles import clean_title, text_of
from ctxchat.storage.catalog import SessionCatalog
from ctxchat.storage.store import SessionStore, SessionSummary

if TYPE_CHECKING:
    from ctxchat.config.prices import Price
    from ctxchat.services.model_discovery import EndpointModels
    from ctxchat.services.roles import RoleSwitch


@dataclass
class TurnOutcome:
    context: RunContext
    session: Session

    @property
    def text(self) -> str:
        return self.context.response.text if self.context.response else ""


@dataclass
class Conversation:
    """An open session: the in-memory copy the REPL or a script works on, and the model it
    talks to (each conversation its own: switching one never switches another)."""

    session: Session
    saved: bool
    model: ChatModel
    last_context: RunContext | None = None
    last_input: str | None = None


def conversation_model(session: Session, configured: ChatModel, *, chosen: bool) -> ChatModel:
    """The model a conversation talks to. A model chosen for this run (a flag or the
    environment) wins; else a resumed session goes on with the model it was having; else
    the config file's. Only the name changes: the endpoint and settings are the config's."""
    if chosen or not session.model or session.model == configured.name:
        return configured
    return configured.with_model(session.model)


class ChatService(SessionReading):
    def __init__(
        self,
        agent: Agent,
        store: SessionStore,
        *,
        lock_wait: float = 30.0,
        model_chosen: bool = False,
        context_window: int | None = None,
        on_lock_wait: Callable[[str], None] | None = None,
        ephemeral: bool = False,
        models: EndpointModels | None = None,
        roles: RoleSwitch | None = None,
        project: str | None = None,
        prices: Mapping[str, Price] | None = None,
    ) -> None:
        self.agent = agent
        self.store = store
        # A temporary chat (`run --temp`): its session lives in memory only, never locked
        # or written, so nothing of it is left on disk.
        self.ephemeral = ephemeral
        # Each session worked on under its lock, reloaded inside it (`sessions_on_disk`).
        self.on_disk = SessionsOnDisk(
            store, lock_wait=lock_wait, on_lock_wait=on_lock_wait, ephemeral=ephemeral
        )
        self.writer = self.on_disk.writer
        self.context_window = context_window
        # Whether the agent's model was chosen for this run (flag, environment) rather
        # than read from the config file: see `conversation_model`.
        self.model_chosen = model_chosen
        # What the endpoint serves (see model_discovery); None: nothing to ask it.
        self.models = models
        # The role in use and how to switch it (`ctxchat.services.roles`); None: no roles.
        self.roles = roles
        # The project the chat runs in (`ctxchat.config.projects`): new sessions join it.
        self.project = project
        # What each model costs (`[prices."MODEL"]`), for /cost.
        self.prices: Mapping[str, Price] = prices or {}

    def close(self) -> None:
        self.agent.close()

    # -- opening ------------------------------------------------------------------------------
    def new(self, title: str | None = None) -> Conversation:
        """A new session; written on its first completed turn (or rename)."""
        if title is not None:
            title = clean_title(title)
        model = self.agent.model
        session = Session(title=title, model=model.name, project=self.project)
        return Conversation(session, saved=False, model=model)

    def open(self, ref: str) -> Conversation:
        return self._resume(self.store.load(self.store.resolve(ref)))

    def open_latest(self) -> Conversation:
        # A session with no turn (left by a failed first turn before they left none) is
        # nothing to go on with: `-c` takes the latest that has one.
        latest = next((s.id for s in self.store.list() if s.turns > 0), None)
        if latest is None:
            raise SessionNotFound("there is no session to continue yet")
        return self._resume(self.store.load(latest))

    def _resume(self, session: Session) -> Conversation:
        model = conversation_model(session, self.agent.model, chosen=self.model_chosen)
        return Conversation(session, saved=True, model=model)

    def use_model(self, conversation: Conversation, name: str) -> None:
        """Talk to `name`, known only now (the endpoint's one model), in this conversation;
        an unsaved one's session records it. Nothing shared takes it: the run's other
        conversations start on their own (see `start_new`)."""
        conversation.model = conversation.model.with_model(name)
        if not conversation.saved:
            conversation.session.model = name

    async def start_new(
        self, title: str | None = None, *, after: Conversation | None = None
    ) -> Conversation:
        """A new session on the run's model (`/new`): the configured one; when the config
        names none, the endpoint's only one; when it serves several, that of `after`, the
        conversation this one follows, as there is no other to go on with."""
        conversation = self.new(title)
        if conversation.model.name:
            return conversation
        name = after.model.name if after is not None else ""
        if self.models is not None:
            with contextlib.suppress(CtxchatError):  # several, or none listed: as before
                name = (await self.models.only_model()).name
        if name:
            self.use_model(conversation, name)
        return conversation

    async def unlisted(self, name: str) -> str | None:
        """A warning when the endpoint does not list the model `name` (see
        `ctxchat.services.model_discovery`); None when it does or cannot say."""
        return await self.models.unlisted(name) if self.models is not None else None

    def switch_model(self, conversation: Conversation, name: str) -> None:
        """Talk to the model `name` from the next turn of this conversation only."""
        name = name.strip()
        if not name:
            raise UsageError("a model name cannot be empty")
        conversation.model = conversation.model.with_model(name)

    # -- listing ------------------------------------------------------------------------------
    def sessions(self, limit: int | None = None) -> list[SessionSummary]:
        """Saved sessions, most recently used first."""
        return SessionCatalog(self.store).list(limit=limit)

    # -- turns --------------------------------------------------------------------------------
    async def send(
        self,
        conversation: Conversation,
        inputs: str | Sequence[Message],
        *,
        on_event: EventSink = ignore_events,
        approve: Approver = refuse_unasked,
        defer: bool = False,
    ) -> TurnOutcome:
        """Run one turn and save it. On failure the session is saved without the turn and
        `TurnFailed` (carrying the input) is raised. `approve` answers for tools with side
        effects (see `ctxchat.core.approval`). With `defer`, slow learning is left in
        `context.deferred` for the caller to hand to `run_deferred`."""
        conversation.last_input = inputs if isinstance(inputs, str) else text_of(inputs)
        if self.roles is not None:
            inputs = self.roles.wrap([Message.user(inputs)] if isinstance(inputs, str) else inputs)
        async with self.on_disk.locked_async(conversation.session.id):
            session = self._fresh(conversation)
            await journal.recover(self.writer, session, self.agent)
            turn_id = new_id()
            journal.begin(self.writer, session, turn_id, self.agent)
            committed: list[str] = []

            unrecorded = turn_id if journal.recording(self.agent) else None

            async def commit(context: RunContext) -> None:
                journal.commit(
                    self.writer, session, conversation.model.name, inputs, unrecorded=unrecorded
                )
                committed.append(json.dumps(session.state, sort_keys=True))

            try:
                context = await self.agent.run(
                    session,
                    inputs,
                    model=conversation.model,
                    on_event=on_event,
                    approve=approve,
                    turn_id=turn_id,
                    on_stored=commit,
                    defer=defer,
                )
            except TurnFailed as failed:
                conversation.session = session
                conversation.saved = journal.settle_failure(
                    self.writer,
                    session,
                    failed,
                    existed=conversation.saved,
                )
                raise
            marked = session.unrecorded_turn is not None
            session.unrecorded_turn = None  # the record stage ran
            if committed and json.dumps(session.state, sort_keys=True) != committed[0]:
                self._save_learnt(session, on_event)
            elif marked:
                # A save that fails leaves the mark: the next process finds the turn
                # recorded already, and clears it.
                with contextlib.suppress(CtxchatError):
                    self.on_disk.save(session, used=False)
        conversation.session = session
        conversation.saved = True
        conversation.last_context = context
        return TurnOutcome(context, session)

    async def run_deferred(
        self,
        conversation: Conversation,
        work: Sequence[DeferredWork],
        *,
        on_event: EventSink = ignore_events,
    ) -> None:
        """Run what a turn left for later (see `ctxchat.core.deferred`) on the session as
        it is now, under its lock, and save what it learnt as the turn saves it. Cancelled
        (Ctrl-C skips it), what was done so far is still saved."""
        if not work or not conversation.saved:
            return
        async with self.on_disk.locked_async(conversation.session.id):
            session = self._fresh(conversation)
            try:
                for item in work:
                    state = session.provider_state(item.source_id)
                    await item.run(session, state, on_event)
            finally:
                self._save_learnt(session, on_event)
                conversation.session = session

    def _save_learnt(self, session: Session, on_event: EventSink) -> None:
        """Save what the second stage (memory, summaries) put in the session's state after
        the turn was committed; the turn stands if this fails."""
        try:
            self.on_disk.save(session, used=False)
        except CtxchatError as exc:
            on_event(ProviderWarning("session", f"what was learnt could not be saved: {exc}"))

    def session_lock(self, session_id: str) -> contextlib.AbstractAsyncContextManager[None]:
        """The session's lock, as a turn takes it: for work that must not run beside one."""
        return self.on_disk.locked_async(session_id)

    def _fresh(self, conversation: Conversation) -> Session:
        """The conversation's session as on disk now: another process may have added turns."""
        return self.on_disk.fresh(conversation.session, saved=conversation.saved)

    # -- editing ------------------------------------------------------------------------------
    def rename(self, conversation: Conversation, title: str) -> None:
        title = clean_title(title)
        with self.on_disk.locked(conversation.session.id):
            session = self._fresh(conversation)
            session.title = title
            # A new title is not a use: "last used" (and the order of `sessions list`)
            # stays the last turn's.
            self.on_disk.save(session, used=False)
        conversation.session = session
        conversation.saved = True

    def set_role(self, conversation: Conversation, role: str | None) -> None:
        """Remember the conversation's role in its session (saved now if it is saved)."""
        if not conversation.saved or self.ephemeral:
            conversation.session.role = role
            return
        with self.on_disk.locked(conversation.session.id):
            session = self._fresh(conversation)
            session.role = role
            self.on_disk.save(session, used=False)
        conversation.session = session

    def save_provider_state(self, conversation: Conversation, source_id: str) -> None:
        """Keep what a provider's REPL command changed in its state. Only that provider's
        namespace is written over the session as on disk, so turns another process added
        meanwhile stay; an unsaved conversation keeps it until its first turn saves it."""
        if not conversation.saved:
            return
        changed = conversation.session.provider_state(source_id)
        with self.on_disk.locked(conversation.session.id):
            session = self._fresh(conversation)
            session.state[source_id] = changed
            self.on_disk.save(session)
        conversation.session = session

    async def undo(self, conversation: Conversation) -> list[Message]:
        """Drop the last turn from the loading history; returns the removed messages."""
        if not conversation.saved:
            return []
        provider = self.history()
        async with self.on_disk.locked_async(conversation.session.id):
            session = self._fresh(conversation)
            await journal.recover(self.writer, session, self.agent)
            if not isinstance(provider, UndoesTurns):
                raise HistoryUnsupported(
                    f"history provider '{provider.source_id}' cannot undo a turn"
                )
            removed = await provider.remove_last_turn(
                session.id, state=session.provider_state(provider.source_id)
            )
            if removed:
                session.turns = max(0, session.turns - 1)
                self.on_disk.save(session)
        conversation.session = session
        conversation.last_context = None
        return removed

    def resolve_all(self, refs: Sequence[str]) -> list[str]:
        """Session ids for `refs`, every one resolved before anything is done with them:
        one typo in a list given to `delete_many` deletes nothing."""
        return list(dict.fromkeys(self.store.resolve(ref) for ref in refs))
