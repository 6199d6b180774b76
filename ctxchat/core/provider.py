"""The provider contract: context providers and their history-keeping specialisation.

A provider object is shared by every session and holds only settings and clients. Whatever
belongs to one session lives in `state`, the dict at `session.state[source_id]`: plain JSON
values only (dicts, lists, strings, numbers, booleans, None), since it is saved with the
session file.

A turn, as providers see it:

1. `before_run` of every provider, in config order: add instructions, messages, tools or
   middleware to the `RunContext`.
2. The model call (and its tool rounds).
3. After the model, three stages:
   - *store*: `after_run` of every provider that stores the turn (a history that stores
     anything), in reverse config order; the turn counts as stored when all of them, and
     then the caller's save of the session file, succeeded (`context.stored`).
   - *record*: `record_turn` of every provider, in config order, for every turn, kept or
     failed (`context.error` is set then), once the histories and the session file have
     settled it and before anything learns from it. Ctrl-C cannot cut it short, and a
     process killed while providers learn has recorded the turn already: this is where
     an audit writes its row. A process killed after the session file counted the turn
     and before this stage leaves a mark in the file; the next process to hold the
     session's lock hands what the history kept of the turn to `record_missed_turn` (a
     provider implementing `RecordsMissedTurns`, see `ctxchat.core.capabilities`).
   - *learn*: `after_run` of every other provider, in reverse config order, so that a
     provider that learns from the turn (memory, a summary) knows whether it was kept.
     It runs for every turn too: the default calls `after_stored_turn` only for a stored
     turn, which is what a provider that learns wants. Ctrl-C may cut this stage short;
     the turn stands (`context.learning_interrupted`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Generic,
    Protocol,
    TypeVar,
    get_args,
    get_origin,
)

from ctxchat.core.errors import ConfigError, CtxchatError
from ctxchat.core.handles import Handles
from ctxchat.core.messages import Message, new_id
from ctxchat.core.options import NoOptions, build_options, option
from ctxchat.core.progress import ProgressBars, no_bars
from ctxchat.core.tools import ToolRegistry

# It keys the provider's state in session files and labels its instruction block.
SOURCE_ID_PATTERN = re.compile(r"^[A-Za-z0-9_.-]+$")
SOURCE_ID_RULE = "may hold only letters, digits, '_', '.' and '-'"

if TYPE_CHECKING:
    from ctxchat.core.context import RunContext
    from ctxchat.core.model_types import ChatModel, Embeddings
    from ctxchat.core.session import Session
    from ctxchat.core.settings import AgentSettings

OptionsT = TypeVar("OptionsT")


def check_source_id(source_id: object) -> str:
    """`source_id` if it is usable as one, else a `ConfigError` saying why."""
    if not isinstance(source_id, str) or not source_id.strip():
        raise ConfigError("a provider's source_id must be a non-empty string")
    if not SOURCE_ID_PATTERN.match(source_id):
        raise ConfigError(f"source_id {source_id!r} {SOURCE_ID_RULE}")
    return source_id


class AgentView(Protocol):
    """What a provider may use of the agent running the turn."""

    @property
    def settings(self) -> AgentSettings: ...

    def provider(self, source_id: str) -> ContextProvider[Any] | None: ...

    def run_providers(self) -> Sequence[ContextProvider[Any]]:
        """Every provider of the run, in pipeline order (a fallback history first)."""
        ...

    @property
    def loading_history(self) -> HistoryProvider[Any] | None:
        """The history that loads the conversation into this run, if any."""
        ...

    @property
    def model(self) -> ChatModel:
        """The agent's model (a run may use another: `RunContext.model`)."""
        ...


@dataclass
class ProviderEnv:
    """What the engine lends providers: where to keep files, the shared database, the tool
    catalogue, the progress display."""

    data_dir: Path
    # The database SQL-backed providers use unless their own `url` option names another
    # ([storage] url; None: the SQLite file in `data_dir`).
    storage_url: str | None = None
    tools: ToolRegistry = field(default_factory=ToolRegistry)
    # The embeddings endpoint, for providers that rank by meaning (the tool selector);
    # None: there is none, rank by words.
    embeddings: Embeddings | None = None
    # Where long work outside a turn (a migration of the database) shows its progress: the
    # CLI lends its display; a provider never draws on the terminal itself.
    progress: ProgressBars = no_bars
    # The same endpoint when `[embeddings]` is set in the config, for stored messages
    # (hybrid search and recall); None: by words only. Never implied, as the tool
    # selector's is: on a paid endpoint every message embedded costs money.
    message_embeddings: Embeddings | None = None
    # The SQL databases the providers open, one engine per URL, owned by whoever built
    # the env and closed by it (`Handles[Database]`: core cannot name storage's type).
    # None: the registry of the process, for providers no owner built (a script, a test:
    # `ctxchat.storage.sql.store.PROCESS_DATABASES`).
    databases: Handles[Any] | None = None

    @classmethod
    def standalone(cls) -> ProviderEnv:
        from ctxchat.core.paths import data_dir

        return cls(data_dir=data_dir())


