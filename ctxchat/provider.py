"""The provider contract: context providers and their history-keeping specialisation.

A provider object is shared by every session and holds only settings and clients. Whatever
belongs to one session lives in `state`, the dict at `session.state[source_id]`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from ctxchat.errors import ConfigError, CtxchatError
from ctxchat.messages import Message
from ctxchat.options import NoOptions, build_options, option
from ctxchat.tools import ToolRegistry

# It keys the provider's state in session files and labels its instruction block.
_SOURCE_ID = re.compile(r"^[A-Za-z0-9_.-]+$")

if TYPE_CHECKING:
    from ctxchat.commands import Command
    from ctxchat.context import RunContext
    from ctxchat.model_types import ChatModel
    from ctxchat.session import Session


@dataclass
class ProviderEnv:
    """What the engine lends providers: where to keep files, the tool catalogue, the model."""

    data_dir: Path
    tools: ToolRegistry = field(default_factory=ToolRegistry)
    chat_model: ChatModel | None = None
    extras: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def standalone(cls) -> ProviderEnv:
        from ctxchat.paths import data_dir

        return cls(data_dir=data_dir())


class ContextProvider:
    """Adds instructions, messages, tools or middleware before a run; learns after it.

    Subclasses set `Options` to a dataclass of their TOML options (see `ctxchat.options`).
    """

    Options: ClassVar[type[Any]] = NoOptions
    options: Any

    def __init__(
        self,
        source_id: str,
        options: Any = None,
        *,
        env: ProviderEnv | None = None,
        **overrides: Any,
    ) -> None:
        if not isinstance(source_id, str) or not source_id.strip():
            raise ConfigError("a provider's source_id must be a non-empty string")
        if not _SOURCE_ID.match(source_id):
            raise ConfigError(
                f"source_id {source_id!r} may hold only letters, digits, '_', '.' and '-'"
            )
        self.source_id = source_id
        where = f"provider '{source_id}'"
        if options is None:
            options = build_options(self.Options, overrides, where)
        elif overrides:
            merged = {**dataclasses.asdict(options), **overrides}
            options = build_options(self.Options, merged, where)
        self.options = options
        self.env = env if env is not None else ProviderEnv.standalone()
        self.setup()

    def setup(self) -> None:
        """Derive what the provider needs from `self.options` and `self.env`, once, at
        config time (so `config validate` catches it). Overrides call `super().setup()`."""

    def check(self) -> None:
        """Reach what the provider depends on (open its database, say) and raise a
        `CtxchatError` if it cannot: `ctxchat config validate` calls this. Unlike `setup`,
        it may be slow or touch the outside world; a normal run never calls it."""

    async def before_run(
        self, *, agent: Any, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        """Called before the model, in config order. Extend `context` here."""

    async def after_run(
        self, *, agent: Any, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        """Called after the turn, in reverse order, also when it failed (`context.error`)."""

    def commands(self) -> Sequence[Command]:
        """REPL slash commands this provider adds (for example /memory)."""
        return ()

    async def forget_session(self, session: Session, state: dict[str, Any]) -> None:
        """The session is being deleted: drop whatever this provider keeps outside it."""

    def close(self) -> None:
        """Release clients and connections; the process is about to end."""

    def describe(self) -> str:
        """One line for `config show`."""
        return type(self).__name__

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


class HistoryUnsupported(CtxchatError):
    """The history provider cannot do what was asked (for example undo)."""


class HistoryProvider(ContextProvider):
    """A provider that loads and stores the conversation.

    One call to `save_messages` holds a whole turn and must store all of it or none of it.
    A failed turn stores nothing (`after_run` returns early when `context.error` is set).
    """

    Options: ClassVar[type[Any]] = HistoryOptions

    load_messages: bool = True
    store_inputs: bool = True
    store_outputs: bool = True
    store_context_messages: bool = False
    store_context_from: frozenset[str] | None = None

    def setup(self) -> None:
        super().setup()
        # Flags come from options when the provider's Options has them; a provider that
        # fixes a flag (the audit history) leaves it out of its Options and sets it here.
        for flag in ("load_messages", "store_inputs", "store_outputs", "store_context_messages"):
            if hasattr(self.options, flag):
                setattr(self, flag, bool(getattr(self.options, flag)))
        sources = getattr(self.options, "store_context_from", None)
        if sources is not None:
            self.store_context_from = frozenset(sources)

    # -- storage: implemented by each backend -------------------------------------------------
    async def get_messages(self, session_id: str, *, state: dict[str, Any]) -> list[Message]:
        """The messages to show the model (the provider's window over the history)."""
        raise NotImplementedError

    async def save_messages(
        self, session_id: str, messages: Sequence[Message], *, state: dict[str, Any]
    ) -> None:
        """Store one turn's messages, atomically."""
        raise NotImplementedError

    async def all_messages(self, session_id: str, *, state: dict[str, Any]) -> list[Message]:
        """The whole stored history, for export and display."""
        return await self.get_messages(session_id, state=state)

    async def remove_last_turn(self, session_id: str, *, state: dict[str, Any]) -> list[Message]:
        """Drop the most recent stored turn; returns what was removed."""
        raise HistoryUnsupported(f"history provider '{self.source_id}' cannot undo a turn")

    # -- the hooks ----------------------------------------------------------------------------
    async def before_run(
        self, *, agent: Any, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        if self.load_messages:
            messages = await self.get_messages(session.id, state=state)
            context.extend_messages(self.source_id, messages, kind="history")

    async def after_run(
        self, *, agent: Any, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        if context.error is not None:
            return
        messages = self.messages_to_store(context)
        if messages:
            await self.save_messages(session.id, messages, state=state)

    def messages_to_store(self, context: RunContext) -> list[Message]:
        """This turn's messages as the flags select them, in the order the model saw them."""
        selected: list[Message] = []
        if self.store_context_messages:
            selected.extend(
                context.get_messages(
                    sources=self.store_context_from, exclude_sources={self.source_id}
                )
            )
        if self.store_inputs:
            selected.extend(context.input_messages)
        if self.store_outputs and context.response is not None:
            selected.extend(context.response.messages)
        return selected

    def describe(self) -> str:
        flags = "loads history" if self.load_messages else "does not load history"
        return f"{type(self).__name__} ({flags})"
