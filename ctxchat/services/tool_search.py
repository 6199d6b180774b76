"""The search a tool may do: the user's past sessions, as text the model reads.

What the built-in `search_sessions` tool runs, in the kit (`ctxchat.kit.search_past_sessions`)
so that a third party's tool can offer the same search: every searchable history of the
running pipeline, the conversation's project first, and never a message a forgotten fact
came from (the user's own `ctxchat search` shows those; the model must not get them back).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ctxchat.core.tools import ToolRun

MAX_HITS = 20
NOTHING = "no stored message holds those words"


async def search_past_sessions(run: ToolRun, query: str, *, data_dir: Path, limit: int = 5) -> str:
    """The best matches for the words of `query` (at most `limit`, 1 to 20) in the sessions
    of `data_dir` (a provider's `env.data_dir`), each with its session, date, role and
    title, a snippet with the matched words between **, and the turn beside it."""
    from ctxchat.core.forgetting import forgotten_messages
    from ctxchat.core.paths import sessions_dir
    from ctxchat.core.redact import scrub_secrets
    from ctxchat.services.session_search import search_sessions
    from ctxchat.storage.store import SessionStore
    from ctxchat.views.search_hits import hits_text

    providers = run.agent.run_providers()
    notes: list[str] = []
    hits = await search_sessions(
        providers,
        SessionStore(sessions_dir(data_dir)),
        query,
        limit=max(1, min(limit, MAX_HITS)),
        leave_out=await asyncio.to_thread(forgotten_messages, providers),
        project=run.session.project,
        warn=notes.append,
    )
    found = hits_text(hits) if hits else NOTHING
    # The model is told, so it can weigh a miss: words in other words may be missed.
    return "\n".join([*(f"note: {scrub_secrets(line)}" for line in notes), found])
