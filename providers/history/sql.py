"""History in a SQL database through SQLAlchemy Core: SQLite by default, PostgreSQL by URL.

Rows are keyed by a history key (`state["history_key"]`, the session id unless pointed
elsewhere, so sessions can share one history) and a per-key sequence number. A turn is one
transaction (`history.writing`). Loading reads the newest rows by the (key, seq) primary
key, so it costs the window, not the history (`history.window`). (Token counts are taken
when a message is stored, by the tokenizer available then: see `ctxchat.core.tokens`.)

The table and its migrations are the history store (`history.schema`); the database is
`url`, else `[storage] url`, else history.sqlite3 in the data dir.

Deleting a session deletes the rows of its own history key only: a session pointed at
another's history never takes that history with it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ctxchat import HistoryProvider, Message, Session, StorageError, option
from ctxchat.kit import (
    Database,
    OwnedRows,
    SqlBacked,
    WindowedHistoryOptions,
    adopt_unowned,
    count_owned,
    new_id,
    select_window,
)

from . import writing
from .attachments_schema import ATTACHMENTS
from .rows import Row, read_rows, select_rows
from .schema import HISTORY
from .usage import turn_tokens, usage_groups
from .usage_schema import USAGE
from .window import messages_between, newest_rows
from .writing import message_row as message_row  # where benches and tests build rows

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from ctxchat import AgentView, RunContext
    from ctxchat.kit import Grouping, HitFilter, ImportedTurn, MessageHit, UsageGroup

    from .hybrid import QueryVector


@dataclass(frozen=True)
class SqlHistoryOptions(WindowedHistoryOptions):
    url: str | None = option(
        None,
        secret=True,  # it may carry a password
        help="SQLAlchemy database URL, e.g. postgresql+psycopg://user:pw@host/db "
        "(omitted = [storage] url, else history.sqlite3 in the data dir; a relative "
        "SQLite path is taken from the data dir)",
    )
    user: str | None = option(
        None,
        help="whose rows these are, searched and recalled apart from other users sharing "
        "the database (omitted = CTXCHAT_USER, else your login name, as user_memory)",
    )


class SqlHistoryProvider(
    SqlBacked[SqlHistoryOptions], OwnedRows, HistoryProvider[SqlHistoryOptions]
):
    """The conversation as rows of `ctxchat_history`, one transaction per turn, each row
    owned by this home and user (see `ctxchat.storage.sql.ownership`); with each turn, in
    the same transaction, its row of the usage ledger (`history.usage`) and its
    attachments, stored once per owner (`history.attachments`)."""

    stores = (HISTORY, USAGE, ATTACHMENTS)

    def database(self) -> Database:
        database = super().database()
        adopt_unowned(database, HISTORY.tables, "history_key", self)
        adopt_unowned(database, USAGE.tables, "history_key", self)
        return database

    @staticmethod
    def history_key(session_id: str, state: dict[str, Any]) -> str:
        """The key of the session's rows: its id unless the state points elsewhere."""
        key = state.get("history_key", session_id)
        if not isinstance(key, str) or not key:
            raise StorageError(f"history_key in the session state is not a string: {key!r}")
        return key

    # -- reading ------------------------------------------------------------------------------
    async def get_messages(self, session_id: str, *, state: dict[str, Any]) -> list[Message]:
        key = self.history_key(session_id, state)
        return await asyncio.to_thread(self._window, key)

    def _window(self, key: str) -> list[Message]:
        database = self.database()
        limit, budget = self.options.message_limit, self.options.token_limit
        rows = database.read(lambda conn: newest_rows(database, conn, key, limit, budget))
        chosen = select_window(
            rows,
            message_of=lambda r: r.message,
            tokens_of=lambda r: r.tokens,
            max_messages=limit,
            max_tokens=budget,
        )
        return [r.message for r in chosen]

    async def all_messages(self, session_id: str, *, state: dict[str, Any]) -> list[Message]:
        key = self.history_key(session_id, state)
        return await asyncio.to_thread(self._all, key)

    def _all(self, key: str) -> list[Message]:
        database = self.database()
        table = HISTORY.tables

        def read(conn: Connection) -> list[Row]:
            query = select_rows().where(table.c.history_key == key).order_by(table.c.seq)
            return read_rows(database, conn, conn.execute(query))

        return [r.message for r in database.read(read)]

    async def messages_before(
        self,
        session_id: str,
        *,
        state: dict[str, Any],
        first_kept: str | None,
        after: str | None,
    ) -> list[Message] | None:
        key = self.history_key(session_id, state)
        return await asyncio.to_thread(self._before, key, first_kept, after)

    def _before(self, key: str, first_kept: str | None, after: str | None) -> list[Message] | None:
        database = self.database()
        return database.read(lambda conn: messages_between(database, conn, key, first_kept, after))

    # -- writing ------------------------------------------------------------------------------
    async def after_run(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        """The turn's rows and its ledger row, in one transaction (see `HistoryProvider`)."""
        if context.error is not None:
            return
        messages = self.messages_to_store(context)
        if not messages:
            return
        key = self.history_key(session.id, state)
        response = context.response
        usage = {
            "model": context.model.name if context.model is not None else session.model,
            "role": session.role,
            "tokens": turn_tokens(response.messages if response is not None else ()),
        }
        await asyncio.to_thread(self._append, key, messages, context.turn_id, None, usage)
        state["history_key"] = key

    async def store_turn(
        self, session_id: str, messages: Sequence[Message], *, state: dict[str, Any], turn_id: str
    ) -> None:
        if not messages:
            return
        key = self.history_key(session_id, state)
        await asyncio.to_thread(self._append, key, list(messages), turn_id)
        state["history_key"] = key  # where this session's rows are, said in its file

    async def discard_turn(self, session_id: str, turn_id: str, *, state: dict[str, Any]) -> bool:
        key = self.history_key(session_id, state)
        await asyncio.to_thread(self._discard, key, turn_id)
        return True

    def _discard(self, key: str, turn_id: str) -> None:
        writing.discard_turn(self.database(), key, turn_id)

    async def import_turn(
        self, session_id: str, messages: Sequence[Message], *, state: dict[str, Any], at: datetime
    ) -> None:
        """Store a turn said at `at` (a conversation imported, as `recall eval` does),
        through the same rows and index as a turn of a chat."""
        key = self.history_key(session_id, state)
        await asyncio.to_thread(self._append, key, list(messages), new_id(), at)
        state["history_key"] = key

    async def import_conversation(
        self, session_id: str, turns: Sequence[ImportedTurn], *, state: dict[str, Any]
    ) -> None:
        """Store a whole imported conversation, each turn at its own time, in one
        transaction (see `history.importing`); no ledger rows: it was not this chat's."""
        from .importing import store_conversation

        key = self.history_key(session_id, state)
        await asyncio.to_thread(store_conversation, self.database(), key, turns, self.owner)
        state["history_key"] = key

    def _append(
        self,
        key: str,
        messages: list[Message],
        turn_id: str,
        at: datetime | None = None,
        usage: dict[str, Any] | None = None,
    ) -> None:
        if messages:
            now = datetime.now(UTC) if at is None else at
            writing.append_turn(self.database(), self.owner, key, messages, turn_id, now, usage)

    async def remove_last_turn(self, session_id: str, *, state: dict[str, Any]) -> list[Message]:
        key = self.history_key(session_id, state)
        return await asyncio.to_thread(self._remove_last_turn, key)

    def _remove_last_turn(self, key: str) -> list[Message]:
        return writing.remove_last_turn(self.database(), key)

    async def forget_session(self, session: Session, state: dict[str, Any]) -> None:
        # Only the history named after this session: one pointed elsewhere may be shared.
        if state.get("history_key", session.id) != session.id:
            return
        await asyncio.to_thread(self._forget, session.id)

    def _forget(self, key: str) -> None:
        self._forget_keys([key])

    async def fork_session(
        self, source: Session, fork: Session, state: dict[str, Any], *, turns: int
    ) -> None:
        """The source's rows of its first `turns` turns, copied under the fork's id."""
        key = self.history_key(source.id, state)
        every = turns >= source.turns  # a count the history may not match: take all
        await asyncio.to_thread(self._copy, key, fork.id, None if every else turns)
        state["history_key"] = fork.id

    def _copy(self, key: str, new_key: str, turns: int | None) -> None:
        writing.copy_history(self.database(), self.owner, key, new_key, turns)

    def session_keys(self, session: Session, state: dict[str, Any]) -> set[str]:
        key = state.get("history_key", session.id)
        return {key} if isinstance(key, str) and key else {session.id}

    async def stored_keys(self) -> dict[str, int]:
        return await asyncio.to_thread(
            count_owned, self.database(), HISTORY.tables, "history_key", self.owner.home
        )

    async def forget_keys(self, keys: Collection[str]) -> None:
        await asyncio.to_thread(self._forget_keys, list(keys))

    def _forget_keys(self, keys: list[str]) -> None:
        if keys:
            writing.forget_keys(self.database(), self.owner.home, keys)

    # -- the usage ledger ---------------------------------------------------------------------
    async def usage_groups(
        self,
        by: Grouping,
        *,
        since: datetime | None = None,
        keys: Collection[str] | None = None,
    ) -> list[UsageGroup]:
        """This user's ledger summed (see `ctxchat.core.usage`)."""
        database = self.database()
        user = self.owner.user
        return await asyncio.to_thread(usage_groups, database, user, by, since, keys)

    # -- search -------------------------------------------------------------------------------
    async def search_messages(
        self,
        terms: Sequence[str],
        *,
        limit: int,
        keys: Collection[str] | None = None,
        exclude: HitFilter | None = None,
        warn: Callable[[str], None] | None = None,
    ) -> list[MessageHit]:
        """This user's best stored messages for the terms (see `ctxchat.core.search`), by
        words and meaning when `[embeddings]` is set; by words alone, with one `warn`,
        when the endpoint fails."""
        from .search import plan_query, search, search_by_words

        database = self.database()
        if self.env.message_embeddings is None:
            # In the caller's thread: see `search_by_words`.
            return search_by_words(database, terms, limit, keys, self.owner, exclude)
        planned = await asyncio.to_thread(plan_query, database, terms, keys, self.owner)
        if planned is None:
            return []
        meaning = await self._query_vector(planned.words, warn)
        return await asyncio.to_thread(
            search, database, planned, limit, keys, self.owner, exclude, meaning
        )

    async def _query_vector(
        self, terms: Sequence[str], warn: Callable[[str], None] | None
    ) -> QueryVector | None:
        embeddings = self.env.message_embeddings
        if embeddings is None or not terms:
            return None
        from ctxchat.kit import embed_texts

        from .hybrid import QueryVector

        try:
            matrix = await embed_texts(embeddings.embed, [" ".join(terms)])
        except Exception as exc:  # any failure of the endpoint: words still find things
            if warn is not None:
                warn(f"search by words only: {exc}")
            return None
        return QueryVector(matrix[0], embeddings.identity)

    # -- vectors ------------------------------------------------------------------------------
    async def count_unembedded(self, keys: Collection[str] | None = None) -> int:
        """This home's rows of the user without a vector of the configured model (0 when
        no `[embeddings]` is set)."""
        embeddings = self.env.message_embeddings
        if embeddings is None:
            return 0
        from .vectors import count_pending

        return await asyncio.to_thread(
            count_pending, self.database(), self.owner, embeddings.identity, keys
        )

    async def embed_unembedded(
        self,
        keys: Collection[str] | None = None,
        *,
        progress: Callable[[int, int], None] | None = None,
    ) -> int:
        """Embed those rows (under `keys` only when given), a batch at a time, each batch
        stored in its own transaction; returns how many were embedded."""
        embeddings = self.env.message_embeddings
        if embeddings is None:
            return 0
        from ctxchat.kit import DEFAULT_BATCH, embed_texts

        from .vectors import count_pending, pending, store

        database, model = self.database(), embeddings.identity
        total = await asyncio.to_thread(count_pending, database, self.owner, model, keys)
        done = 0
        # Bounded: a row rewritten meanwhile is read again, never forever.
        for _ in range(total // DEFAULT_BATCH + 2):
            rows = await asyncio.to_thread(
                pending, database, self.owner, model, keys, limit=DEFAULT_BATCH
            )
            if not rows:
                break
            matrix = await embed_texts(embeddings.embed, [r.text for r in rows])
            await asyncio.to_thread(store, database, rows, matrix, model, self.owner.user)
            done += len(rows)
            if progress is not None:
                progress(min(done, total), total)
        return done
