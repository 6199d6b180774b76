"""The one progress display: rich's bar on stderr, redrawn in place and gone when the work
ends, and only on a terminal (a pipe or a log file would keep every redraw).

Every long piece of work shows through it: a command's evaluation cases, a migration of the
database (lent to providers as `ProviderEnv.progress`), and a provider's progress during a
turn in script mode (`ProviderProgress` events).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from ctxchat.core.progress import Progress

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress as RichProgress
    from rich.progress import TaskID


class ProgressDisplay:
    """Bars by label, drawn on `console` (stderr's when none) while any is under way;
    `shown=False` draws none (`--json`). rich is imported when a bar is first drawn, so a
    command that never shows one never pays for it."""

    def __init__(self, console: Console | None = None, *, shown: bool = True) -> None:
        self._console = console
        self._shown = shown
        self._bars: RichProgress | None = None
        self._tasks: dict[str, TaskID] = {}

    @property
    def shown(self) -> bool:
        if self._shown and self._console is None:
            from ctxchat.cli.render import make_console

            self._console = make_console(stderr=True)
        console = self._console
        self._shown = (
            self._shown
            and console is not None
            and console.is_terminal
            and not console.is_dumb_terminal
        )
        return self._shown

    @property
    def active(self) -> bool:
        return self._bars is not None

    def bar(self, label: str) -> Progress:
        """The `Progress` of the work named `label` (a `ProgressBars`)."""
        return functools.partial(self.update, label)

    def update(self, label: str, done: int, total: int) -> None:
        if done >= total:
            self._finish(label)
            return
        if not self.shown:
            return
        if self._bars is None:
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn
            from rich.progress import Progress as RichProgress

            self._bars = RichProgress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                console=self._console,
                transient=True,
                auto_refresh=False,  # drawn at each report: no thread, and no step skipped
            )
            self._bars.start()
        task = self._tasks.get(label)
        if task is None:
            self._tasks[label] = self._bars.add_task(label, total=total, completed=done)
        else:
            self._bars.update(task, completed=done, total=total)
        self._bars.refresh()

    def _finish(self, label: str) -> None:
        task = self._tasks.pop(label, None)
        if self._bars is not None and task is not None:
            self._bars.remove_task(task)
        if not self._tasks:
            self.close()

    def close(self) -> None:
        """Every bar gone from the screen (work that stopped short, or the command ends)."""
        self._tasks.clear()
        if self._bars is not None:
            self._bars.stop()
            self._bars = None
