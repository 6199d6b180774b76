"""The turn journal: how a history kept outside the session file (SQL) and the session file
that counts turns are made to agree after any single failure, a SIGKILL included.

The order, and why. A turn is kept in two places that no one transaction spans: the
history's database and the session file (its turn count, its provider states). The session
file is the commit record; a history's rows are only *prepared* until it says otherwise:

1. Before the turn starts (under the session's lock), the session file is saved with
   `pending_turn` set to the turn's id (`begin`). Nothing is sent to the model if this
   fails: a read-only or full sessions directory refuses the turn before it costs anything.
2. The histories store the turn under that id (each in one transaction).
3. The session file is saved with the turn counted and `pending_turn` cleared (the
   engine's `on_stored` commit). If this fails, the engine takes the turn back out of the
   histories (`discard_turn`) and the turn fails: "the reply was shown but not saved".
4. Only then do the other providers learn from the turn; the audit records it `ok`.

A process killed anywhere in between leaves `pending_turn` set in the file. The next one to
hold the session's lock (`recover`: a new turn, `undo`, or a reader that finds the lock
free) takes that turn out of the histories by its id and clears the mark, so the history
never holds a turn its session does not count, and the audit never says `ok` for it (the
audit writes only after step 3). A kill after step 3 loses at most what other providers
would have learnt; the turn itself is kept and counted. Not its audit row: the save of step
3 also marks the turn `unrecorded_turn`, cleared by a save once the record stage has run,
and the next process to hold the lock (`recover`) hands what the history kept of a turn
still marked to the providers' `record_missed_turn` (the audit writes the row it lacks).
The mark costs one more save per turn where a provider records turns; it is not cleared
where the history cannot be read or a recorder fails, and the next process tries again.

The other order (session file first, then the history) would need the history to be the
commit record, and a history can be shared by several sessions, be read-only, or be on a
server that is down when the count has to be put right; the session file is always the
session's own. A pipeline whose histories all live in the session file (`in_memory_history`)
needs no journal: the one write that counts the turn also stores it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Protocol

from ctxchat.core.agent import Agent, TurnFailed
from ctxchat.core.capabilities import RecordsMissedTurns
from ctxchat.core.errors import CtxchatError, StorageError, TurnNotStored
from ctxchat.core.messages import Message
from ctxchat.core.provider import HistoryProvider
from ctxchat.core.session import Session
from ctxchat.services.titles import entitle


class SessionWriter(Protocol):
    """Where the journal saves session files: the `SessionStore`, or for a temporary chat
    (`run --temp`) nothing at all."""

    def save(self, session: Session) -> None: ...

    def delete(self, session_id: str) -> None: ...

    def exists(self, session_id: str) -> bool: ...


def journaled_histories(agent: Agent) -> list[HistoryProvider[Any]]:
    """The histories that store turns outside the session file."""
    return [
        p
        for p in agent.run_providers()
        if isinstance(p, HistoryProvider) and p.stores_turn and not p.stores_in_session
    ]


def begin(store: SessionWriter, session: Session, turn_id: str, agent: Agent) -> bool:
    """Mark `turn_id` as under way in the session file, when a history outside it will
    store the turn; whether it was marked. Raises `FileWriteError` if it cannot be saved."""
    if not journaled_histories(agent):
        return False
    session.pending_turn = turn_id
    try:
        store.save(session)
    except BaseException:
        session.pending_turn = None
        raise
    return True


def recording(agent: Agent) -> list[RecordsMissedTurns]:
    """The providers that record kept turns a killed process left unrecorded."""
    return [p for p in agent.run_providers() if isinstance(p, RecordsMissedTurns)]


def commit(
    store: SessionWriter,
    session: Session,
    model: str,
    inputs: str | Sequence[Message],
    *,
    unrecorded: str | None = None,
) -> None:
    """Count the turn in the session file, clearing its mark (step 3), and mark it as
    `unrecorded` until the record stage has run (the caller clears that in memory, for
    the next save). When the file cannot be saved the session is left as it was, and
    the error raised (the engine then takes the turn back out of the histories)."""
    before = (
        session.turns,
        session.model,
        session.title,
        session.pending_turn,
        session.unrecorded_turn,
    )
    used = session.updated_at
    session.turns += 1
    session.model = model
    session.pending_turn = None
    session.unrecorded_turn = unrecorded
    session.updated_at = datetime.now(UTC)
    entitle(session, inputs)
    try:
        store.save(session)
    except BaseException:
        (
            session.turns,
            session.model,
            session.title,
            session.pending_turn,
            session.unrecorded_turn,
        ) = before
        session.updated_at = used
        raise


def settle_failure(
    store: SessionWriter,
    session: Session,
    failed: TurnFailed,
    *,
    existed: bool,
) -> bool:
    """The session file after a failed turn; whether the session has one now. It holds no
    trace of the turn but what the second stage recorded (the audit's), and keeps the
    mark only while a history still holds the turn (its undo failed too). A failed first
    turn leaves no file (the one `begin` made is removed): a session exists once a turn of
    it is stored. What the second stage kept of it (the audit's row, under the session's
    id) stays, an orphan `sessions prune --orphans` removes."""
    cause = failed.cause
    left = isinstance(cause, TurnNotStored) and bool(cause.kept_by)
    if not left:
        session.pending_turn = None
    try:
        if existed or left:
            session.updated_at = datetime.now(UTC)
            store.save(session)
        else:
            if store.exists(session.id):
                store.delete(session.id)
            return False
    except CtxchatError:
        # The turn failed already and says so; a mark left in the file is recovered when
        # the session is next opened.
        return existed or store.exists(session.id)
    return True


async def recover(store: SessionWriter, session: Session, agent: Agent) -> bool:
    """Take a turn a process left under way (it ended between the stores) out of the
    histories, and record a kept turn a process left unrecorded (it ended between the
    save that counted the turn and the record stage), clearing their marks in the file;
    whether there was either. Call it holding the session's lock. A history that cannot
    be reached now raises, leaving the mark; a recorder that cannot record now leaves
    its mark for the next process."""
    turn_id = session.pending_turn
    if turn_id is not None:
        await _discard(journaled_histories(agent), session, turn_id)
        session.pending_turn = None
    missed = session.unrecorded_turn
    if missed is not None and await _record_missed(agent, session, missed):
        session.unrecorded_turn = None
    if (turn_id, missed) == (None, None):
        return False
    store.save(session)
    return True


async def _record_missed(agent: Agent, session: Session, turn_id: str) -> bool:
    """Hand the recorders the last turn the history kept; whether all of them took it."""
    recorders = recording(agent)
    history = agent.loading_history or agent.history_provider
    if not recorders or history is None:
        return True
    try:
        kept = await history.all_messages(
            session.id, state=session.provider_state(history.source_id)
        )
    except CtxchatError:
        return False
    messages = last_turn(kept)
    done = True
    for recorder in recorders:
        state = session.provider_state(recorder.source_id)
        try:
            await recorder.record_missed_turn(
                session=session, turn_id=turn_id, messages=messages, state=state
            )
        except CtxchatError:
            done = False
    return done


def last_turn(messages: Sequence[Message]) -> list[Message]:
    """The last turn of a history: its last user message and what followed it."""
    starts = [n for n, m in enumerate(messages) if m.role == "user"]
    return list(messages[starts[-1] :]) if starts else []


async def _discard(
    histories: Sequence[HistoryProvider[Any]], session: Session, turn_id: str
) -> None:
    for history in histories:
        state = session.provider_state(history.source_id)
        try:
            await history.discard_turn(session.id, turn_id, state=state)
        except StorageError as exc:
            raise StorageError(
                f"session {session.id} has a turn a process left unfinished, and history "
                f"'{history.source_id}' cannot take it back now: {exc}"
            ) from exc
