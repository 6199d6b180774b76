"""Scripting mode: turns from stdin sent in order; only reply text (or JSON) on stdout.

Each turn is saved as it completes, so when one fails the script stops with its exit code
and everything before it is kept.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TextIO

from ctxchat.cli.common import run_sync
from ctxchat.cli.terminal import cancellable
from ctxchat.errors import TurnCancelled

if TYPE_CHECKING:
    from ctxchat.chat import ChatService, Conversation, TurnOutcome
    from ctxchat.model_types import Event


def warn(text: str) -> None:
    sys.stderr.write(f"ctxchat: warning: {' '.join(text.split())}\n")
    sys.stderr.flush()


def turn_record(conversation: Conversation, text: str, outcome: TurnOutcome) -> dict[str, Any]:
    """The `--json` object for one turn."""
    response = outcome.context.response
    messages = response.messages if response else ()
    results = {r.call_id: r for m in messages for r in m.tool_results}
    tools = []
    for call in (c for m in messages for c in m.tool_calls):
        result = results.get(call.id)
        tools.append(
            {
                "name": call.name,
                "arguments": call.arguments,
                "result": result.content if result else None,
                "is_error": result.is_error if result else None,
            }
        )
    usage = response.usage if response else None
    return {
        "session": conversation.session.id,
        "input": text,
        "output": outcome.text,
        "model": conversation.session.model,
        "usage": {
            "input_tokens": usage.input_tokens if usage else 0,
            "output_tokens": usage.output_tokens if usage else 0,
        },
        "tools": tools,
    }


class _Streamer:
    """Reply text straight to stdout as it arrives; warnings to stderr."""

    def __init__(self, out: TextIO, *, stream_text: bool) -> None:
        self.out = out
        self.stream_text = stream_text
        self.open_line = False

    def on_event(self, event: Event) -> None:
        from ctxchat.model_types import ProviderWarning, TextDelta, ToolCallStarted

        if isinstance(event, TextDelta) and self.stream_text:
            self.out.write(event.text)
            self.out.flush()
            self.open_line = not event.text.endswith("\n")
        elif isinstance(event, ToolCallStarted):
            self.end_line()  # text before a tool call is its own message
        elif isinstance(event, ProviderWarning):
            warn(f"provider '{event.source_id}': {event.message}")

    def end_line(self) -> None:
        if self.open_line:
            self.out.write("\n")
            self.out.flush()
            self.open_line = False


def run_script(
    service: ChatService,
    conversation: Conversation,
    turns: Iterable[str],
    *,
    json_lines: bool,
    out: TextIO | None = None,
) -> None:
    """Send each turn as `turns` yields it. Reading stdin happens outside the event loop,
    where Ctrl-C interrupts a blocked read at once."""
    stdout = out or sys.stdout
    for text in turns:
        run_sync(_send(service, conversation, text, json_lines=json_lines, out=stdout))


async def _send(
    service: ChatService, conversation: Conversation, text: str, *, json_lines: bool, out: TextIO
) -> None:
    streamer = _Streamer(out, stream_text=not json_lines)
    try:
        outcome = await cancellable(service.send(conversation, text, on_event=streamer.on_event))
    except asyncio.CancelledError:  # interrupted before the turn began
        raise TurnCancelled() from None
    finally:
        streamer.end_line()
    if json_lines:
        out.write(json.dumps(turn_record(conversation, text, outcome), ensure_ascii=False) + "\n")
        out.flush()
