"""The agent: a model, instructions and a pipeline of context providers, run turn by turn.

One turn (`Agent.run`):

1. `before_run` of every provider, in config order. A provider that fails here fails the
   turn before any model call.
2. The model, with tool rounds, bounded by `max_tool_rounds`.
3. `after_run` of the providers that store the turn (histories), in reverse config
   order. The turn is *stored* when every storing provider succeeded and then
   `on_stored` (the caller's commit: saving the session file that counts the turn) did
   too; a failure of either makes the turn failed ("shown but not saved"), and a failed
   commit takes the turn back out of the histories by its id (`discard_turn`).
4. `record_turn` of every provider, in config order, for every turn, kept or failed:
   the turn is settled (`context.stored`, `context.error`), so an audit records it as it
   is, before anything slow may be interrupted.
5. `after_run` of the other providers (memory, summaries), in reverse config order:
   they learn from it.
Stages 3 and 4 and the commit cannot be cut short by Ctrl-C (each store is one short
transaction); stage 5 can, and the turn stands: `context.learning_interrupted` says so,
for the caller to report (a script exits 130).

Step 2 is `ctxchat.core.tool_loop`, steps 3 to 5 `ctxchat.core.after_run`: two jobs, each
readable on its own.

A failed turn raises `TurnFailed`, which hands the input back, carrying in its one line
what the second stage could not do either (an audit on the same dead database). Whatever a
provider puts in its session state must be plain JSON: a provider that leaves anything
else there is named at once (see `ctxchat.core.jsonstate`) instead of failing the
session's save later.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Sequence
from typing import Any

from ctxchat.core.after_run import Commit, after_run
from ctxchat.core.approval import Approver, refuse_unasked
from ctxchat.core.blocks import context_block
from ctxchat.core.capabilities import Closes
from ctxchat.core.context import RunContext, RunResponse
from ctxchat.core.errors import (
    CtxchatError,
    ProviderError,
    TurnCancelled,
    exit_code_of,
)
from ctxchat.core.jsonstate import check_state
from ctxchat.core.messages import Message, Usage
from ctxchat.core.model_types import (
    ChatModel,
    EventSink,
    ProviderWarning,
    ignore_events,
)
from ctxchat.core.pipeline import DEFAULT_FALLBACK, FallbackFactory, validate_pipeline
from ctxchat.core.provider import ContextProvider, HistoryProvider
from ctxchat.core.session import Session
from ctxchat.core.settings import AgentSettings
from ctxchat.core.storable import storable_message
from ctxchat.core.tool_loop import ToldModels, model_loop
from ctxchat.core.tools import ToolRun

AnyProvider = ContextProvider[Any]


class TurnFailed(CtxchatError):
    """A turn that did not complete. Nothing of it was stored in any history; the input is
    handed back so the caller can offer it again."""

    def __init__(
        self,
        cause: BaseException,
        input_messages: Sequence[Message],
        warnings: Sequence[ProviderWarning] = (),
        context: RunContext | None = None,
    ) -> None:
        text = str(cause) if isinstance(cause, CtxchatError) else f"{type(cause).__name__}: {cause}"
        # What else could not be done, but not again from the provider that failed the turn.
        named = cause.source_id if isinstance(cause, ProviderError) else None
        also = "; ".join(
            f"provider '{w.source_id}' {w.message}" for w in warnings if w.source_id != named
        )
        super().__init__(f"{text} (and {also})" if also else text)
        self.cause = cause
        self.input_messages = tuple(input_messages)
        self.warnings = tuple(warnings)
        self.context = context
        self.exit_code = exit_code_of(cause)

    @property
    def input_text(self) -> str:
        return "\n".join(m.text for m in self.input_messages)


class Agent:
    """Runs turns through the providers. Shared by every session; holds no session data.

    `model` is the default; a conversation passes its own to `run`. When no provider loads
    history, an in-memory history is put in front for each run (never into `providers`),
    so a session still remembers its conversation; `fallback_history=None` turns that off.
    """

    def __init__(
        self,
        *,
        model: ChatModel,
        providers: Sequence[AnyProvider] = (),
        settings: AgentSettings | None = None,
        fallback_history: FallbackFactory | None = DEFAULT_FALLBACK,
    ) -> None:
        validate_pipeline(providers)
        self.model = model
        self.providers: tuple[AnyProvider, ...] = tuple(providers)
        self._settings = settings or AgentSettings()
        # The models told that their endpoint takes no tools: said once, not every turn.
        self._told_tools_off: ToldModels = weakref.WeakSet()
        self.fallback_history: HistoryProvider[Any] | None = None
        if self.history_provider is None and fallback_history is not None:
            self.fallback_history = fallback_history({p.source_id for p in providers})
            validate_pipeline([self.fallback_history, *self.providers])

    @property
    def settings(self) -> AgentSettings:
        return self._settings

    @property
    def history_provider(self) -> HistoryProvider[Any] | None:
        """The configured provider that loads history, if any."""
        for provider in self.providers:
            if isinstance(provider, HistoryProvider) and provider.load_messages:
                return provider
        return None

    @property
    def loading_history(self) -> HistoryProvider[Any] | None:
        """What loads history in a run: the configured one or the fallback."""
        return self.history_provider or self.fallback_history

    def run_providers(self) -> tuple[AnyProvider, ...]:
        if self.fallback_history is not None:
            return (self.fallback_history, *self.providers)
        return self.providers

    def close(self) -> None:
        """Close every provider, each even when another fails."""
        failures: list[str] = []
        for provider in self.run_providers():
            if not isinstance(provider, Closes):
                continue
            try:
                provider.close()
            except Exception as exc:
                failures.append(f"{provider.source_id}: {exc}")
        if failures:
            raise CtxchatError("closing providers failed: " + "; ".join(failures))

    def provider(self, source_id: str) -> AnyProvider | None:
        return next((p for p in self.run_providers() if p.source_id == source_id), None)

    # -- one turn -----------------------------------------------------------------------------
    async def run(
        self,
        session: Session,
        inputs: str | Message | Sequence[Message],
        *,
        model: ChatModel | None = None,
        on_event: EventSink = ignore_events,
        options: dict[str, Any] | None = None,
        approve: Approver = refuse_unasked,
        turn_id: str | None = None,
        on_stored: Commit | None = None,
        defer: bool = False,
    ) -> RunContext:
        """Run one turn and return its context (with `.response`); raise `TurnFailed`.

        `approve` is asked before each call of a tool with side effects (see
        `ctxchat.core.approval`); without one such calls are refused. `turn_id` names the
        turn in every store (one is made when not given); `on_stored` is awaited once the
        histories have stored the turn, before anything learns from it: if it raises, the
        turn is taken back out of them and fails. With `defer` the caller runs what learning
        providers leave for after the turn (`context.deferred`, `ctxchat.core.deferred`)."""
        if isinstance(inputs, str):
            input_messages: list[Message] = [Message.user(inputs)]
        elif isinstance(inputs, Message):
            input_messages = [inputs]
        else:
            input_messages = list(inputs)
        input_messages = [storable_message(m) for m in input_messages]
        context = RunContext(
            session_id=session.id,
            input_messages=input_messages,
            options=options,
            model=model or self.model,
            on_event=on_event,
            approve=approve,
            turn_id=turn_id,
        )
        context.tool_run = ToolRun(self, session)
        if defer:
            context.deferred = []
        providers = self.run_providers()
        produced: list[Message] = []
        error: BaseException | None = None
        finish_reason: str | None = None
        try:
            for provider in providers:
                state = session.provider_state(provider.source_id)
                try:
                    await provider.before_run(
                        agent=self, session=session, context=context, state=state
                    )
                except (asyncio.CancelledError, KeyboardInterrupt):
                    raise
                except Exception as exc:
                    raise ProviderError(provider.source_id, "before_run", exc) from exc
                problem = check_state(state)
                if problem is not None:
                    raise ProviderError(provider.source_id, "before_run", ValueError(problem))
            finish_reason = await model_loop(
                context,
                produced,
                on_event,
                model=context.model or self.model,
                settings=self.settings,
                assemble=self.assemble,
                told_tools_off=self._told_tools_off,
            )
        except (asyncio.CancelledError, KeyboardInterrupt):
            error = TurnCancelled()
        except Exception as exc:
            error = exc
        context.error = error
        reported = [m.usage for m in produced if m.usage is not None]
        usage = sum(reported, Usage()) if reported else None
        context._set_response(
            RunResponse(tuple(produced), usage, complete=error is None, finish_reason=finish_reason)
        )
        warnings = await after_run(self, session, context, providers, on_event, on_stored)
        if context.error is not None:
            raise TurnFailed(context.error, context.input_messages, warnings, context) from (
                context.error
            )
        return context

    def assemble(self, context: RunContext) -> list[Message]:
        """Exactly what the model is shown: one system message, history, context, input."""
        instructions = self.settings.instructions.strip()
        blocks = [instructions] if instructions else []
        blocks.extend(context_block(*block) for block in context.instruction_blocks())
        system = [Message.system("\n\n".join(blocks)).attributed("context")] if blocks else []
        return [*system, *context.model_messages()]
