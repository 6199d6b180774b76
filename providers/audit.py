"""The audit trail: every turn as the model saw it, failed turns included, one row per turn.

The seed's audit pattern is a history that never loads and stores the context other
providers injected (`load_messages=false`, `store_context_messages=true`). Here it is what
that amounts to, a plain provider that records: per turn the input, each provider's
context messages, instruction blocks and tool names (by source id) in the order the model
read them, everything the model produced (tool calls and results included), the usage and,
for a failed turn, the error. It never loads anything into the model's context.

It records in the second stage of `after_run`, once the histories have stored the turn or
failed to (see `ctxchat.core.provider`), so a row says `ok` only for a turn a history kept; a
turn whose history failed is recorded with that failure.

Backend: the shared SQL database (`[storage] url`, or its own `url`), its own store (the
`ctxchat_audit` table, migrated by `_audit_schema`), rather than JSON Lines per session,
because:
- a row is written in one transaction, so a killed process leaves a turn recorded or not,
  never a torn line that every reader would have to learn to skip;
- two processes on one session append safely (the same locking as the history);
- `limit` (the last N turns) is an indexed query, not a read of the whole file;
- deleting a session is one DELETE, and pointing the storage at PostgreSQL moves the audit
  with the history, with nothing new to back up or configure.

Nothing secret is stored: rows hold what the turn held, never options or URLs, and an
error's text loses any credentials in its URLs and any secret ctxchat knows (the API key a
server echoed back, a database password a driver quoted) before it is written.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ctxchat.core.audit import AuditRecord
from ctxchat.core.context import RunContext
from ctxchat.core.errors import CtxchatError, StorageError
from ctxchat.core.messages import MessageFormatError
from ctxchat.core.options import option
from ctxchat.core.provider import AgentView, ContextProvider
from ctxchat.core.redact import scrub_secrets
from ctxchat.core.session import Session

from ._audit_schema import AUDIT
from ._ownership import OwnedRows, adopt_unowned, count_owned, owner_values
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
            "help": "SQLAlchemy database URL (omitted = [storage] url, else "
            "history.sqlite3 in the data dir)"
        },
    )
    store_context_from: list[str] | None = option(
        None, help="source ids whose context messages are recorded (omitted = all)"
    )
    user: str | None = option(
        None, help="whose rows these are (omitted = CTXCHAT_USER, else your login name)"
    )


class AuditProvider(SqlBacked[AuditOptions], OwnedRows, ContextProvider[AuditOptions]):
    """Records each turn, successful or failed, for `sessions show --audit`; each row owned
    by this home and user (see `_ownership`)."""

    stores = (AUDIT,)

    def database(self) -> Database:
        database = super().database()
        adopt_unowned(database, AUDIT.tables, "session_key", self)
        return database

    # -- recording ----------------------------------------------------------------------------
    async def after_run(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        record = self.record_of(context)
        await asyncio.to_thread(self._append, session.id, record)
        context.mark_kept(self.source_id)

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

    def describe(self) -> str:
        return f"{type(self).__name__} (records every turn), {mask_url(self.url)}"


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
