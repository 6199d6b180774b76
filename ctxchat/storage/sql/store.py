"""The SQL machinery the SQL-backed providers share: one engine per database URL per owner
(`ProviderEnv.databases`, see `ctxchat.core.handles`), each provider's store migrated on
first use, transactions, the numbered insert, and errors
reported as one line.

Writers never race on sequence numbers. On SQLite a write transaction starts with
`BEGIN IMMEDIATE`, so writers queue on the database's write lock (WAL lets readers go on
meanwhile) and each reads the last sequence number with nobody able to add one behind it.
Elsewhere (PostgreSQL) two transactions may read the same last number; the primary key on
(key, seq) makes the second insert fail when the first commits, and the whole transaction
is retried, so a turn still lands whole and numbers stay dense.
"""

from __future__ import annotations

import contextlib
import functools
import random
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

from ctxchat.core.errors import CtxchatError, StorageError
from ctxchat.core.handles import Handles
from ctxchat.core.progress import ProgressBars, no_bars
from ctxchat.core.provider import ContextProvider
from ctxchat.core.redact import mask_password

from .engine import create_engine, inspection_engine, resolve_url, storage_error
from .schema import SchemaTooNew, Store, create_version_table, migrate, migrating, read_versions

if TYPE_CHECKING:
    from sqlalchemy import Table
    from sqlalchemy.engine import Connection, Engine

__all__ = ["PROCESS_DATABASES", "Database", "SqlBacked", "close_all", "open_database"]

T = TypeVar("T")

WRITE_ATTEMPTS = 20


class Database:
    """An engine and the stores migrated in it so far. Shared by every provider and session
    of its owner (`ProviderEnv.databases`) that uses the same URL; it holds no session
    data."""

    def __init__(self, url: str, engine: Engine, *, read_only: bool = False) -> None:
        self.url = url
        self.masked = mask_password(url)
        self.engine = engine
        self.is_sqlite = engine.dialect.name == "sqlite"
        self.read_only = read_only
        self._ready: set[str] = set()  # stores found or brought up to date by this process
        self._ready_lock = threading.Lock()
        # (table, home) whose unowned rows were adopted through this engine (`ownership`).
        self._adopted: set[tuple[str, str]] = set()
        self._adopted_lock = threading.Lock()

    def close(self) -> None:
        """Close the pooled connections (a later use opens new ones)."""
        self.engine.dispose()

    def first_adoption(self, table: str, home: str) -> bool:
        """True the first time it is asked for `table` and `home`, False after: adoption
        is done once per engine (see `ownership.adopt_unowned`)."""
        with self._adopted_lock:
            if (table, home) in self._adopted:
                return False
            self._adopted.add((table, home))
            return True

    @contextlib.contextmanager
    def errors(self) -> Iterator[None]:
        """Turn any database failure into one line naming the (masked) URL: see
        `storage_error`."""
        try:
            yield
        except CtxchatError:
            raise
        except Exception as exc:
            raise storage_error(self.url, exc) from exc

    def read(self, work: Callable[[Connection], T], *, snapshot: bool = True) -> T:
        """Run `work` in one read transaction (a consistent snapshot). Without `snapshot`,
        on a server each statement on its own: PostgreSQL at its default isolation (read
        committed) gives each statement of a transaction its own snapshot anyway, so a read
        is the same without the BEGIN and COMMIT, two round trips to the server fewer."""
        with self.errors(), self.engine.connect() as conn:
            if not snapshot and not self.is_sqlite:
                return work(conn.execution_options(isolation_level="AUTOCOMMIT"))
            with conn.begin():
                return work(conn)

    def write(self, work: Callable[[Connection], T]) -> T:
        """Run `work` in one write transaction: all of it is stored or none of it.

        Retried from the start when another writer took the same sequence number first.
        """
        from sqlalchemy.exc import IntegrityError

        with self.errors():
            for attempt in range(1, WRITE_ATTEMPTS + 1):
                try:
                    with self.engine.connect() as conn:
                        conn.execution_options(ctxchat_write=True)
                        with conn.begin():
                            return work(conn)
                except IntegrityError:
                    # SQLite writers never collide (BEGIN IMMEDIATE): there it is a real error.
                    if self.is_sqlite or attempt == WRITE_ATTEMPTS:
                        raise
                    time.sleep(random.uniform(0.001, 0.005 * attempt))
        raise AssertionError("unreachable")  # pragma: no cover

    def append(
        self,
        table: Table,
        key_column: str,
        key: str,
        rows: Sequence[Mapping[str, Any]],
        *,
        also: Callable[[Connection], object] | None = None,
    ) -> None:
        """Store `rows` under `key` after the key's last row, their `seq` numbered on from
        the highest one, in one write transaction: the turn of a history, a turn's audit row.
        `also` writes more in the same transaction (a history's usage ledger row).

        The highest number is read in the same transaction as the insert, which is what makes
        the numbering safe (see the module's docstring on write races)."""
        import sqlalchemy as sa

        column = table.c[key_column]

        def insert(conn: Connection) -> None:
            last = conn.execute(sa.select(sa.func.max(table.c.seq)).where(column == key)).scalar()
            first = int(last or 0) + 1
            numbered = [{**row, key_column: key, "seq": first + i} for i, row in enumerate(rows)]
            conn.execute(table.insert(), numbered)
            if also is not None:
                also(conn)

        if rows:
            self.write(insert)

    def ensure(self, stores: Iterable[Store[Any]], progress: ProgressBars = no_bars) -> None:
        """Bring `stores` up to date, once per process each: every store upgraded in its own
        transaction, under the migration lock (see `schema`). A store newer than this
        ctxchat is refused with one line, every time it is asked for.

        A database without `ctxchat_migrations` (new, or written by 0.1) gets it first, in a
        transaction of its own; except a read-only one whose stores are all current, which is
        read as it is rather than refused for want of a table it does not need. A read-only
        one is read as it is, too, when its stores are behind by steps reading does not need
        (`Store.readable_from`): only what needs those (a search) fails, with one line.
        A long step shows its progress on `progress`."""
        with self._ready_lock:
            pending = [store for store in stores if store.name not in self._ready]
            if not pending:
                return
            try:
                recorded, versions = self.read(read_versions)
                behind = []
                for store in pending:
                    found = versions.get(store.name, 0)
                    if found > store.version:
                        raise SchemaTooNew.of(store, found)
                    # A read-only file cannot be upgraded: read as it is if it can be.
                    if found < store.version and not (
                        self.read_only and found >= store.readable_from
                    ):
                        behind.append(store)
                if not recorded and (behind or not self.read_only):
                    self.write(create_version_table)
                with migrating(progress):
                    for store in behind:
                        self.write(functools.partial(migrate, store=store))
            except SchemaTooNew as exc:
                raise StorageError(f"database {self.masked} has {exc}") from exc
            self._ready.update(store.name for store in pending)


