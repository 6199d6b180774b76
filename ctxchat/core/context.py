"""The per-run context providers read and extend: one instance for one turn."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ctxchat.core.approval import Approver, ToolApproval, refuse_unasked
from ctxchat.core.blocks import neutralise
from ctxchat.core.deferred import DeferredRun, DeferredWork
from ctxchat.core.errors import ConfigError
from ctxchat.core.messages import AttributionKind, Message, ToolCallPart, Usage, new_id
from ctxchat.core.model_types import (
    EventSink,
    Middleware,
    ProviderNotice,
    ProviderProgress,
    ProviderWarning,
    ignore_events,
)
from ctxchat.core.tools import Tool, ToolRun

if TYPE_CHECKING:
    from ctxchat.core.budget import BudgetReport, Shrink
    from ctxchat.core.model_types import ChatModel

# finish_reason values that mean the reply stopped before the model finished it.
CUT_SHORT = {"length": "max_tokens reached", "content_filter": "content filter"}


@dataclass(frozen=True)
class RunResponse:
    """What the model produced in one turn: every message, in order, and the usage."""

    messages: tuple[Message, ...] = ()
    # Summed over the model calls of the turn; None when the endpoint reported none.
    usage: Usage | None = None
    complete: bool = True  # False when the turn failed part-way
    # Why the model stopped its last reply, as the endpoint said: "stop", "tool_calls",
    # "length" (max_tokens reached), "content_filter"... None when no reply came.
    finish_reason: str | None = None

    @property
    def cut_short(self) -> str | None:
        """Why the final answer is incomplete though the turn succeeded, in words for a
        warning ("max_tokens reached", "content filter"); None when it is whole."""
        return CUT_SHORT.get(self.finish_reason or "")

    @property
    def text(self) -> str:
        """The final answer: the text of the last assistant message."""
        for message in reversed(self.messages):
            if message.role == "assistant":
                return message.text
        return ""

    @property
    def tool_calls(self) -> list[ToolCallPart]:
        return [c for m in self.messages for c in m.tool_calls]


class ToolNameClash(ConfigError):
    """Two providers advertise tools of the same name: the model could not tell them apart."""


class RunContext:
    """Everything one run is assembled from, keyed by the provider that contributed it.

    Dicts keep insertion order, which is provider order, so whatever the model is shown is
    reproducible from this object alone. `metadata` is scratch space shared by the
    providers of this run only (a selector's scores, say); it is never saved.
    """

    def __init__(
        self,
        *,
        session_id: str,
        input_messages: Sequence[Message],
        options: Mapping[str, Any] | None = None,
        model: ChatModel | None = None,
        on_event: EventSink = ignore_events,
        approve: Approver = refuse_unasked,
        turn_id: str | None = None,
    ) -> None:
        self.session_id = session_id
        # One id for the turn wherever it is kept (the history's rows, the audit's row), so
        # stores can be matched, and a turn undone, by it.
        self.turn_id = turn_id or new_id()
        self.input_messages: tuple[Message, ...] = tuple(
            m.attributed("input") for m in input_messages
        )
        self.context_messages: dict[str, list[Message]] = {}
        self.instructions: dict[str, list[str]] = {}
        self.tools: dict[str, list[Tool]] = {}
        self.middleware: dict[str, list[Middleware]] = {}
        self.options: dict[str, Any] = dict(options or {})
        self.metadata: dict[str, Any] = {}
        self.model = model
        self.error: BaseException | None = None
        # Set by the engine after the histories' stage of after_run: whether every history
        # that keeps the conversation stored this turn.
        self.stored = False
        # Set by the engine when Ctrl-C cut the learning stage short: the turn stands.
        self.learning_interrupted = False
        # What the context budget did to this turn's request (see `ctxchat.core.budget`).
        self.budget: BudgetReport | None = None
        # Learning left for the caller to run after the turn (see `ctxchat.core.deferred`);
        # None when the caller does not offer to, and providers do it within the turn.
        self.deferred: list[DeferredWork] | None = None
        self._shrinkers: list[tuple[int, int, str, Shrink]] = []
        self._response: RunResponse | None = None
        self._on_event = on_event
        self._kept_by: set[str] = set()
        self._approve = approve
        self._allowed: set[str] = set()
        self._granted: list[str] = []
        # What a tool that takes the run is called with (`Tool.takes_run`), set by the engine.
        self.tool_run: ToolRun | None = None

    # -- extending ---------------------------------------------------------------------------
    def extend_messages(
        self, source_id: str, messages: Iterable[Message], *, kind: AttributionKind = "context"
    ) -> None:
        """Add messages from `source_id`: stamped copies, the caller's objects stay untouched.
        A message another provider added keeps that provider as its `origin`."""
        stamped = [m.attributed(kind, source_id) for m in messages]
        self.context_messages.setdefault(source_id, []).extend(stamped)

    def extend_instructions(self, source_id: str, instructions: str | Iterable[str]) -> None:
        texts = [instructions] if isinstance(instructions, str) else list(instructions)
        self.instructions.setdefault(source_id, []).extend(t for t in texts if t)

    def extend_tools(self, source_id: str, tools: Iterable[Tool]) -> None:
        """Advertise `tools` for this run. A name another provider advertises already is a
        `ToolNameClash`; the same tool twice from one provider counts once."""
        mine = self.tools.setdefault(source_id, [])
        owners = self.tool_sources()
        for tool in tools:
            owner = owners.get(tool.name)
            if owner is not None and owner != source_id:
                raise ToolNameClash(
                    f"providers '{owner}' and '{source_id}' both advertise a tool named "
                    f"'{tool.name}'"
                )
            if owner == source_id:
                continue
            mine.append(tool)
            owners[tool.name] = source_id

    def extend_middleware(
        self, source_id: str, middleware: Middleware | Iterable[Middleware]
    ) -> None:
        layers = [middleware] if isinstance(middleware, Middleware) else list(middleware)
        self.middleware.setdefault(source_id, []).extend(layers)

    # -- telling the user ---------------------------------------------------------------------
    def notify(self, source_id: str, text: str) -> None:
        """A line for the user from a provider ("remembered: ..."), shown after the reply."""
        self._on_event(ProviderNotice(source_id, text))

    def progress(self, source_id: str, label: str, done: int, total: int) -> None:
        """How far long work of this provider has got (`done` of `total`), for a progress
        bar on a terminal; the last call has `done == total`."""
        self._on_event(ProviderProgress(source_id, label, done, total))

    def warn(self, source_id: str, text: str) -> None:
        """Something the provider could not do; the turn itself stands."""
        self._on_event(ProviderWarning(source_id, text))

    def defer(self, source_id: str, label: str, run: DeferredRun) -> bool:
        """Leave slow learning for the caller to run once the turn is back (see
        `ctxchat.core.deferred`); False when the caller does not offer to, and the
        provider does it now."""
        if self.deferred is None:
            return False
        self.deferred.append(DeferredWork(source_id, label, run))
        return True

    def on_over_budget(self, source_id: str, shrink: Shrink, *, priority: int = 0) -> None:
        """How this provider gives up room when the request does not fit the model's window
        even without old history: `shrink(tokens)` removes its lowest-ranked items (facts,
        tools) from this context and says whether it removed anything. Lower `priority`
        gives up room first; the new input and the system prompt never do."""
        self._shrinkers.append((priority, len(self._shrinkers), source_id, shrink))

    def shrinkers(self) -> list[tuple[str, Shrink]]:
        """(source_id, shrink) in the order they are asked: lowest priority first."""
        return [(source_id, shrink) for _, _, source_id, shrink in sorted(self._shrinkers)]

    def mark_kept(self, source_id: str) -> None:
        """Say that this provider kept something of the turn outside the session file (a
        row in its own table): a first turn that failed still leaves its session then, so
        what was kept can be found (`sessions show --audit`) and deleted with it."""
        self._kept_by.add(source_id)

    @property
    def kept_by(self) -> frozenset[str]:
        return frozenset(self._kept_by)

    # -- tools with side effects --------------------------------------------------------------
    def allow_tools(self, names: Iterable[str]) -> None:
        """Let these tools run without asking in this run (the user said "always" for
        them in this session earlier: the tools provider keeps that in its state)."""
        self._allowed.update(names)

    @property
    def granted_always(self) -> tuple[str, ...]:
        """Tools the user allowed "always" during this run, in order, for a provider to
        remember in its session state."""
        return tuple(self._granted)

    async def confirm(self, tool: Tool, call: ToolCallPart) -> bool:
        """Whether this call of a tool with side effects may run: allowed already, or the
        approver says yes. Called by the engine just before such a tool runs."""
        if tool.name in self._allowed:
            return True
        source_id = self.tool_sources().get(tool.name)
        decision = await self._approve(ToolApproval(tool, call, source_id))
        if decision == "always":
            self._allowed.add(tool.name)
            self._granted.append(tool.name)
        return decision in ("yes", "always")

    # -- reading ------------------------------------------------------------------------------
    @property
    def response(self) -> RunResponse | None:
        """Set by the engine after the model call; read-only to providers."""
        return self._response

    def get_messages(
        self,
        *,
        sources: Collection[str] | None = None,
        exclude_sources: Collection[str] | None = None,
        include_input: bool = False,
        include_response: bool = False,
    ) -> list[Message]:
        """Context messages in provider order, filtered by source, optionally with the turn."""
        selected = [
            m
            for source_id, messages in self.context_messages.items()
            if (sources is None or source_id in sources)
            and not (exclude_sources and source_id in exclude_sources)
            for m in messages
        ]
        if include_input:
            selected.extend(self.input_messages)
        if include_response and self._response is not None:
            selected.extend(self._response.messages)
        return selected

    def model_messages(self, *, include_input: bool = True) -> list[Message]:
        """Context (then input) in the order the model reads them: history first, then
        the other providers' messages in provider order."""
        history = [m for m in self.get_messages() if m.kind == "history"]
        others = [m for m in self.get_messages() if m.kind != "history"]
        return [*history, *others, *(self.input_messages if include_input else ())]

    def all_tools(self) -> list[Tool]:
        """Advertised tools in provider order (names are unique: see `extend_tools`)."""
        return [tool for tools in self.tools.values() for tool in tools]

    def tool_sources(self) -> dict[str, str]:
        """Tool name -> the source id that advertised it."""
        return {tool.name: source_id for source_id, tools in self.tools.items() for tool in tools}

    def all_middleware(self) -> list[Middleware]:
        return [layer for layers in self.middleware.values() for layer in layers]

    def instruction_blocks(self) -> list[tuple[str, str]]:
        """(source_id, text) for every provider that contributed instructions, the text as
        the model is sent it: no block delimiter inside it (see `ctxchat.core.blocks`)."""
        return [
            (source_id, neutralise("\n".join(texts)))
            for source_id, texts in self.instructions.items()
            if texts
        ]

    def _set_response(self, response: RunResponse) -> None:
        self._response = response
