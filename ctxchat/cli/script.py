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

from ctxchat.cli import collector
from ctxchat.cli.common import cut_note, cut_short_note, report, run_sync, warn
from ctxchat.cli.event_render import EventLine, EventRenderer
from ctxchat.cli.progress import ProgressDisplay
from ctxchat.cli.terminal import cancellable
from ctxchat.cli.wait_line import WaitLine
from ctxchat.core.errors import LearningInterrupted, TurnCancelled
from ctxchat.core.sanitize import json_text
from ctxchat.core.storable import storable

if TYPE_CHECKING:
    from ctxchat.cli.tool_approval import ToolPolicy
    from ctxchat.cli.wrap import WordWrap
    from ctxchat.core.approval import Approver
    from ctxchat.core.messages import Message
    from ctxchat.core.model_types import Event, ReplyCut, ToolCallFinished
    from ctxchat.services.conversations import ChatService, Conversation, TurnOutcome


def turn_record(
    conversation: Conversation, text: str, outcome: TurnOutcome, *, reasoning: bool = False
) -> dict[str, Any]:
    """The `--json` object for one turn; with `reasoning`, what the model thought aloud."""
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
    record: dict[str, Any] = {
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
    if reasoning:
        from ctxchat.views.transcript import reasoning_of

        record["reasoning"] = reasoning_of(messages) or None
    return record


class _Output:
    """stdout for the whole script, which notices when its reader has gone.

    Reply text is made terminal-safe whether stdout is a terminal or a pipe: a pipe's
    reader is usually a terminal a moment later (`ctxchat run q | tee out`). Only the
    `--json` lines carry the raw text, escaped. On a terminal reply text is word-wrapped
    at its width, as the REPL wraps it; a pipe gets it as it came."""

    def __init__(self, out: TextIO) -> None:
        from ctxchat.core.sanitize import SafeStream

        self.out = out
        self.gone = False
        self.safe = SafeStream()
        self.wrap = _terminal_wrap(out)

    def write(self, text: str) -> None:
        if self.wrap is not None:
            self._write(self.wrap.flush())
            self.wrap.wrote_raw(text)
        self._write(text)

    def _write(self, text: str) -> None:
        if self.gone or not text:
            return
        try:
            self.out.write(text)
            self.out.flush()
        except BrokenPipeError:
            self.gone = True

    def write_reply(self, text: str) -> None:
        self._wrapped(self.safe.feed(text))

    def end_reply(self) -> None:
        self._wrapped(self.safe.flush())
        if self.wrap is not None:
            self._write(self.wrap.flush())

    def _wrapped(self, text: str) -> None:
        self._write(text if self.wrap is None else self.wrap.feed(text))


def _stderr_is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (OSError, ValueError, AttributeError):
        return False


def _terminal_wrap(out: TextIO) -> WordWrap | None:
    """A word wrap at the terminal's width when `out` is one."""
    import os

    try:
        if not out.isatty():
            return None
        columns = os.get_terminal_size(out.fileno()).columns
    except (OSError, ValueError, AttributeError):
        return None
    from ctxchat.cli.wrap import WordWrap

    return WordWrap(columns) if columns > 0 else None


class _Streamer(EventRenderer):
    """One turn's reply text straight to stdout as it arrives; warnings to stderr. The
    model's reasoning is left out, or with `show_reasoning` written first, between
    `<think>` and `</think>` lines."""

    def __init__(
        self,
        output: _Output,
        *,
        stream_text: bool,
        show_reasoning: bool,
        show_progress: bool = False,
    ) -> None:
        self.output = output
        # "waiting for the model… 15 s" while nothing came back: on a terminal's stderr only
        # (with --json too: the line is erased before anything else is written).
        self.waiting = WaitLine(enabled=_stderr_is_terminal())
        self.model_name = "the model"
        # A bar redrawn in place on stderr: only where a person watches it (a terminal,
        # and not --json), never into a pipe or a log.
        self.bars = ProgressDisplay(shown=show_progress)
        self.stream_text = stream_text
        self.show_reasoning = show_reasoning and stream_text
        self.thinking = False
        self.open_line = False
        self.wrote = False
        self.cuts: list[ReplyCut] = []

    # -- events from the engine (dispatched by EventRenderer) ---------------------------------
    def before_event(self, event: Event) -> None:
        from ctxchat.core.model_types import ProviderProgress

        self.waiting.stop()
        if not isinstance(event, ProviderProgress):
            self.bars.close()  # work that stopped short: its bar goes before the rest

    def on_event(self, event: Event) -> None:
        from ctxchat.core.model_types import ReplyCut

        if isinstance(event, ReplyCut):
            self.cuts.append(event)  # said once the turn is kept: "saved" must be true
            return
        super().on_event(event)

    def reasoning_delta(self, text: str) -> None:
        if self.show_reasoning:
            self.think(text)

    def text_delta(self, text: str) -> None:
        if not self.stream_text:
            return
        self.end_thinking()
        self.output.write_reply(text)
        self.wrote = True
        self.open_line = not text.endswith("\n")

    def end_text(self) -> None:
        self.end_line()

    def line(self, line: EventLine) -> None:
        # stdout is the reply's alone: every line goes to stderr.
        if line.kind == "warning":
            warn(line.text)
        else:
            report(line.text, kind="note" if line.kind == "note" else "")

    def wait(self) -> None:
        """The model was asked (again): its silence is counted from now."""
        self.waiting.start(f"waiting for {self.model_name}…")

    def tool_finished(self, event: ToolCallFinished) -> None:
        self.wait()  # the model is asked again with the result

    def progress(self, label: str, done: int, total: int) -> None:
        if done >= total:
            self.wait()  # the model is asked once the work is done
        self.bars.update(label, done, total)

    def think(self, text: str) -> None:
        if not self.thinking:
            text = text.lstrip()
            if not text:
                return
            self.end_line()
            self.output.write("<think>\n")
            self.thinking = True
        self.output.write_reply(text)
        self.open_line = not text.endswith("\n")

    def end_thinking(self) -> None:
        if self.thinking:
            self.end_line()
            self.output.write("</think>\n\n")
            self.thinking = False

    def end_line(self) -> None:
        self.output.end_reply()
        if self.open_line:
            self.output.write("\n")
            self.open_line = False

    def end_turn(self) -> None:
        """The reply's last line ended, and an empty reply still one (empty) line, so in
        line-per-turn mode reply n is line n of the output."""
        self.end_thinking()
        if self.stream_text and not self.wrote:
            self.output.write("\n")
        self.end_line()


def run_script(
    service: ChatService,
    conversation: Conversation,
    turns: Iterable[Message],
    *,
    json_lines: bool,
    show_reasoning: bool = False,
    out: TextIO | None = None,
    tool_policy: ToolPolicy | None = None,
) -> None:
    """Send each turn as `turns` yields it. Reading stdin happens outside the event loop,
    where Ctrl-C interrupts a blocked read at once. Tools with side effects run only as
    `tool_policy` (the --allow-tools and --yes-tools flags) allows: nobody is asked."""
    from ctxchat.cli.tool_approval import ToolPolicy, script_approver

    output = _Output(out or sys.stdout)
    approve = script_approver(tool_policy or ToolPolicy(), warn)
    for turn in turns:
        sent = _send(
            service,
            conversation,
            turn,
            json_lines=json_lines,
            show_reasoning=show_reasoning,
            output=output,
            approve=approve,
        )
        run_sync(sent)
        collector.resume()  # off for start-up and the first turn only
        if output.gone:
            return  # nobody reads the replies: sending more would only cost tokens


async def _send(
    service: ChatService,
    conversation: Conversation,
    turn: Message,
    *,
    json_lines: bool,
    show_reasoning: bool,
    output: _Output,
    approve: Approver,
) -> None:
    streamer = _Streamer(
        output,
        stream_text=not json_lines,
        show_reasoning=show_reasoning,
        show_progress=not json_lines and sys.stderr.isatty(),
    )
    streamer.model_name = conversation.model.name
    streamer.wait()
    try:
        outcome = await cancellable(
            service.send(conversation, [turn], on_event=streamer.on_event, approve=approve)
        )
    except asyncio.CancelledError:  # interrupted before the turn began
        raise TurnCancelled() from None
    except BaseException:
        streamer.end_line()
        raise
    finally:
        streamer.waiting.stop()
    streamer.end_turn()
    for cut in streamer.cuts:
        warn(cut_note(cut))
    response = outcome.context.response
    note = cut_short_note(response, conversation.model) if response is not None else None
    if note is not None:
        warn(note)
    if json_lines:
        # The input as it was kept (see `ctxchat.core.storable`), as the output is.
        kept = storable(turn.text)
        record = turn_record(conversation, kept, outcome, reasoning=show_reasoning)
        output.write(json_text(record) + "\n")
    if outcome.context.learning_interrupted:
        raise LearningInterrupted()  # the turn is out and kept; the script stops at the ^C
