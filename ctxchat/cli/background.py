"""The REPL's learning in the background: what a turn left for later (the summary's fold,
see `ctxchat.core.deferred`) runs once the prompt is back, so the next line can be typed
while it runs. An input that arrives before it ends waits for it with a status line
("summarising 12 older messages… Ctrl-C skips"), never silently; Ctrl-C stops it, and
what it had done is kept. Its notices and warnings are shown when it is waited for.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ctxchat.cli.terminal import cancellable
from ctxchat.core.errors import CtxchatError

if TYPE_CHECKING:
    from rich.console import Console

    from ctxchat.cli.reply_view import ReplyView
    from ctxchat.core.deferred import DeferredWork
    from ctxchat.core.model_types import Event
    from ctxchat.services.conversations import ChatService, Conversation

SKIP_HINT = "Ctrl-C skips"
# The only work left for later is a fold, and one skipped is caught up where it matters.
SKIPPED_NOTE = "what the next request would miss is summarised first"


class Background:
    """The one piece of background work of a chat, if any, and what it has said so far."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self._task: asyncio.Task[None] | None = None
        self._label = ""
        self._events: list[Event] = []

    def start(
        self, service: ChatService, conversation: Conversation, work: Sequence[DeferredWork]
    ) -> None:
        if not work:
            return
        self._events = []
        self._label = "; ".join(w.label for w in work)
        self._task = asyncio.ensure_future(
            service.run_deferred(conversation, work, on_event=self._events.append)
        )

    async def settle(self) -> None:
        """Wait for the work under way, with a status line while it lasts (Ctrl-C skips
        the rest of it); then say what it said, or why it failed."""
        task, self._task = self._task, None
        if task is None:
            return
        from ctxchat.cli.reply_view import ReplyView

        view = ReplyView(self.console, markdown=False)
        skipped = False
        if not task.done():
            try:
                await cancellable(_finished(task, view, f"{self._label}… {SKIP_HINT}"))
            except asyncio.CancelledError:
                skipped = True
                # It saves what it had done on the way out: that must end before a turn.
                await asyncio.wait([task])
        for event in self._events:
            view.on_event(event)
        view.finish()
        failure = None if task.cancelled() else task.exception()
        if skipped or task.cancelled():
            view.note(f"{self._label}: skipped ({SKIPPED_NOTE})")
            return
        if isinstance(failure, CtxchatError):
            view.note(f"warning: {self._label} failed: {failure.message}", "yellow")
        elif failure is not None:
            failed = f"{type(failure).__name__}: {failure}"
            view.note(f"warning: {self._label} failed: {failed}", "yellow")


async def _finished(task: asyncio.Task[None], view: ReplyView, status: str) -> None:
    """Await `task` from another task, so cancelling this one cancels it. The status line
    is shown from in here: once it is on screen, Ctrl-C already reaches this task."""
    view.wait(status)
    await task
