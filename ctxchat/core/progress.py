"""Progress of long work, as the engine reports it: the one `Progress` type.

The engine never draws: whoever does the work calls a `Progress` with how much is done of
how much in all, and `done >= total` says it is over. The CLI decides whether and how it is
shown (`ctxchat.cli.progress`). Work that names itself (a migration step: "indexing the
history for search") asks the `ProgressBars` it was lent for a `Progress` under its label.
"""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[int, int], None]  # (done, in all)
ProgressBars = Callable[[str], Progress]  # a label -> the Progress shown under it


def _ignore(_done: int, _total: int) -> None:
    return None


def no_bars(_label: str) -> Progress:
    """Progress shown nowhere: a library caller, a test, a pipe."""
    return _ignore
