"""The audit trail: every turn as the model saw it, failed turns included, one row per turn.

The seed's audit pattern is a history that never loads and stores the context other
providers injected (`load_messages=false`, `store_context_messages=true`). Here it is what
that amounts to, a plain provider that records: per turn the input, each provider's
context messages, instruction blocks and tool names (by source id) in the order the model
read them, everything the model produced (tool calls and results included), the usage and,
for a failed turn, the error. It never loads anything into the model's context.

It records in the "record" stage (`record_turn`, see `ctxchat.core.provider`), once the
histories and the session file have settled the turn and before any provider learns from
it, so a row says `ok` only for a turn that was kept, a turn whose history failed is
recorded with that failure, and Ctrl-C or SIGKILL while memory learns cannot lose the row.

Backend: the shared SQL database (`[storage] url`, or its own `url`), its own store (the
`ctxchat_audit` table, migrated by `audit.schema`), rather than JSON Lines per session,
because:
- a row is written in one transaction, so a killed process leaves a turn recorded or not,
  never a torn line that every reader would have to learn to skip;
- two processes on one session append safely (the same locking as the history);
- `limit` (the last N turns) is an indexed query, not a read of the whole file;
- deleting a session is one DELETE, and pointing the storage at PostgreSQL moves the audit
  with the history, with nothing new to back up or configure.

A forgotten fact (`forget_values`, called in the moment of the forget) has its value
replaced by a visible `[forgotten DATE]` marker in the rows' copies of injected blocks and
context messages, and each row so changed says what was removed since: the audit stays a
true record of what was sent, without the value.

Nothing secret is stored: rows hold what the turn held, never options or URLs, and an
error's text loses any credentials in its URLs and any secret ctxchat knows (the API key a
server echoed back, a database password a driver quoted) before it is written.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ctxchat import (
    AgentView,
    ContextProvider,
    CtxchatError,
    Message,
    MessageFormatError,
    RunContext,
    Session,
    StorageError,
    TextPart,
    option,
)
from ctxchat.kit import (
    AuditRecord,
    Database,
    Forgetting,
    OwnedRows,
    SqlBacked,
    adopt_unowned,
    as_json,
    count_owned,
    forgotten_this_run,
    mark_forgotten,
    owner_values,
    scrub_secrets,
    utc,
)

from .schema import AUDIT

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection


MISSED_NOTE = (
    "recorded when the session was next opened: the process ended before it recorded the "
    "turn (its input and reply are the history's; what else the model was sent is unknown)"
)


@dataclass(frozen=True)
class AuditOptions:
    url: str | None = option(
        None,
        secret=True,  # it may carry a password
        help="SQLAlchemy database URL (omitted = [storage] url, else "
        "history.sqlite3 in the data dir)",
    )
    store_context_from: list[str] | None = option(
        None, help="source ids whose context messages are recorded (omitted = all)"
    )
    user: str | None = option(
        None, help="whose rows these are (omitted = CTXCHAT_USER, else your login name)"
    )


class AuditProvider(SqlBacked[AuditOptions], OwnedRows, ContextProvider[AuditOptions]):
    """Records each turn, successful or failed, for `sessions show --audit`; each row owned
    by this home and user (see `ctxchat.storage.sql.ownership`)."""

    stores = (AUDIT,)

    def database(self) -> Database:
        database = super().database()
        adopt_unowned(database, AUDIT.tables, "session_key", self)
        return database

    # -- recording ----------------------------------------------------------------------------
    async def record_turn(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        record = self.record_of(context)
        for forgetting in forgotten_this_run(context.metadata):  # forgotten after it was sent
            record = forget_in_record(record, forgetting) or record
        await asyncio.to_thread(self._append, session.id, record)
        context.mark_kept(self.source_id)

    async def record_missed_turn(
        self,
        *,
        session: Session,
        turn_id: str,
        messages: Sequence[Message],
        state: dict[str, Any],
    ) -> None:
        """A kept turn its process was killed before recording: a row from what the
        history kept, unless one is there already."""
        if await asyncio.to_thread(self._has_turn, session.id, turn_id):
            return
        inputs = tuple(messages[:1])
        record = AuditRecord(
            turn_id=turn_id,
            created_at=datetime.now(UTC),
            ok=True,  # the session file counted it: it was kept
            error=None,
            input_messages=inputs,
            response_messages=tuple(messages[1:]),
            recovered=MISSED_NOTE,
        )
        await asyncio.to_thread(self._append, session.id, record)

    def _has_turn(self, session_id: str, turn_id: str) -> bool:
        import sqlalchemy as sa

        table = AUDIT.tables
        query = sa.select(table.c.seq).where(
            table.c.session_key == session_id, table.c.turn_id == turn_id
        )
        return self.database().read(lambda conn: conn.execute(query.limit(1)).first()) is not None

    def record_of(self, context: RunContext) -> AuditRecord:
        """This turn as an audit record (the error's text when it failed)."""
        response = context.response
        wanted = self.options.store_context_from
        by_source: dict[str, list[Any]] = {}
        for message in context.model_messages(include_input=False):
            source = message.source_id or ""
            if source != self.source_id and (wanted is None or source in wanted):
                by_source.setdefault(source, []).append(message)
        return AuditRecord(
            turn_id=context.turn_id,  # the id the histories stored it under
            created_at=datetime.now(UTC),
            ok=context.error is None and context.stored,
            error=_error_text(context.error) if context.error is not None else None,
            input_messages=context.input_messages,
            instructions=dict(context.instruction_blocks()),
            context_messages={source: tuple(ms) for source, ms in by_source.items()},
            tools={
                source: tuple(t.name for t in tools)
                for source, tools in context.tools.items()
                if tools
            },
            response_messages=response.messages if response is not None else (),
            usage=response.usage if response is not None else None,
            budget=context.budget.to_dict() if context.budget is not None else None,
        )

    def _append(self, session_id: str, record: AuditRecord) -> None:
        row = {
            **owner_values(self.owner),
            "turn_id": record.turn_id,
            "created_at": record.created_at,
            "ok": record.ok,
            "error": record.error,
            "input_tokens": record.usage.input_tokens if record.usage else None,
            "output_tokens": record.usage.output_tokens if record.usage else None,
            "record": as_json(record.to_dict()),
        }
        self.database().append(AUDIT.tables, "session_key", session_id, [row])

    # -- reading ------------------------------------------------------------------------------
    async def audit_records(
        self, session_id: str, *, state: dict[str, Any], limit: int | None = None
    ) -> list[AuditRecord]:
        """Recorded turns, oldest first (the last `limit` when given)."""
        return await asyncio.to_thread(self._records, session_id, limit)

    def _records(self, session_id: str, limit: int | None) -> list[AuditRecord]:
        database = self.database()
        table = AUDIT.tables

        def read(conn: Connection) -> list[Any]:
            import sqlalchemy as sa

            query = (
                sa.select(table.c.seq, table.c.created_at, table.c.record)
                .where(table.c.session_key == session_id)
                .order_by(table.c.seq.desc())
            )
            if limit is not None:
                query = query.limit(max(0, limit))
            return list(conn.execute(query))

        rows = database.read(read)
        return [_record_from_row(database, r) for r in reversed(rows)]

    async def forget_session(self, session: Session, state: dict[str, Any]) -> None:
        await asyncio.to_thread(self._forget, session.id)

    def _forget(self, session_id: str) -> None:
        self._forget_keys([session_id])

    def session_keys(self, session: Session, state: dict[str, Any]) -> set[str]:
        return {session.id}  # its rows are keyed by the session's id

    async def stored_keys(self) -> dict[str, int]:
        return await asyncio.to_thread(
            count_owned, self.database(), AUDIT.tables, "session_key", self.owner.home
        )

    async def forget_keys(self, keys: Collection[str]) -> None:
        await asyncio.to_thread(self._forget_keys, list(keys))

    def _forget_keys(self, keys: list[str]) -> None:
        table = AUDIT.tables
        if keys:
            # Only this home's rows (see `sql_history._forget_keys`).
            delete = table.delete().where(
                table.c.session_key.in_(keys), table.c.home_id == self.owner.home
            )
            self.database().write(lambda conn: conn.execute(delete))

    # -- a forgotten fact ---------------------------------------------------------------------
    async def forget_values(self, values: Sequence[str], forgetting: Forgetting) -> int:
        """Replace the just-forgotten `values` with their marker in the rows' copies of what
        providers injected, each row saying so (`AuditRecord.removed`)."""
        return await asyncio.to_thread(self._forget_values, values, forgetting)

    def _forget_values(self, values: Sequence[str], forgetting: Forgetting) -> int:
        import sqlalchemy as sa

        table = AUDIT.tables
        # The longest word of each value narrows the rows read to those that may hold it.
        words = [max(re.findall(r"\w+", v), key=len) for v in values if re.search(r"\w", v)]
        if not words:
            return 0
        database = self.database()

        def rewrite(conn: Connection) -> int:
            rows = conn.execute(
                sa.select(
                    table.c.session_key, table.c.seq, table.c.created_at, table.c.record
                ).where(
                    # This user's rows only: another user's copies are theirs to keep.
                    table.c.user_key == self.owner.user,
                    sa.or_(*(table.c.record.ilike(f"%{w}%") for w in set(words))),
                )
            )
            changed = 0
            for row in list(rows):
                marked = forget_in_record(_record_from_row(database, row), forgetting)
                if marked is None:
                    continue
                conn.execute(
                    table.update()
                    .where(table.c.session_key == row.session_key, table.c.seq == row.seq)
                    .values(record=as_json(marked.to_dict()))
                )
                changed += 1
            return changed

        return database.write(rewrite)


def _error_text(error: BaseException) -> str:
    """The error as stored: without the credentials of any URL in it, or any secret ctxchat
    knows (a key a server echoed, a password a driver quoted)."""
    text = str(error) if isinstance(error, CtxchatError) else f"{type(error).__name__}: {error}"
    return scrub_secrets(text)


def _record_from_row(database: Database, row: Any) -> AuditRecord:
    try:
        return AuditRecord.from_dict(json.loads(row.record), created_at=utc(row.created_at))
    except (ValueError, MessageFormatError) as exc:
        raise StorageError(
            f"database {database.masked}: audit row {row.seq} cannot be read: {exc}"
        ) from exc


def forget_in_record(record: AuditRecord, forgetting: Forgetting) -> AuditRecord | None:
    """The record with the forgotten values replaced by their marker in every instruction
    block and every context message that is not the conversation's own history (those are
    the user's words, which stay); None when it holds none of them."""
    count = 0
    sources: list[str] = []
    instructions = dict(record.instructions)
    for source, text in instructions.items():
        instructions[source], n = mark_forgotten(text, [forgetting])
        if n:
            count += n
            sources.append(source)
    context: dict[str, tuple[Message, ...]] = {}
    for source, messages in record.context_messages.items():
        kept: list[Message] = []
        for message in messages:
            marked, n = _marked_message(message, forgetting)
            kept.append(marked)
            if n:
                count += n
                sources.append(source)
        context[source] = tuple(kept)
    if not count:
        return None
    note = {"marker": forgetting.marker, "count": count, "sources": list(dict.fromkeys(sources))}
    return dataclasses.replace(
        record,
        instructions=instructions,
        context_messages=context,
        removed=(*record.removed, note),
    )


def _marked_message(message: Message, forgetting: Forgetting) -> tuple[Message, int]:
    if message.kind == "history":
        return message, 0
    parts: list[Any] = []
    count = 0
    for part in message.parts:
        if isinstance(part, TextPart):
            text, n = mark_forgotten(part.text, [forgetting])
            count += n
            part = dataclasses.replace(part, text=text)
        parts.append(part)
    return dataclasses.replace(message, parts=tuple(parts)), count
