"""The audit trail: every turn as the model saw it, failed turns included, one row per turn.

A history provider that never loads (`load_messages` is fixed off) and always records the
context other providers injected (`store_context_messages` is fixed on); neither is an
option. Per turn it keeps the input, each provider's context messages, instruction blocks
and tool names (by source id), everything the model produced (tool calls and results
included), the usage and, for a failed turn, the error.

Backend: the SQL machinery `sql_history` uses, its own table (`ctxchat_audit`) in the same
database by default, rather than JSON Lines per session, because:
- a row is written in one transaction, so a killed process leaves a turn recorded or not,
  never a torn line that every reader would have to learn to skip;
- two processes on one session append safely (the same locking as the history);
- `limit` (the last N turns) is an indexed query, not a read of the whole file;
- deleting a session is one DELETE, and pointing `url` at PostgreSQL moves the audit with
  the history, with nothing new to back up or configure.

Nothing secret is stored: rows hold what the turn held, never options or URLs, and any
credentials in an error's URL are masked.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, ClassVar

from ctxchat.audit import AuditRecord
from ctxchat.context import RunContext
from ctxchat.errors import CtxchatError, StorageError
from ctxchat.ids import new_id
from ctxchat.messages import Message, MessageFormatError
from ctxchat.options import option
from ctxchat.provider import HistoryProvider
from ctxchat.redact import mask_urls_in
from ctxchat.session import Session

from ._sqlschema import as_json, utc
from ._sqlstore import Database, SqlBacked, mask_url

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection


@dataclass(frozen=True)
class AuditOptions:
    url: str | None = field(
        default=None,
        repr=False,  # it may carry a password
        metadata={
            "help": "SQLAlchemy database URL (omitted = the SQLite file sql_history uses "
            "by default, history.sqlite3 in the data dir)"
        },
    )
    store_context_from: list[str] | None = option(
        None, help="source ids whose context messages are recorded (omitted = all)"
    )


class AuditHistoryProvider(SqlBacked, HistoryProvider):
    """Records each turn, successful or failed, for `sessions show --audit`."""

    Options: ClassVar[type[Any]] = AuditOptions
    options: AuditOptions
    load_messages = False
    store_context_messages = True

    # -- recording ----------------------------------------------------------------------------
    async def after_run(
        self, *, agent: Any, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        record = self.record_of(context)
        await asyncio.to_thread(self._append, session.id, record)

    def record_of(self, context: RunContext) -> AuditRecord:
        """This turn as an audit record (the error's text when it failed)."""
        response = context.response
        wanted = self.store_context_from
        return AuditRecord(
            turn_id=new_id(),
            created_at=datetime.now(UTC),
            ok=context.error is None,
            error=_error_text(context.error) if context.error is not None else None,
            input_messages=context.input_messages,
            instructions=dict(context.instruction_blocks()),
            context_messages={
                source: tuple(messages)
                for source, messages in context.context_messages.items()
                if source != self.source_id and (wanted is None or source in wanted) and messages
            },
            tools={
                source: tuple(t.name for t in tools)
                for source, tools in context.tools.items()
                if tools
            },
            response_messages=response.messages if response is not None else (),
            usage=response.usage if response is not None else None,
        )

    async def save_messages(
        self, session_id: str, messages: Sequence[Message], *, state: dict[str, Any]
    ) -> None:
        """Record `messages` as one successful turn, placed by their attribution."""
        context: dict[str, list[Message]] = {}
        for m in messages:
            if m.kind in ("history", "context"):
                context.setdefault(m.source_id or "", []).append(m)
        record = AuditRecord(
            turn_id=new_id(),
            created_at=datetime.now(UTC),
            ok=True,
            error=None,
            input_messages=tuple(m for m in messages if m.kind in (None, "input")),
            context_messages={k: tuple(v) for k, v in context.items()},
            response_messages=tuple(m for m in messages if m.kind in ("response", "tool")),
        )
        await asyncio.to_thread(self._append, session_id, record)

    def _append(self, session_id: str, record: AuditRecord) -> None:
        database = self.database()
        table = database.tables.audit
        row = {
            "session_key": session_id,
            "turn_id": record.turn_id,
            "created_at": record.created_at,
            "ok": record.ok,
            "error": record.error,
            "input_tokens": record.usage.input_tokens if record.usage else None,
            "output_tokens": record.usage.output_tokens if record.usage else None,
            "record": as_json(record.to_dict()),
        }

        def write(conn: Connection) -> None:
            import sqlalchemy as sa

            last = conn.execute(
                sa.select(sa.func.max(table.c.seq)).where(table.c.session_key == session_id)
            ).scalar()
            conn.execute(table.insert().values(**row, seq=int(last or 0) + 1))

        database.write(write)

    # -- reading ------------------------------------------------------------------------------
    async def audit_records(
        self, session_id: str, *, state: dict[str, Any], limit: int | None = None
    ) -> list[AuditRecord]:
        """Recorded turns, oldest first (the last `limit` when given)."""
        return await asyncio.to_thread(self._records, session_id, limit)

    def _records(self, session_id: str, limit: int | None) -> list[AuditRecord]:
        database = self.database()
        table = database.tables.audit

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

    async def get_messages(self, session_id: str, *, state: dict[str, Any]) -> list[Message]:
        """Nothing: the audit never feeds the model."""
        return []

    async def all_messages(self, session_id: str, *, state: dict[str, Any]) -> list[Message]:
        """Every recorded message, turn by turn: context, input, then the response."""
        records = await self.audit_records(session_id, state=state)
        return [
            m
            for r in records
            for m in (
                *(m for ms in r.context_messages.values() for m in ms),
                *r.input_messages,
                *r.response_messages,
            )
        ]

    async def forget_session(self, session: Session, state: dict[str, Any]) -> None:
        await asyncio.to_thread(self._forget, session.id)

    def _forget(self, session_id: str) -> None:
        database = self.database()
        table = database.tables.audit
        database.write(
            lambda conn: conn.execute(table.delete().where(table.c.session_key == session_id))
        )

    def describe(self) -> str:
        return f"{type(self).__name__} (records every turn), {mask_url(self.url)}"


def _error_text(error: BaseException) -> str:
    text = str(error) if isinstance(error, CtxchatError) else f"{type(error).__name__}: {error}"
    return mask_urls_in(text)


def _record_from_row(database: Database, row: Any) -> AuditRecord:
    try:
        return AuditRecord.from_dict(json.loads(row.record), created_at=utc(row.created_at))
    except (ValueError, MessageFormatError) as exc:
        raise StorageError(
            f"database {database.masked}: audit row {row.seq} cannot be read: {exc}"
        ) from exc