def inspect_database(url: str, stores: Iterable[Store[Any]]) -> None:
    """Raise what opening `url` for `stores` would raise (unreachable, no driver, a store
    newer than this ctxchat), reading only: `config validate` must not create a database
    or upgrade one behind the user's back."""
    try:
        engine = inspection_engine(url)
    except CtxchatError:
        raise
    except Exception as exc:
        raise storage_error(url, exc) from exc
    if engine is None:
        return  # a SQLite file to be created on first use, in a directory that allows it
    try:
        with engine.connect() as conn, conn.begin():
            recorded = read_versions(conn)
    except SchemaTooNew as exc:
        raise StorageError(f"database {mask_password(url)} has {exc}") from exc
    except Exception as exc:
        raise storage_error(url, exc) from exc
    finally:
        engine.dispose()
    for store in stores:
        found = recorded.of.get(store.name, 0)
        if found > store.version:
            raise StorageError(f"database {mask_password(url)} has {SchemaTooNew.of(store, found)}")


# -- which engines are open -------------------------------------------------------------------
# The databases of the providers no owner built (a script, a test, a bench: their env says
# `databases=None`), which nobody closes but `close_all`. A pipeline the engine builds brings
# a registry of its own (`services.build.build_env`) and closes it with its providers.
PROCESS_DATABASES: Handles[Database] = Handles()


def open_database(
    url: str,
    stores: Iterable[Store[Any]] = (),
    progress: ProgressBars = no_bars,
    databases: Handles[Database] | None = None,
) -> Database:
    """The database at `url`, opened once in `databases` (the process's when None), with
    `stores` migrated (a long step showing its progress on `progress`)."""
    registry = PROCESS_DATABASES if databases is None else databases
    database = registry.get(url, _new_database)
    database.ensure(stores, progress)
    return database


def _new_database(url: str) -> Database:
    try:
        engine, read_only = create_engine(url)
    except CtxchatError:
        raise
    except Exception as exc:
        raise storage_error(url, exc) from exc
    return Database(url, engine, read_only=read_only)


def close_all() -> None:
    """Close the engines of the process's registry (tests and benchmarks that delete their
    databases)."""
    PROCESS_DATABASES.close_all()


class UrlOptions(Protocol):
    """Options of a SQL-backed provider: at least the database URL."""

    @property
    def url(self) -> str | None: ...


SqlOptionsT = TypeVar("SqlOptionsT", bound=UrlOptions)


class SqlBacked(ContextProvider[SqlOptionsT]):
    """For providers that keep their data in a SQL database: their own `url` option, else
    the pipeline's shared database ([storage] url), else the SQLite file in the data dir;
    resolved at config time, opened once per process, closed and checked here.

    A subclass names the stores it uses in `stores`; opening its database migrates those
    and no others. Put it first among the bases (`class P(SqlBacked[O], HistoryProvider[O])`).
    """

    stores: ClassVar[tuple[Store[Any], ...]] = ()
    url: str

    @property
    def stores_outside_session(self) -> bool:
        return True

    def setup(self) -> None:
        super().setup()
        self.url = resolve_url(self.options.url or self.env.storage_url, self.env.data_dir)

    def database(self) -> Database:
        return open_database(self.url, self.stores, self.env.progress, self._databases())

    def database_url(self) -> str:
        """The database this provider uses, resolved (unmasked: mask it to show it)."""
        return self.url

    def close(self) -> None:
        self._databases().close(self.url)

    def _databases(self) -> Handles[Database]:
        registry: Handles[Database] | None = self.env.databases
        return PROCESS_DATABASES if registry is None else registry

    def check(self) -> None:
        """Reach the database as the first turn would, without writing anything: a new
        SQLite file is not created, no table is migrated (see `inspect_database`)."""
        inspect_database(self.url, self.stores)
