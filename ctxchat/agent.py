"""The agent: a model, instructions and a pipeline of context providers, run turn by turn."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

from ctxchat.context import RunContext, RunResponse
from ctxchat.errors import ConfigError, CtxchatError, ProviderError, ToolLoopLimit, TurnCancelled
from ctxchat.messages import Message, ToolCallPart, ToolResultPart, Usage
from ctxchat.model_types import (
    ChatModel,
    EventSink,
    ModelReply,
    ModelRequest,
    ProviderWarning,
    ToolCallFinished,
    ToolCallStarted,
    chain_model_call,
    chain_tool_call,
    ignore_events,
)
from ctxchat.provider import ContextProvider, HistoryProvider
from ctxchat.session import Session
from ctxchat.settings import AgentSettings
from ctxchat.tools import Tool, invoke_tool


class TurnFailed(CtxchatError):
    """A turn that did not complete. Nothing of it was stored in any history; the input is
    handed back so the caller can offer it again."""

    def __init__(
        self,
        cause: BaseException,
        input_messages: Sequence[Message],
        warnings: Sequence[ProviderWarning] = (),
    ) -> None:
        text = str(cause) if isinstance(cause, CtxchatError) else f"{type(cause).__name__}: {cause}"
        super().__init__(text)
        self.cause = cause
        self.input_messages = tuple(input_messages)
        self.warnings = tuple(warnings)
        self.exit_code = cause.exit_code if isinstance(cause, CtxchatError) else 1

    @property
    def input_text(self) -> str:
        return "\n".join(m.text for m in self.input_messages)


def validate_pipeline(providers: Sequence[ContextProvider]) -> None:
    """The rules a provider list must satisfy, each reported with the offending entries."""
    seen: dict[str, int] = {}
    for index, provider in enumerate(providers):
        if provider.source_id in seen:
            raise ConfigError(
                f"providers[{seen[provider.source_id]}] and providers[{index}] share "
                f"source_id '{provider.source_id}': each provider needs its own"
            )
        seen[provider.source_id] = index
    loaders = [
        f"providers[{i}] ('{p.source_id}')"
        for i, p in enumerate(providers)
        if isinstance(p, HistoryProvider) and p.load_messages
    ]
    if len(loaders) > 1:
        raise ConfigError(
            f"more than one history provider loads messages: {', '.join(loaders)}; "
            "set load_messages = false on all but one"
        )


FallbackFactory = Callable[[], HistoryProvider]


class Agent:
    """Runs turns through the providers. Shared by every session; holds no session data."""

    def __init__(
        self,
        *,
        model: ChatModel,
        providers: Sequence[ContextProvider] = (),
        settings: AgentSettings | None = None,
        fallback_history: FallbackFactory | None = None,
    ) -> None:
        validate_pipeline(providers)
        self.model = model
        self.providers: tuple[ContextProvider, ...] = tuple(providers)
        self.settings = settings or AgentSettings()
        # When nothing loads history, a session still needs conversational memory: an
        # in-session history is put in front for each run, never into `self.providers`.
        self.fallback_history: HistoryProvider | None = None
        if self.history_provider is None and fallback_history is not None:
            self.fallback_history = fallback_history()
            validate_pipeline([self.fallback_history, *self.providers])

    @property
    def history_provider(self) -> HistoryProvider | None:
        """The configured provider that loads history, if any."""
        for provider in self.providers:
            if isinstance(provider, HistoryProvider) and provider.load_messages:
                return provider
        return None

    @property
    def loading_history(self) -> HistoryProvider | None:
        """What loads history in a run: the configured one or the fallback."""
        return self.history_provider or self.fallback_history

    def run_providers(self) -> tuple[ContextProvider, ...]:
        if self.fallback_history is not None:
            return (self.fallback_history, *self.providers)
        return self.providers

    def close(self) -> None:
        """Close every provider, each even when another fails."""
        failures: list[str] = []
        for provider in self.run_providers():
            try:
                provider.close()
            except Exception as exc:
                failures.append(f"{provider.source_id}: {exc}")
        if failures:
            raise CtxchatError("closing providers failed: " + "; ".join(failures))

    def provider(self, source_id: str) -> ContextProvider | None:
        return next((p for p in self.run_providers() if p.source_id == source_id), None)

    # -- one turn -----------------------------------------------------------------------------
    async def run(
        self,
        session: Session,
        inputs: str | Message | Sequence[Message],
        *,
        on_event: EventSink = ignore_events,
        options: dict[str, Any] | None = None,
    ) -> RunContext:
        """Run one turn and return its context (with `.response`); raise `TurnFailed`."""
        if isinstance(inputs, str):
            input_messages: list[Message] = [Message.user(inputs)]
        elif isinstance(inputs, Message):
            input_messages = [inputs]
        else:
            input_messages = list(inputs)
        context = RunContext(session_id=session.id, input_messages=input_messages, options=options)
        providers = self.run_providers()
        produced: list[Message] = []
        error: BaseException | None = None
        finish_reason: str | None = None
        try:
            for provider in providers:
                try:
                    await provider.before_run(
                        agent=self,
                        session=session,
                        context=context,
                        state=session.provider_state(provider.source_id),
                    )
                except (asyncio.CancelledError, KeyboardInterrupt):
                    raise
                except Exception as exc:
                    raise ProviderError(provider.source_id, "before_run", exc) from exc
            finish_reason = await self._model_loop(context, produced, on_event)
        except (asyncio.CancelledError, KeyboardInterrupt):
            error = TurnCancelled()
        except Exception as exc:
            error = exc
        context.error = error
        usage = sum((m.usage for m in produced if m.usage), Usage())
        context._set_response(
            RunResponse(tuple(produced), usage, complete=error is None, finish_reason=finish_reason)
        )
        warnings = await self._after_run(session, context, providers, on_event)
        if error is not None:
            raise TurnFailed(error, context.input_messages, warnings) from error
        return context

    def assemble(self, context: RunContext) -> list[Message]:
        """Exactly what the model is shown: one system message, history, context, input."""
        blocks = [self.settings.instructions.strip()] if self.settings.instructions.strip() else []
        for source_id, text in context.instruction_blocks():
            blocks.append(f'<context source="{source_id}">\n{text}\n</context>')
        system = [Message.system("\n\n".join(blocks)).attributed("context")] if blocks else []
        return [*system, *context.model_messages()]

    async def _model_loop(
        self, context: RunContext, produced: list[Message], on_event: EventSink
    ) -> str | None:
        """Model calls and tool rounds until a reply without tool calls; returns why the
        model stopped that reply (its finish_reason)."""
        tools = context.all_tools()
        owners = context.tool_sources()
        by_name = {t.name: t for t in tools}
        middleware = context.all_middleware()

        async def call_model(request: ModelRequest) -> ModelReply:
            return await self.model.complete(request, on_event)

        async def call_tool(tool: Tool | None, call: ToolCallPart) -> ToolResultPart:
            return await invoke_tool(tool, call, default_timeout=self.settings.tool_timeout)

        model_call = chain_model_call(middleware, call_model)
        tool_call = chain_tool_call(middleware, call_tool)
        base = self.assemble(context)
        rounds = self.settings.max_tool_rounds
        for round_number in range(1, rounds + 1):
            request = ModelRequest(tuple(base + produced), tuple(tools), context.options)
            reply = await model_call(request)
            produced.append(reply.message.attributed("response"))
            calls = reply.message.tool_calls
            if not calls:
                return reply.finish_reason
            if round_number == rounds:
                break  # no model call left to read these tools' results
            for call in calls:
                on_event(ToolCallStarted(call))
                result = await tool_call(by_name.get(call.name), call)
                on_event(ToolCallFinished(call, result))
                produced.append(
                    Message("tool", (result,)).attributed("tool", owners.get(call.name))
                )
        raise ToolLoopLimit(rounds)

    async def _after_run(
        self,
        session: Session,
        context: RunContext,
        providers: Sequence[ContextProvider],
        on_event: EventSink,
    ) -> list[ProviderWarning]:
        warnings: list[ProviderWarning] = []
        for provider in reversed(providers):
            stored = asyncio.ensure_future(
                provider.after_run(
                    agent=self,
                    session=session,
                    context=context,
                    state=session.provider_state(provider.source_id),
                )
            )
            try:
                await _finish_despite_cancel(stored)
            except Exception as exc:
                detail = str(exc) or type(exc).__name__
                warning = ProviderWarning(provider.source_id, f"after_run failed: {detail}")
                warnings.append(warning)
                on_event(warning)
        return warnings


async def _finish_despite_cancel(task: asyncio.Future[None]) -> None:
    """Wait for a provider's after_run even through Ctrl-C: stopping it half-way would leave
    a turn the session counts but a history never stored (each store is one transaction, so
    it is short)."""
    while True:
        try:
            await asyncio.shield(task)
            return
        except asyncio.CancelledError:
            if task.done():
                task.result()  # re-raises the provider's own error, if it had one
                return
