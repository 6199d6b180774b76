"""Output: consoles, a streamed reply as Markdown (or plain text), tool calls, turns.

Rich follows NO_COLOR and drops styling when the output is not a terminal by itself.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rich.console import Console, RenderableType
    from rich.live import Live

    from ctxchat.messages import Message
    from ctxchat.model_types import Event

CODE_THEME = "monokai"
REFRESH_SECONDS = 0.05
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def make_console(*, stderr: bool = False, file: TextIO | None = None) -> Console:
    from rich.console import Console

    return Console(file=file, stderr=stderr, highlight=False, soft_wrap=False)


def stable_length(text: str) -> int:
    """How much of a growing Markdown text later deltas cannot change: everything up to the
    last blank line or closing code fence that lies outside a code block."""
    cut = pos = 0
    fence: str | None = None
    for line in text.splitlines(keepends=True):
        if not line.endswith("\n"):
            break  # the line is still arriving
        pos += len(line)
        found = _FENCE.match(line)
        if fence is None:
            if found:
                fence = found.group(1)
            elif not line.strip():
                cut = pos
        elif (
            found
            and found.group(1)[0] == fence[0]
            and len(found.group(1)) >= len(fence)
            and not line.strip().strip(fence[0])
        ):
            fence = None
            cut = pos
    return cut


def preview(text: str, limit: int = 100) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class ReplyView:
    """Shows one reply as it streams. Markdown mode prints finished blocks for good and keeps
    only the block still arriving in a live region, so nothing long is redrawn."""

    def __init__(self, console: Console, *, markdown: bool) -> None:
        self.console = console
        self.markdown = markdown
        self.pending = ""
        self.blocks_printed = 0
        self.text_seen = False
        self._live: Live | None = None
        self._last_refresh = 0.0

    # -- events from the engine ---------------------------------------------------------------
    def on_event(self, event: Event) -> None:
        from ctxchat.model_types import (
            ProviderWarning,
            TextDelta,
            ToolCallFinished,
            ToolCallStarted,
        )

        if isinstance(event, TextDelta):
            self.add_text(event.text)
        elif isinstance(event, ToolCallStarted):
            self.end_text()
            call = event.call
            self.note(f"→ {call.name}({preview(call.arguments, 80)})")
        elif isinstance(event, ToolCallFinished):
            result = event.result
            label = "error" if result.is_error else "result"
            self.note(f"← {label}: {preview(result.content, 100)}")
        elif isinstance(event, ProviderWarning):
            self.end_text()
            self.note(f"warning: provider '{event.source_id}': {event.message}", "yellow")

    def note(self, text: str, style: str = "dim") -> None:
        from rich.text import Text

        self.console.print(Text(text, style=style))

    def add_text(self, delta: str) -> None:
        self.text_seen = True
        if not self.markdown:
            self.console.file.write(delta)
            self.console.file.flush()
            return
        self.pending += delta
        cut = stable_length(self.pending)
        if cut:
            done, self.pending = self.pending[:cut], self.pending[cut:]
            self._print_block(done)
        self._show_pending()

    def end_text(self) -> None:
        """The current assistant message is complete (a reply, or text before tool calls)."""
        if not self.markdown:
            if self.text_seen:
                self.console.file.write("\n")
                self.console.file.flush()
            self.text_seen = False
            return
        self._stop_live()
        if self.pending.strip():
            self._print_block(self.pending)
        self.pending = ""

    def finish(self) -> None:
        self.end_text()

    def abort(self) -> None:
        """Keep what arrived on screen, marked as not a stored reply."""
        self.end_text()
        self.note("(cancelled: nothing of this turn was saved)")

    # -- markdown -----------------------------------------------------------------------------
    def _markdown(self, text: str) -> RenderableType:
        from rich.markdown import Markdown

        return Markdown(text, code_theme=CODE_THEME)

    def _print_block(self, text: str) -> None:
        if not text.strip():
            return
        self._stop_live()
        if self.blocks_printed:
            self.console.print()
        self.console.print(self._markdown(text))
        self.blocks_printed += 1

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
                vertical_overflow="ellipsis",
            )
            self._live.start()
            self._last_refresh = 0.0
        if now - self._last_refresh >= REFRESH_SECONDS:
            self._live.update(self._markdown(self.pending), refresh=True)
            self._last_refresh = now

    def _stop_live(self) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None


def print_turns(console: Console, turns: Sequence[Sequence[Message]], *, markdown: bool) -> None:
    """Stored turns, readable: the user's words, tool traffic dimmed, the replies."""
    from rich.text import Text

    for turn in turns:
        for message in turn:
            if message.role == "user":
                console.print(Text("you › ", style="bold cyan") + Text(message.text))
            elif message.role == "assistant":
                for call in message.tool_calls:
                    console.print(Text(f"→ {call.name}({preview(call.arguments, 80)})", "dim"))
                if message.text:
                    if markdown:
                        from rich.markdown import Markdown

                        console.print(Markdown(message.text, code_theme=CODE_THEME))
                    else:
                        console.print(Text(message.text))
            elif message.role == "tool":
                for result in message.tool_results:
                    label = "error" if result.is_error else "result"
                    console.print(Text(f"← {label}: {preview(result.content)}", "dim"))
            elif message.role == "system":
                console.print(Text(f"[system] {preview(message.text)}", "dim"))
        console.print()


def write_out(text: str, stream: TextIO | None = None) -> None:
    """Plain text to stdout, as a script reads it."""
    out = stream or sys.stdout
    out.write(text)
    out.flush()
