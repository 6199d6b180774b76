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

A failed turn raises `TurnFailed`, which hands the input back, carrying in its one line
what the second stage could not do either (an audit on the same dead database). Whatever a
provider puts in its session state must be plain JSON: a provider that leaves anything
else there is named at once (see `ctxchat.core.jsonstate`) instead of failing the session's save
later.
"""

from __future__ import annotations

import asyncio
import json
import time
import weakref
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Literal, TypeVar

from ctxchat.core.approval import Approver, refusal_text, refuse_unasked
from ctxchat.core.blocks import context_block
from ctxchat.core.budget import fit, measure
from ctxchat.core.capabilities import Closes
from ctxchat.core.context import RunContext, RunResponse
from ctxchat.core.errors import (
    ContextOverflow,
    CtxchatError,
    ProviderError,
    ToolLoopLimit,
    TurnCancelled,
    TurnNotStored,
    exit_code_of,
)
from ctxchat.core.jsonstate import check_state, snapshot
from ctxchat.core.limits import WINDOW_ORIGINS, ContextLimits
from ctxchat.core.messages import Message, ToolCallPart, ToolResultPart, Usage
from ctxchat.core.model_types import (
    ChatModel,
    EventSink,
    ModelNotice,
    ModelReply,
    ModelRequest,
    ProviderWarning,
    ReplyCut,
    ToolCallFinished,
    ToolCallStarted,
    chain_model_call,
    chain_tool_call,
    ignore_events,
)
from ctxchat.core.pipeline import DEFAULT_FALLBACK, FallbackFactory, validate_pipeline
from ctxchat.core.provider import ContextProvider, HistoryProvider
from ctxchat.core.reply_limit import cap_reply
from ctxchat.core.session import Session
from ctxchat.core.settings import AgentSettings
from ctxchat.core.storable import storable, storable_message
from ctxchat.core.tool_limit import cap_arguments, fit_result
from ctxchat.core.tools import Tool, ToolRun, invoke_tool

T = TypeVar("T")
AnyProvider = ContextProvider[Any]
# The caller's commit of a stored turn (see `Agent.run`).
Commit = Callable[[RunContext], Awaitable[None]]
# Tokens a tool result's message costs beside its text (role, call id, framing).
RESULT_OVERHEAD = 16
# The stages after the model: the histories store, every provider records, the rest learn.
Stage = Literal["store", "record", "learn"]


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
            finish_reason = await self._model_loop(context, produced, on_event)
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
        warnings = await self._after_run(session, context, providers, on_event, on_stored)
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

    async def _model_loop(
        self, context: RunContext, produced: list[Message], on_event: EventSink
    ) -> str | None:
        """Model calls and tool rounds until a reply without tool calls; returns why the
        model stopped that reply (its finish_reason)."""
        model = context.model or self.model
        limits = await model.limits()
        if not limits.takes_tools and context.tools:
            # The endpoint would accept them and ignore them: none are sent or paid for.
            context.tools.clear()
            _tell_tools_off(model, on_event)
        tools = context.all_tools()
        owners = context.tool_sources()
        by_name = {t.name: t for t in tools}
        middleware = context.all_middleware()

        async def call_model(request: ModelRequest) -> ModelReply:
            return await model.complete(request, on_event)

        ran: dict[str, float] = {}  # call id -> seconds the tool itself ran

        async def call_tool(tool: Tool | None, call: ToolCallPart) -> ToolResultPart:
            # Innermost, so no middleware can run a tool with side effects unasked.
            if tool is not None and tool.side_effects and not await context.confirm(tool, call):
                return ToolResultPart(call.id, refusal_text(tool.name), is_error=True)
            started = time.monotonic()
            try:
                timeout = self.settings.tool_timeout
                return await invoke_tool(tool, call, default_timeout=timeout, run=context.tool_run)
            finally:
                ran[call.id] = time.monotonic() - started

        model_call = chain_model_call(middleware, call_model)
        tool_call = chain_tool_call(middleware, call_tool)
        rounds = self.settings.max_tool_rounds
        for round_number in range(1, rounds + 1):
            # Fitted to the window before every call: tool results may have grown it.
            base = fit(context, limits, self.assemble, produced)
            tools = context.all_tools()
            request = ModelRequest(tuple(base + produced), tuple(tools), context.options)
            try:
                reply = await model_call(request)
            except ContextOverflow as exc:
                raise _overflowed(exc, context, limits) from exc
            limit = self.settings.max_reply_bytes
            message, size = cap_reply(storable_message(reply.message), limit)
            if size > limit:
                on_event(ReplyCut(size, limit))
            capped = cap_arguments(message, limit)
            pairs = zip(capped.tool_calls, message.tool_calls, strict=True)
            cut_calls = {new.id for new, old in pairs if new is not old}
            message = capped
            produced.append(message.attributed("response"))
            calls = message.tool_calls
            if not calls:
                return reply.finish_reason
            if round_number == rounds:
                break  # no model call left to read these tools' results
            for call in calls:
                on_event(ToolCallStarted(call))
                if call.id in cut_calls:  # its arguments were not kept: it cannot run
                    result = ToolResultPart(call.id, call.arguments, is_error=True)
                else:
                    result = await tool_call(by_name.get(call.name), call)
                on_event(ToolCallFinished(call, result, ran.get(call.id, 0.0)))
                # What the request has left for it once nothing trimmable is counted.
                fixed = [m for m in base if m.kind != "history"]
                left = limits.room - measure(limits, fixed, tools, produced) - RESULT_OVERHEAD
                content = fit_result(
                    storable(result.content), limit=limit, tokens=left, count=limits.count_text
                )
                answer = Message.tool_result(result.call_id, content, is_error=result.is_error)
                produced.append(answer.attributed("tool", owners.get(call.name)))
        raise ToolLoopLimit(rounds)

    async def _after_run(
        self,
        session: Session,
        context: RunContext,
        providers: Sequence[AnyProvider],
        on_event: EventSink,
        on_stored: Commit | None,
    ) -> list[ProviderWarning]:
        warnings: list[ProviderWarning] = []
        storing = [p for p in reversed(providers) if p.stores_turn]
        learning = [p for p in reversed(providers) if not p.stores_turn]
        for provider in storing:
            failure = await self._after_run_of(provider, session, context, stage="store")
            if failure is not None and context.error is None:
                context.error = TurnNotStored.by_history(provider.source_id, failure)
            elif failure is not None:
                warnings.append(self._warn(provider, failure, on_event, emit=False))
        if context.error is None and on_stored is not None:
            await self._commit(on_stored, session, context, storing)
        context.stored = context.error is None
        # A failed turn's warnings go into its one error line instead.
        emit = context.error is None
        for provider in providers:  # the turn is settled: record it, in config order
            failure = await self._after_run_of(provider, session, context, stage="record")
            if failure is not None:
                warnings.append(self._warn(provider, failure, on_event, emit=emit))
        learner = None
        try:
            for learner in learning:
                failure = await self._after_run_of(learner, session, context, stage="learn")
                if failure is not None:
                    warnings.append(self._warn(learner, failure, on_event, emit=emit))
        except asyncio.CancelledError:
            # Ctrl-C while providers learn from the turn: they stop, the turn stands, and
            # the caller says so (a script exits 130).
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
            context.learning_interrupted = True
            kept = "kept" if context.stored else "not kept"
            interrupted = (
                f"interrupted while learning: the turn was {kept}, nothing more was learnt"
            )
            assert learner is not None  # only a learner's hook can be cut short
            # Not an event: the caller says it in its own one line (a script's exit 130).
            warnings.append(self._warn(learner, interrupted, on_event, emit=False))
        return warnings

    async def _commit(
        self,
        on_stored: Commit,
        session: Session,
        context: RunContext,
        storing: Sequence[AnyProvider],
    ) -> None:
        """Await the caller's commit; when it fails, take the turn back out of every
        history that stored it, and fail the turn saying which (if any) still hold it."""
        try:
            await _finish_despite_cancel(asyncio.ensure_future(on_stored(context)))
        except Exception as exc:
            reason = str(exc) if isinstance(exc, CtxchatError) else f"{type(exc).__name__}: {exc}"
        else:
            return
        kept: list[str] = []
        for provider in storing:
            if not isinstance(provider, HistoryProvider):
                continue
            state = session.provider_state(provider.source_id)
            try:
                discard = provider.discard_turn(session.id, context.turn_id, state=state)
                undone = await _finish_despite_cancel(asyncio.ensure_future(discard))
            except Exception:
                undone = False
            if not undone:
                kept.append(provider.source_id)
        if kept:
            names = ", ".join(f"'{k}'" for k in kept)
            reason += f"; history {names} still holds it until the session is next opened"
        context.error = TurnNotStored(reason, kept_by=tuple(kept))

    async def _after_run_of(
        self, provider: AnyProvider, session: Session, context: RunContext, *, stage: Stage
    ) -> str | None:
        """Run one provider's hook of an after-run stage (`record_turn` for "record",
        `after_run` otherwise); what went wrong, or None. Storing and recording cannot be
        cut short by Ctrl-C; learning can. A provider that leaves non-JSON values in its
        state gets its state back as it was before."""
        state = session.provider_state(provider.source_id)
        before = snapshot(state)
        if stage == "record":
            name = "record_turn"
            hook = provider.record_turn(agent=self, session=session, context=context, state=state)
        else:
            name = "after_run"
            hook = provider.after_run(agent=self, session=session, context=context, state=state)
        try:
            if stage == "learn":
                await hook
            else:
                await _finish_despite_cancel(asyncio.ensure_future(hook))
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            return f"{name} failed: {str(exc) or type(exc).__name__}"
        problem = check_state(state)
        if problem is None:
            return None
        if before is not None:
            session.state[provider.source_id] = json.loads(before)
        return f"{name} failed: {problem}; its state is left as it was before the turn"

    @staticmethod
    def _warn(
        provider: AnyProvider, message: str, on_event: EventSink, *, emit: bool = True
    ) -> ProviderWarning:
        warning = ProviderWarning(provider.source_id, message)
        if emit:
            on_event(warning)
        return warning


# The models told this process that their endpoint takes no tools: said once, not per turn.
_TOLD_TOOLS_OFF: weakref.WeakSet[Any] = weakref.WeakSet()


def _tell_tools_off(model: ChatModel, on_event: EventSink) -> None:
    if model in _TOLD_TOOLS_OFF:
        return
    _TOLD_TOOLS_OFF.add(model)
    on_event(
        ModelNotice(
            f"tools are off for {model.name}: the endpoint says its chat template does not "
            "support them"
        )
    )


def _overflowed(
    exc: ContextOverflow, context: RunContext, limits: ContextLimits
) -> ContextOverflow:
    """The server's refusal, with what was sent and what the engine took the window to be."""
    sent = context.budget.request_tokens if context.budget else 0
    setting = (
        "lower [model] context_window to what the server takes"
        if limits.source != "default"
        else "set [model] context_window to what the server takes"
    )
    return ContextOverflow(
        f"{exc.message}: ~{sent:,} tokens were sent for a window of {limits.window:,} "
        f"({WINDOW_ORIGINS[limits.source]}); {setting}"
    )


async def _finish_despite_cancel(task: asyncio.Future[T]) -> T:
    """Wait for a store (a history's after_run, the commit, an undo) even through Ctrl-C:
    stopping it half-way would leave a turn the session counts but a history never stored
    (each store is one transaction, so it is short)."""
    while True:
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            if task.done():
                return task.result()  # re-raises the store's own error, if it had one