class ContextProvider(Generic[OptionsT]):
    """Adds instructions, messages, tools or middleware before a run; learns after it.

    Parametrise it with the dataclass of the provider's TOML options
    (`class Motto(ContextProvider[MottoOptions])`, see `ctxchat.core.options`): the options are
    checked against it when the config loads and `self.options` is an instance of it.

    This is the turn and nothing more: setup, the hooks, the state they are handed, the
    source id. What else a provider can do (keep data outside the session file, fork it,
    record a turn a killed process missed, offer commands or tools, be checked or closed)
    it says by implementing a protocol of `ctxchat.core.capabilities`.
    """

    Options: ClassVar[type[Any]] = NoOptions
    options: OptionsT

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "Options" in cls.__dict__:
            return
        for base in cls.__dict__.get("__orig_bases__", ()):
            origin = get_origin(base)
            args = get_args(base)
            if (
                isinstance(origin, type)
                and issubclass(origin, ContextProvider)
                and args
                and isinstance(args[0], type)
            ):
                cls.Options = args[0]
                return

    def __init__(
        self, source_id: str, options: OptionsT | None = None, *, env: ProviderEnv | None = None
    ) -> None:
        """`options` is an instance of `Options` (its defaults when left out): built from
        TOML by the config loader (`ctxchat.core.options.build_options`), or written in
        Python as `Motto("motto", MottoOptions(every=5))`, checked by the type checker."""
        self.source_id = check_source_id(source_id)
        if options is None:
            options = build_options(self.Options, {}, f"provider '{source_id}'")
        self.options = options
        self.env = env if env is not None else ProviderEnv.standalone()
        self.setup()

    def setup(self) -> None:
        """Derive what the provider needs from `self.options` and `self.env`, once, at
        config time (so `config validate` catches it). Overrides call `super().setup()`."""

    @property
    def stores_turn(self) -> bool:
        """Whether this provider keeps the conversation: its `after_run` runs in the first
        stage, and the turn counts as stored only if it succeeds."""
        return False

    async def before_run(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        """Called before the model, in config order. Extend `context` here."""

    async def after_run(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        """Called after every turn, failed ones too (`context.error` is set then) and ones
        whose history could not be stored (`context.stored` is False). The default calls
        `after_stored_turn` for a stored turn only."""
        if context.stored:
            await self.after_stored_turn(agent=agent, session=session, context=context, state=state)

    async def record_turn(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        """Called for every turn, kept or failed, once it is settled (`context.stored` and
        `context.error` are final), in config order, before any provider learns from it.
        Keep it to one short write: Ctrl-C waits for it. A failure is a warning."""

    async def after_stored_turn(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        """Learn from a turn that completed and was stored: its input is
        `context.input_messages`, everything the model produced `context.response`."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.source_id!r})"


@dataclass(frozen=True)
class HistoryOptions:
    load_messages: bool = option(True, help="load stored messages into the model's context")
    store_inputs: bool = option(True, help="store the user's input of each turn")
    store_outputs: bool = option(True, help="store the model's replies, tool calls and results")
    store_context_messages: bool = option(
        False, help="also store messages other providers injected into the context"
    )
    store_context_from: list[str] | None = option(
        None, help="source ids whose context messages are stored (omitted = all)"
    )


HistoryOptionsT = TypeVar("HistoryOptionsT", bound=HistoryOptions)


class HistoryUnsupported(CtxchatError):
    """The history provider cannot do what was asked (for example undo)."""


class HistoryProvider(ContextProvider[HistoryOptionsT]):
    """A provider that loads and stores the conversation.

    A backend implements `get_messages` and `store_turn`: one call holds a whole turn,
    under its id, and must store all of it or none of it. A failed turn stores nothing; a
    history whose store fails makes the turn failed. (`save_messages` is the same store
    under a new id, for a caller with no turn id; a backend never implements it.)

    A history kept outside the session file (`stores_in_session` False) stores a turn
    before the session file counts it, so it must be able to take the turn back by its id
    (`discard_turn`): when the session file cannot be saved, or a process ended between
    the two, the turn is removed again and the two agree (see `ctxchat.services.journal`).
    """

    # True for a history kept in the session's own state: saved with the session file,
    # in the same write that counts the turn, so it needs no journal.
    stores_in_session: ClassVar[bool] = False

    Options: ClassVar[type[Any]] = HistoryOptions

    def setup(self) -> None:
        super().setup()
        options: HistoryOptions = self.options
        self.load_messages = options.load_messages
        self.store_inputs = options.store_inputs
        self.store_outputs = options.store_outputs
        self.store_context_messages = options.store_context_messages
        sources = options.store_context_from
        self.store_context_from = frozenset(sources) if sources is not None else None

    @property
    def stores_turn(self) -> bool:
        return self.store_inputs or self.store_outputs or self.store_context_messages

    # -- storage: implemented by each backend -------------------------------------------------
    async def get_messages(self, session_id: str, *, state: dict[str, Any]) -> list[Message]:
        """The messages to show the model (the provider's window over the history)."""
        raise NotImplementedError

    async def store_turn(
        self, session_id: str, messages: Sequence[Message], *, state: dict[str, Any], turn_id: str
    ) -> None:
        """Store one turn's messages under `turn_id`, atomically."""
        if type(self).save_messages is not HistoryProvider.save_messages:
            # A backend written before `store_turn` was the one to implement: it forgets
            # the id, so it cannot take a turn back (`discard_turn` is False for it).
            await self.save_messages(session_id, messages, state=state)
            return
        raise NotImplementedError(f"{type(self).__name__} does not implement store_turn")

    async def save_messages(
        self, session_id: str, messages: Sequence[Message], *, state: dict[str, Any]
    ) -> None:
        """Store one turn's messages under a new turn id: `store_turn`, for a caller that
        has none. Never overridden, but by a backend of the old API."""
        await self.store_turn(session_id, messages, state=state, turn_id=new_id())

    async def all_messages(self, session_id: str, *, state: dict[str, Any]) -> list[Message]:
        """The whole stored history, for export and display."""
        return await self.get_messages(session_id, state=state)

    async def messages_before(
        self,
        session_id: str,
        *,
        state: dict[str, Any],
        first_kept: str | None,
        after: str | None,
    ) -> list[Message] | None:
        """The stored messages older than the message `first_kept` (None: all of them) and
        newer than the message `after` (None: from the first), oldest first; None when
        `after` is not in this history (it was rewritten). What fell out of a window, for a
        provider that summarises it. A backend overrides this to read less than the whole
        history."""
        messages = await self.all_messages(session_id, state=state)
        ids = [m.id for m in messages]
        end = ids.index(first_kept) if first_kept in ids else len(messages)
        if after is None:
            return messages[:end]
        if after not in ids:
            return None
        return messages[ids.index(after) + 1 : end]

    async def discard_turn(self, session_id: str, turn_id: str, *, state: dict[str, Any]) -> bool:
        """Remove the turn stored under `turn_id`, if it is there; False when this history
        cannot find turns by id (it may keep a turn its session never counted)."""
        return False

    # -- the hooks ----------------------------------------------------------------------------
    async def before_run(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        if self.load_messages:
            messages = await self.get_messages(session.id, state=state)
            context.extend_messages(self.source_id, messages, kind="history")

    async def after_run(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        if context.error is not None:
            return
        messages = self.messages_to_store(context)
        if messages:
            await self.store_turn(session.id, messages, state=state, turn_id=context.turn_id)

    def messages_to_store(self, context: RunContext) -> list[Message]:
        """This turn's messages as the flags select them, in the order the model saw them."""
        selected: list[Message] = []
        if self.store_context_messages:
            wanted = self.store_context_from
            selected.extend(
                m
                for m in context.model_messages(include_input=False)
                if m.source_id != self.source_id and (wanted is None or m.source_id in wanted)
            )
        if self.store_inputs:
            selected.extend(context.input_messages)
        if self.store_outputs and context.response is not None:
            selected.extend(context.response.messages)
        return selected
