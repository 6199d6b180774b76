"""`ctxchat import FORMAT PATH`: a plan (`services.import_plan`) stored as sessions.

Each new conversation is stored by the pipeline's loading history, **one transaction per
conversation** (`ConversationImporter`; a history kept in the session file is written with
it, atomically), then its session file. Per conversation rather than for the whole import:
an export of thousands of conversations is not one lock held for minutes over a shared
database, and a failure part way leaves every conversation either whole or absent, with
the ones before it kept; the next import skips those and goes on. A session file that
cannot be written takes its rows back out. Vectors (`--embed`) and learning
(`ImportLearner`, `--learn`) follow when asked for.

Dates, titles and the source (`state["import"]`: format, id in the source, path, model)
are kept; imported turns go in no usage ledger and no audit: they were not this chat's.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ctxchat.core.capabilities import ConversationImporter, ForgetsSessions, ImportLearner
from ctxchat.core.errors import CtxchatError, UsageError
from ctxchat.core.importing import LearnItem

if TYPE_CHECKING:
    from ctxchat.core.messages import Message
    from ctxchat.core.provider import ContextProvider, HistoryProvider
    from ctxchat.core.session import Session
    from ctxchat.services.conversations import ChatService
    from ctxchat.services.import_plan import ImportPlan, PlannedSession


async def store_plan(
    plan: ImportPlan,
    service: ChatService,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> list[Session]:
    """Store each new session of `plan` (see the module's docstring); the ones stored."""
    history = service.history()
    stored: list[Session] = []
    todo = plan.new
    for done, planned in enumerate(todo, 1):
        session = planned.session
        async with service.session_lock(session.id):
            if service.store.exists(session.id):  # another import got there first
                planned.exists = True
                continue
            await _store_one(history, service, planned)
        stored.append(session)
        if progress is not None:
            progress(done, len(todo))
    return stored


async def _store_one(
    history: HistoryProvider[Any], service: ChatService, planned: PlannedSession
) -> None:
    session = planned.session
    state = session.provider_state(history.source_id)
    if history.stores_in_session:
        for turn in planned.turns:
            await history.save_messages(session.id, turn.messages, state=state)
    elif isinstance(history, ConversationImporter):
        await history.import_conversation(session.id, planned.turns, state=state)
    else:
        raise UsageError(
            f"history provider '{history.source_id}' cannot store an imported conversation"
        )
    try:
        service.store.save(session)
    except BaseException:
        if not history.stores_in_session and isinstance(history, ForgetsSessions):
            with contextlib.suppress(CtxchatError):
                await history.forget_session(session, state)
        raise


async def embed_imported(
    service: ChatService,
    sessions: Sequence[Session],
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Vectors for the imported sessions' messages (`--embed`); how many were made."""
    from ctxchat.core.capabilities import EmbeddableHistory, SearchableHistory

    history = service.history()
    if not isinstance(history, EmbeddableHistory) or not isinstance(history, SearchableHistory):
        raise UsageError("--embed needs a sql_history provider")
    keys: set[str] = set()
    for session in sessions:
        keys |= history.session_keys(session, session.provider_state(history.source_id))
    return await history.embed_unembedded(keys, progress=progress)


def learner(providers: Sequence[ContextProvider[Any]]) -> ImportLearner:
    for provider in providers:
        if isinstance(provider, ImportLearner):
            return provider
    raise UsageError(
        "--learn needs a provider that remembers the user; add one to the config: "
        '[[providers]] type = "user_memory"'
    )


def planned_items(plan: ImportPlan) -> list[LearnItem]:
    """The user's own messages of every conversation of the plan, oldest first, as the plan
    made them (for `--dry-run`: nothing is stored yet)."""
    items = []
    for planned in sorted(plan.sessions, key=lambda p: p.session.created_at):
        for turn in planned.turns:
            items.extend(_own(planned.session.id, turn.messages))
    return items


async def stored_items(plan: ImportPlan, service: ChatService) -> list[LearnItem]:
    """The user's own messages of every conversation of the plan now kept, this import's
    and an earlier one's alike (learning declined then may be asked for again), read back
    from the history: the provenance names the messages as stored."""
    items = []
    for planned in sorted(plan.sessions, key=lambda p: p.session.created_at):
        if not service.store.exists(planned.session.id):
            continue
        session = service.store.load(planned.session.id)
        items.extend(_own(session.id, await service.transcript(session)))
    return items


def _own(session_id: str, messages: Sequence[Message]) -> list[LearnItem]:
    return [
        LearnItem(session_id, m.id, m.text) for m in messages if m.role == "user" and m.text.strip()
    ]
