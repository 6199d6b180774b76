"""A turn's model calls and tool rounds (`Agent.run`'s step 2).

Each round fits the request to the model's window (tool results may have grown it), caps
the reply and the tool calls' arguments to what is kept, runs each call (asking first for
one with side effects, innermost, so no middleware can run it unasked), and fits each
result to what the window has left for it. `max_tool_rounds` bounds the model calls.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable
from typing import Any

from ctxchat.core.approval import refusal_text
from ctxchat.core.budget import fit, measure
from ctxchat.core.context import RunContext
from ctxchat.core.errors import ContextOverflow, ToolLoopLimit
from ctxchat.core.limits import WINDOW_ORIGINS, ContextLimits
from ctxchat.core.messages import Message, ToolCallPart, ToolResultPart
from ctxchat.core.model_types import (
    ChatModel,
    EventSink,
    ModelNotice,
    ModelReply,
    ModelRequest,
    ReplyCut,
    ToolCallFinished,
    ToolCallStarted,
    chain_model_call,
    chain_tool_call,
)
from ctxchat.core.reply_limit import cap_reply
from ctxchat.core.settings import AgentSettings
from ctxchat.core.storable import storable, storable_message
from ctxchat.core.tool_limit import cap_arguments, fit_result
from ctxchat.core.tools import Tool, invoke_tool

# The models already told that their endpoint takes no tools (the agent keeps the set).
ToldModels = weakref.WeakSet[Any]
# Tokens a tool result's message costs beside its text (role, call id, framing).
RESULT_OVERHEAD = 16


async def model_loop(
    context: RunContext,
    produced: list[Message],
    on_event: EventSink,
    *,
    model: ChatModel,
    settings: AgentSettings,
    assemble: Callable[[RunContext], list[Message]],
    told_tools_off: ToldModels,
) -> str | None:
    """Model calls and tool rounds until a reply without tool calls; returns why the
    model stopped that reply (its finish_reason). `model` is the turn's, `assemble` what
    it is shown before this turn's own messages (see `Agent.assemble`)."""
    limits = await model.limits()
    if not limits.takes_tools and context.tools:
        # The endpoint would accept them and ignore them: none are sent or paid for.
        context.tools.clear()
        _tell_tools_off(model, on_event, told_tools_off)
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
            timeout = settings.tool_timeout
            return await invoke_tool(tool, call, default_timeout=timeout, run=context.tool_run)
        finally:
            ran[call.id] = time.monotonic() - started

    model_call = chain_model_call(middleware, call_model)
    tool_call = chain_tool_call(middleware, call_tool)
    rounds = settings.max_tool_rounds
    for round_number in range(1, rounds + 1):
        # Fitted to the window before every call: tool results may have grown it.
        base = fit(context, limits, assemble, produced)
        tools = context.all_tools()
        request = ModelRequest(tuple(base + produced), tuple(tools), context.options)
        try:
            reply = await model_call(request)
        except ContextOverflow as exc:
            raise _overflowed(exc, context, limits) from exc
        limit = settings.max_reply_bytes
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


def _tell_tools_off(model: ChatModel, on_event: EventSink, told: ToldModels) -> None:
    """Say once per model, not per turn, that its endpoint takes no tools."""
    if model in told:
        return
    told.add(model)
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
