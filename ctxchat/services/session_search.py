"""Search across sessions: the words of a query looked up in every searchable history of
the pipeline, each match told with its session's id and title.

What is searched is what the SQL history stores (see `ctxchat.core.search`): a session whose
conversation lives in its own file (the in-memory history) is not indexed, and not found.
Only the user's own rows are searched (the history filters by its owner's user in the
query). A match this home wrote under a history key no saved session claims (its file was
deleted by hand) is left out: there is no session to show it in. A match of the same user
from another home sharing the database is shown by its key, without a title.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import TYPE_CHECKING, Any

from ctxchat.core.capabilities import SearchableHistory
from ctxchat.core.errors import UsageError
from ctxchat.core.provider import HistoryUnsupported
from ctxchat.core.search import MessageHit, SessionHit, query_terms, snippet_spans
from ctxchat.core.session import Session

if TYPE_CHECKING:
    from ctxchat.core.provider import ContextProvider
    from ctxchat.storage.store import SessionStore

DEFAULT_LIMIT = 10
# Matches read beyond the limit, so that a few under keys no session claims (left out)
# still leave `limit` to show.
SLACK = 10


def searchable(providers: Iterable[ContextProvider[Any]]) -> list[SearchableHistory]:
    found: list[SearchableHistory] = [p for p in providers if isinstance(p, SearchableHistory)]
    if not found:
        raise HistoryUnsupported(
            "no history in this pipeline can be searched: search reads what a sql_history "
            "provider stores"
        )
    return found


async def search_sessions(
    providers: Iterable[ContextProvider[Any]],
    store: SessionStore,
    query: str,
    *,
    limit: int = DEFAULT_LIMIT,
    session: Session | None = None,
    leave_out: Collection[str] = (),
    project: str | None = None,
    warn: Callable[[str], None] | None = None,
) -> list[SessionHit]:
    """The best `limit` stored messages for the words of `query`, best first; only
    `session`'s when given; none whose message id is in `leave_out` (the model's search
    leaves out what a forgotten fact came from; the user's own search shows it). `warn` is
    told once when the search ranks less well than configured (the embeddings endpoint
    failed: by words only), however many histories it searched."""
    terms = query_terms(query)
    if not terms:
        raise UsageError(f"nothing to search for in {query!r}: give at least one word")
    if limit < 1:
        raise UsageError(f"the limit must be at least 1, not {limit}")
    scored: list[MessageHit] = []
    told: list[str] = []

    def once(line: str) -> None:
        if warn is not None and not told:
            told.append(line)
            warn(line)

    for history in searchable(providers):
        keys = None
        if session is not None:
            keys = history.session_keys(session, session.provider_state(history.source_id))
        scored.extend(
            await history.search_messages(
                terms,
                limit=limit + SLACK,
                keys=keys,
                exclude=(lambda hit: hit.message_id in leave_out) if leave_out else None,
                warn=once,
            )
        )
    scored.sort(key=lambda hit: -hit.score)
    if project is not None:
        from ctxchat.services.project_scope import project_of

        # The project's sessions first, each group still best first (the sort is stable).
        lookup = project_of(store)
        scored.sort(key=lambda hit: lookup(hit.key) != project)
    sessions: dict[str, Session | None] = {}
    if session is not None:
        sessions.update(dict.fromkeys(_keys(scored), session))
    hits: list[SessionHit] = []
    for hit in scored:
        # A history is keyed by its session's id unless pointed elsewhere: the owner is
        # the session of that id; rows no session claims are left out.
        owner = sessions[hit.key] if hit.key in sessions else store.peek(hit.key)
        sessions[hit.key] = owner
        if owner is None and hit.local:
            continue
        hits.append(
            SessionHit(
                owner.id if owner is not None else hit.key,
                owner.title if owner is not None else None,
                hit.role,
                hit.created_at,
                snippet_spans(hit.snippet),
                hit.score,
                hit.neighbour,
            )
        )
        if len(hits) == limit:
            break
    return hits


def _keys(hits: list[MessageHit]) -> list[str]:
    return list(dict.fromkeys(hit.key for hit in hits))
