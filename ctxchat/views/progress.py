"""A progress bar as one line of text, and a stderr bar for long work outside a turn."""

from __future__ import annotations

import sys


def progress_line(label: str, done: int, total: int, width: int = 24) -> str:
    """`label [█████·······] done/total`: one line a terminal redraws in place."""
    share = done / total if total else 1.0
    filled = round(share * width)
    bar = "█" * filled + "·" * (width - filled)
    return f"{label} [{bar}] {done:,}/{total:,}"


class StderrBar:
    """A bar redrawn on stderr when it is a terminal and the work is long (`total` at least
    `least`); nothing at all on a pipe or a log file, which would keep every redraw."""

    def __init__(self, label: str, total: int, *, least: int) -> None:
        self.label = label
        self.total = total
        self.shown = total >= least and sys.stderr.isatty()

    def update(self, done: int) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K" + progress_line(self.label, done, self.total))
            sys.stderr.flush()

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
