"""A reply as it streams: a waiting indicator, then Markdown (or plain text), tool calls.

Markdown mode prints finished blocks for good and keeps only the block still arriving in a
live region that is never taller than the terminal: a region that scrolls off the top can
no longer be erased, and whatever scrolled off would stay in the scrollback twice.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ctxchat.cli.event_render import EventLine, EventRenderer
from ctxchat.cli.progress import ProgressDisplay
from ctxchat.cli.render import (
    CODE_THEME,
    keep_line_breaks,
    stable_length,
    tail_source,
    thought_line,
    tool_run_line,
)
from ctxchat.core.sanitize import SafeStream, terminal_safe

if TYPE_CHECKING:
    from rich.console import Console, RenderableType
    from rich.live import Live

    from ctxchat.core.model_types import Event, ReplyCut, ToolCallFinished, ToolCallStarted

REFRESH_SECONDS = 0.05
THINK_HINT = "  (/think)"
SHOW_SECONDS_AFTER = 2


class ReplyView(EventRenderer):
    def __init__(self, console: Console, *, markdown: bool, model_name: str = "the model") -> None:
        self.console = console
        self.markdown = markdown
        self.model_name = model_name
        self.pending = ""
        self.blocks_printed = 0
        self.text_seen = False
        self._plain = SafeStream()
        self._live: Live | None = None
        self._waiting: Live | None = None
        self._last_refresh = 0.0
        self.reasoning = ""  # what the model is thinking aloud, until its reply begins
        self._thinking: Live | None = None
        self._bars = ProgressDisplay(console)  # a provider's work, in the waiting line's place
        # "only its first N bytes were saved" waits for the turn to be kept: a turn whose
        # save fails says so in one line, never that part of it was saved.
        self.cuts: list[ReplyCut] = []

    # -- waiting for the model ----------------------------------------------------------------
    def wait(self, label: str | None = None) -> None:
        """Show that the model was asked (or a tool runs) and nothing came back yet: a slow
        endpoint must not look like a frozen chat. Gone with the next event, or when the
        turn ends anyway."""
        if self._waiting is not None or not self.console.is_terminal:
            return
        if self.console.is_dumb_terminal:
            return
        from rich.live import Live
        from rich.spinner import Spinner
        from rich.text import Text

        said = terminal_safe(label or f"waiting for {self.model_name}…")
        spinner = Spinner("dots", text=Text(said, style="dim"), style="dim")
        started = time.monotonic()

        def waited() -> Spinner:
            # The seconds so far, once there are a few: a server that has not answered yet
            # looks like one, not like a frozen chat.
            seconds = int(time.monotonic() - started)
            if seconds >= SHOW_SECONDS_AFTER:
                spinner.text = Text(f"{said} {seconds} s", style="dim")
            return spinner

        self._waiting = Live(
            console=self.console,
            transient=True,
            refresh_per_second=12.5,
            get_renderable=waited,
        )
        self._waiting.start(refresh=True)

    def _stop_waiting(self) -> None:
        if self._waiting is not None:
            self._waiting.stop()
            self._waiting = None

    # -- events from the engine (dispatched by EventRenderer) ---------------------------------
    def on_event(self, event: Event) -> None:
        from ctxchat.core.model_types import ReplyCut

        if isinstance(event, ReplyCut):
            self.cuts.append(event)
        else:
            super().on_event(event)

    def before_event(self, event: Event) -> None:
        from ctxchat.core.model_types import ProviderProgress

        self._stop_waiting()
        if not isinstance(event, ProviderProgress):
            self._bars.close()  # work that stopped short: its bar goes before the rest

    def reasoning_delta(self, text: str) -> None:
        self.add_reasoning(text)

    def text_delta(self, text: str) -> None:
        self.end_reasoning()
        self.add_text(text)

    def tool_started(self, event: ToolCallStarted) -> None:
        self.wait(f"running {event.call.name}…")

    def tool_finished(self, event: ToolCallFinished) -> None:
        self.note(tool_run_line(event.call, event.result, event.seconds))
        self.wait()  # the model is asked again with the result

    def progress(self, label: str, done: int, total: int) -> None:
        # In the waiting line's place: the model is asked once the work is done.
        self._bars.update(label, done, total)
        if not self._bars.active:
            self.wait()

    def line(self, line: EventLine) -> None:
        if line.kind == "warning":
            self.note(f"warning: {line.text}", "yellow")
        else:
            self.note(line.text)

    def note(self, text: str, style: str = "dim") -> None:
        from rich.text import Text

        from ctxchat.core.redact import scrub_secrets

        self.console.print(Text(terminal_safe(scrub_secrets(text)), style=style))

    # -- reasoning: one dim line, the latest words while it streams, its start after ----------
    def add_reasoning(self, delta: str) -> None:
        self.reasoning += delta
        if not self.reasoning.strip():
            return
        if not self.console.is_terminal or self.console.is_dumb_terminal:
            return  # no line to redraw: the folded line is printed when it ends
        from rich.live import Live

        now = time.monotonic()
        if self._thinking is None:
            self._thinking = Live(console=self.console, auto_refresh=False, transient=True)
            self._thinking.start()
            self._last_refresh = 0.0
        if now - self._last_refresh >= REFRESH_SECONDS:
            line = thought_line(self.reasoning, self.console.width, streaming=True)
            self._thinking.update(self._dim_line(line), refresh=True)
            self._last_refresh = now

    def end_reasoning(self) -> None:
        """The reply (or a tool call) begins: the reasoning stays as one folded line."""
        if self._thinking is not None:
            self._thinking.stop()
            self._thinking = None
        if self.reasoning.strip():
            line = thought_line(self.reasoning, self.console.width, suffix=THINK_HINT)
            self.console.print(self._dim_line(line))
        self.reasoning = ""

    @staticmethod
    def _dim_line(text: str) -> RenderableType:
        from rich.text import Text

        return Text(text, style="dim", no_wrap=True, overflow="ellipsis")

    def add_text(self, delta: str) -> None:
        self.text_seen = True
        if not self.markdown:
            self._write_plain(self._plain.feed(delta))
            return
        self.pending += delta
        cut = stable_length(self.pending)
        if cut:
            done, self.pending = self.pending[:cut], self.pending[cut:]
            self._print_block(done)
        self._show_pending()

    def _write_plain(self, text: str) -> None:
        if text:
            self.console.file.write(text)
            self.console.file.flush()

    def end_text(self) -> None:
        """The current assistant message is complete (a reply, or text before tool calls)."""
        self._stop_waiting()
        self._bars.close()
        self.end_reasoning()
        if not self.markdown:
            self._write_plain(self._plain.flush())
            if self.text_seen:
                self._write_plain("\n")
            self.text_seen = False
            return
        self._stop_live()
        if self.pending.strip():
            self._print_block(self.pending)
        self.pending = ""

    def finish(self) -> None:
        self.end_text()

    def pause(self) -> None:
        """Clear the way for a question (a tool asks to run): no spinner, text ended."""
        self.end_text()

    def abort(self) -> None:
        """Keep what arrived on screen, marked as not a stored reply."""
        self.end_text()
        self.note("(cancelled: nothing of this turn was saved)")

    # -- markdown -----------------------------------------------------------------------------
    def _markdown(self, text: str) -> RenderableType:
        from rich.markdown import Markdown

        return Markdown(keep_line_breaks(terminal_safe(text)), code_theme=CODE_THEME)

    def _print_block(self, text: str) -> None:
        if not text.strip():
            return
        self._stop_live()
        if self.blocks_printed:
            self.console.print()
        self.console.print(self._markdown(text))
        self.blocks_printed += 1

    def _tail(self) -> RenderableType:
        """The end of the pending block, at most a screen less one line high: the line
        under the region holds the cursor."""
        from rich.segment import Segment, Segments

        rows = max(1, self.console.size.height - 1)
        source = tail_source(self.pending, rows)
        lines = self.console.render_lines(self._markdown(source), pad=False)[-rows:]
        segments: list[Segment] = []
        for number, line in enumerate(lines):
            if number:
                segments.append(Segment.line())
            segments.extend(line)
        return Segments(segments)

    def _show_pending(self) -> None:
        if not self.pending.strip():
            return
        now = time.monotonic()
        if self._live is None:
            from rich.live import Live

            self._live = Live(
                console=self.console,
                auto_refresh=False,
                transient=True,
                vertical_overflow="crop",
            )
            self._live.start()
            self._last_refresh = 0.0
        if now - self._last_refresh >= REFRESH_SECONDS:
            self._live.update(self._tail(), refresh=True)
            self._last_refresh = now

    def _stop_live(self) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None
