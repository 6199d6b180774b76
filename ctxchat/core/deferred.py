"""Learning a turn leaves for later: slow work that may run once the prompt is back.

A provider's learning hook (its `after_run`) may hand slow work, such as the summary's
fold, to the caller instead of doing it before the turn returns, when the caller offers
to run it (`RunContext.defer`). The REPL runs it in the background while the next line is
typed, and the next input waits for it with a status line; a caller that does not offer
(a script, an engine test) gets it done within the turn, as before.

The work runs later on the session as it is then (the caller reloads it under its lock),
not on the turn's copy: it is handed that session and its provider's state, and saves
nothing itself, so what it learns goes through the same save as the turn's.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ctxchat.core.model_types import EventSink
    from ctxchat.core.session import Session

# The work: given the session as it is now, the provider's state in it, and where its
# notices and warnings go.
DeferredRun = Callable[["Session", dict[str, Any], "EventSink"], Awaitable[None]]


@dataclass(frozen=True)
class DeferredWork:
    """One provider's work left for after the turn, with what a status line calls it
    while someone waits for it ("summarising 12 older messages")."""

    source_id: str
    label: str
    run: DeferredRun
