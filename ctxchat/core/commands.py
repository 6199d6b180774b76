"""What a slash command is and what it returns: data for the user (text and tables, never
terminal formatting) and what the chat should do next. A provider adds commands by
implementing `CommandSource` (`ctxchat.core.capabilities`); its handlers get a
`CommandView`, the narrow part of the chat a provider may touch, never the chat service
itself (the built-ins' `CommandContext` is `ctxchat.services.commands`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Generic, Literal, Protocol, Self, TypeAlias, TypeVar

if TYPE_CHECKING:
    from ctxchat.core.messages import Message, Part
    from ctxchat.core.model_types import ChatModel
    from ctxchat.core.provider import AgentView
    from ctxchat.core.session import ForkPoint, Session

Tone: TypeAlias = Literal["normal", "quiet", "warning"]


@dataclass(frozen=True)
class Marked:
    """Text with some of its words marked (a search's matches), as (text, matched) pieces:
    the renderer shows them bold where it can, between ** where it cannot."""

    pieces: tuple[tuple[str, bool], ...]


Cell: TypeAlias = str | int | float | datetime | Marked | None


@dataclass(frozen=True)
class Note:
    """Text for the user, one or more lines; `quiet` for an aside, `warning` to stand out."""

    text: str
    tone: Tone = "normal"


@dataclass(frozen=True)
class Table:
    """Rows of values under column names. Times are `datetime`s, counts `int`s: the
    renderer formats them (one date format everywhere). `marked` rows are highlighted
    (the current session, say)."""

    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    marked: frozenset[int] = frozenset()
    title: str | None = None


@dataclass(frozen=True)
class Gauge:
    """A whole split into named parts: how the model's window is filled, by source. The
    renderer draws one bar; `total` includes what is free."""

    total: int
    parts: tuple[tuple[str, int], ...]
    title: str | None = None


Block: TypeAlias = Note | Table | Gauge


@dataclass(frozen=True)
class CommandResult:
    """What a command shows, and what the chat does next (a built-in command may also hand
    the chat another conversation: `ctxchat.services.commands.ChatCommandResult`)."""

    blocks: tuple[Block, ...] = ()
    exit: bool = False  # leave the chat
    send: str | None = None  # send this as the user's next message
    edit_draft: bool = False  # open the draft in the user's editor (/edit-draft)
    draft: str | None = None  # with edit_draft: open this instead of the current draft
    branch_from: ForkPoint | None = None  # with edit_draft: send the edit in a branch (/edit)
    attach: tuple[Part, ...] = ()  # with branch_from: the edited message's attachments
    copy: str | None = None  # put this on the clipboard (/copy), described as `copy_what`
    copy_what: str = ""
    # /copy when the reply holds several code blocks: (what, text) pairs to pick from.
    copy_choices: tuple[tuple[str, str], ...] = ()

    @classmethod
    def say(cls, *texts: str, tone: Tone = "normal") -> Self:
        return cls(tuple(Note(t, tone) for t in texts))


class CommandView(Protocol):
    """What a provider's command may touch of the chat it runs in."""

    @property
    def state(self) -> dict[str, Any]:
        """The provider's own state in the conversation's session; a change is saved."""
        ...

    @property
    def session(self) -> Session:
        """The conversation's session (read it; the provider's part is `state`)."""
        ...

    @property
    def model(self) -> ChatModel:
        """The model the conversation talks to."""
        ...

    @property
    def agent(self) -> AgentView:
        """The pipeline the conversation runs through."""
        ...

    async def stored_session(self, session_id: str) -> tuple[Session, list[Message]] | None:
        """Another session and its stored conversation (a fact's origin, say); None when
        there is no such session any more."""
        ...


# The name a provider's handlers were typed with before they got the view: they keep their
# `state`; the chat service and the conversation it held are no longer theirs to reach.
CommandContext = CommandView

ContextT = TypeVar("ContextT")
Handler: TypeAlias = Callable[[ContextT, str], Awaitable[CommandResult | None]]


@dataclass(frozen=True)
class Command(Generic[ContextT]):
    """A slash command: a provider's takes a `CommandView`, a built-in the chat's own
    `CommandContext`."""

    name: str  # without the leading slash
    help: str
    handler: Handler[ContextT]
    usage: str = ""
    aliases: tuple[str, ...] = ()
    completions: tuple[str, ...] = ()  # words offered after the command name
    # Offers completions computed when asked (session titles for /switch, say).
    complete: Callable[[ContextT, str], Sequence[str]] | None = None
