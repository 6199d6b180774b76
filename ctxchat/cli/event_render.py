"""One dispatch of the engine's events for every surface a turn is shown on: the REPL's
reply view and a script's stdout. Each surface says how it shows text, reasoning, tools
and a line; the rules they share live here once. The one that was written twice and
broke: a line (a notice, a warning) after reply text ends the open line first, so
`remembered: ...` never lands glued to the end of the reply.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from ctxchat.core.model_types import Event, ToolCallFinished, ToolCallStarted

LineKind = Literal["note", "notice", "warning"]


@dataclass(frozen=True)
class EventLine:
    """A line for the user beside the reply: `note` from the model client, `notice` from a
    provider, `warning` when something could not be done."""

    kind: LineKind
    text: str


def line_of(event: Event) -> EventLine | None:
    """The line an event is shown as, or None when it is not one (text, tools, progress)."""
    from ctxchat.core.model_types import ModelNotice, ProviderNotice, ProviderWarning, ReplyCut

    if isinstance(event, ModelNotice):
        return EventLine("note", event.message)
    if isinstance(event, ProviderNotice):
        return EventLine("notice", event.message)
    if isinstance(event, ProviderWarning):
        return EventLine("warning", f"provider '{event.source_id}': {event.message}")
    if isinstance(event, ReplyCut):
        from ctxchat.cli.common import cut_note

        return EventLine("warning", cut_note(event))
    return None


class EventRenderer:
    """Shows a turn's events; a surface overrides the parts it shows differently."""

    def on_event(self, event: Event) -> None:
        from ctxchat.core.model_types import (
            ProviderProgress,
            ReasoningDelta,
            TextDelta,
            ToolCallFinished,
            ToolCallStarted,
        )

        self.before_event(event)
        if isinstance(event, ReasoningDelta):
            self.reasoning_delta(event.text)
        elif isinstance(event, TextDelta):
            self.text_delta(event.text)
        elif isinstance(event, ToolCallStarted):
            self.end_text()  # text before a tool call is a message of its own
            self.tool_started(event)
        elif isinstance(event, ToolCallFinished):
            self.tool_finished(event)
        elif isinstance(event, ProviderProgress):
            self.progress(event.label, event.done, event.total)
        else:
            line = line_of(event)
            if line is not None:
                self.end_text()
                self.line(line)

    def before_event(self, event: Event) -> None:
        """Called first for every event (a waiting indicator goes, say)."""

    def reasoning_delta(self, text: str) -> None:
        """A piece of what the model thinks aloud; not shown unless a surface shows it."""

    def text_delta(self, text: str) -> None:
        raise NotImplementedError

    def end_text(self) -> None:
        """The text so far is complete: its open line ends."""
        raise NotImplementedError

    def tool_started(self, event: ToolCallStarted) -> None:
        """A tool begins to run."""

    def tool_finished(self, event: ToolCallFinished) -> None:
        """A tool ran."""

    def progress(self, label: str, done: int, total: int) -> None:
        """Long work before the model is asked: `done` of `total`."""

    def line(self, line: EventLine) -> None:
        raise NotImplementedError
