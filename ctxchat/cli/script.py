"""Scripting mode: turns from stdin sent in order; only reply text (or JSON) on stdout.

Each turn is saved as it completes, so when one fails the script stops with its exit code
and everything before it is kept.

A reader that goes away (`ctxchat run | head -1`) is not an error: nothing more is written,
the turn under way still completes and is saved, no further turn is sent, and ctxchat
exits 0 as `head` asked it to.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TextIO

from ctxchat.cli.common import cut_note, run_sync, warn
from ctxchat.cli.terminal import cancellable
from ctxchat.core.errors import TurnCancelled
from ctxchat.core.sanitize import json_text

if TYPE_CHECKING:
    from ctxchat.core.context import RunResponse
    from ctxchat.core.messages import Message
    from ctxchat.core.model_types import Event
    from ctxchat.services.conversations import ChatService, Conversation, TurnOutcome


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
        "finish_reason": response.finish_reason if response else None,
        # Unknown (the endpoint reported none) is null, never a made-up 0.
        "usage": {
            "input_tokens": usage.input_tokens if usage else None,
            "output_tokens": usage.output_tokens if usage else None,
        },
        "tools": tools,
    }


class _Output:
    """stdout for the whole script, which notices when its reader has gone.

    Reply text is made terminal-safe whether stdout is a terminal or a pipe: a pipe's
    reader is usually a terminal a moment later (`ctxchat run q | tee out`). Only the
    `--json` lines carry the raw text, escaped."""

    def __init__(self, out: TextIO) -> None:
        from ctxchat.core.sanitize import SafeStream

        self.out = out
        self.gone = False
        self.safe = SafeStream()

    def write(self, text: str) -> None:
        if self.gone or not text:
            return
        try:
            self.out.write(text)
            self.out.flush()
        except BrokenPipeError:
            self.gone = True

    def write_reply(self, text: str) -> None:
        self.write(self.safe.feed(text))

    def end_reply(self) -> None:
        self.write(self.safe.flush())


class _Streamer:
    """One turn's reply text straight to stdout as it arrives; warnings to stderr."""

    def __init__(self, output: _Output, *, stream_text: bool) -> None:
        self.output = output
        self.stream_text = stream_text
        self.open_line = False
        self.wrote = False

    def on_event(self, event: Event) -> None:
        from ctxchat.core.model_types import (
            ProviderWarning,
            ReplyCut,
            TextDelta,
            ToolCallStarted,
        )

        if isinstance(event, TextDelta) and self.stream_text:
            self.output.write_reply(event.text)
            self.wrote = True
            self.open_line = not event.text.endswith("\n")
        elif isinstance(event, ToolCallStarted):
            self.end_line()  # text before a tool call is its own message
        elif isinstance(event, ProviderWarning):
            warn(f"provider '{event.source_id}': {event.message}")
        elif isinstance(event, ReplyCut):
            warn(cut_note(event))

    def end_line(self) -> None:
        self.output.end_reply()
        if self.open_line:
            self.output.write("\n")
            self.open_line = False

    def end_turn(self) -> None:
        """The reply's last line ended, and an empty reply still one (empty) line, so in
        line-per-turn mode reply n is line n of the output."""
        if self.stream_text and not self.wrote:
            self.output.write("\n")
        self.end_line()


def run_script(
    service: ChatService,
    conversation: Conversation,
    turns: Iterable[Message],
    *,
    json_lines: bool,
    out: TextIO | None = None,
) -> None:
    """Send each turn as `turns` yields it. Reading stdin happens outside the event loop,
    where Ctrl-C interrupts a blocked read at once."""
    output = _Output(out or sys.stdout)
    for turn in turns:
        run_sync(_send(service, conversation, turn, json_lines=json_lines, output=output))
        if output.gone:
            return  # nobody reads the replies: sending more would only cost tokens


async def _send(
    service: ChatService,
    conversation: Conversation,
    turn: Message,
    *,
    json_lines: bool,
    output: _Output,
) -> None:
    streamer = _Streamer(output, stream_text=not json_lines)
    try:
        outcome = await cancellable(service.send(conversation, [turn], on_event=streamer.on_event))
    except asyncio.CancelledError:  # interrupted before the turn began
        raise TurnCancelled() from None
    except BaseException:
        streamer.end_line()
        raise
    streamer.end_turn()
    response = outcome.context.response
    if response is not None:
        _warn_if_cut_short(response)
    if json_lines:
        record = turn_record(conversation, turn.text, outcome)
        output.write(json_text(record) + "\n")


def _warn_if_cut_short(response: RunResponse) -> None:
    reason = response.cut_short
    if reason is not None:
        warn(f"the reply was cut short ({reason})")
