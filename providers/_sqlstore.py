"""The SQL machinery the SQL-backed providers share: one engine per database URL per process,
the schema (migrated on open), transactions, and errors reported as one line.

SQLAlchemy is imported on first use only: it costs about 0.2 s, which every command that
never touches a database (`ctxchat --version`, `--help`) must not pay.

Writers never race on sequence numbers. On SQLite a write transaction starts with
`BEGIN IMMEDIATE`, so writers queue on the database's write lock (WAL lets readers go on
meanwhile) and each reads the last sequence number with nobody able to add one behind it.
Elsewhere (PostgreSQL) two transactions may read the same last number; the primary key on
(key, seq) makes the second insert fail when the first commits, and the whole transaction
is retried, so a turn still lands whole and numbers stay dense.
"""

from __future__ import annotations

import contextlib
import os
import random
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ctxchat.errors import ConfigError, CtxchatError, StorageError
from ctxchat.fsutil import ensure_private_dir, touch_private
from ctxchat.provider import ContextProvider
from ctxchat.redact import mask_password, scrub_password

from ._sqlschema import SCHEMA_VERSION, Tables, migrate, schema_version

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection, Engine

T = TypeVar("T")

DEFAULT_DATABASE = "history.sqlite3"
BUSY_TIMEOUT_MS = 30_000
CONNECT_TIMEOUT_S = 10
WRITE_ATTEMPTS = 20


def mask_url(url: str) -> str:
    """The URL with its password and query values replaced by ***, parsable or not."""
    return mask_password(url)


def default_url(data_dir: Path) -> str:
    return f"sqlite:///{data_dir / DEFAULT_DATABASE}"


def resolve_url(url: str | None, data_dir: Path) -> str:
    """The URL to open: the default file, or `url` with a relative SQLite path placed in the
    data dir (relative to the working directory, each directory would get its own history),
    and a driverless PostgreSQL URL given the driver ctxchat installs."""
    if not url:
        return default_url(data_dir)
    if "://" not in url:
        raise ConfigError(
            f"url: {mask_url(url)!r} is not a database URL "
            "(expected e.g. sqlite:///path/history.sqlite3 or postgresql+psycopg://...)"
        )
    scheme, sep, rest = url.partition("://")
    if sep and scheme in ("postgres", "postgresql"):
        # SQLAlchemy's default PostgreSQL driver is psycopg2; ctxchat[postgres] brings psycopg 3.
        return f"postgresql+psycopg://{rest}"
    prefix, sep, path = url.partition(":///")
    if sep and prefix.split("+")[0] == "sqlite" and path and not path.startswith(":memory:"):
        expanded = Path(path.partition("?")[0]).expanduser()
        query = path.partition("?")[2]
        if not expanded.is_absolute():
            expanded = data_dir / expanded
        return f"{prefix}:///{expanded}" + (f"?{query}" if query else "")
    return url


class Database:
    """An engine with the current schema in place. Shared by every provider and session of
    the process that uses the same URL; it holds no session data."""

    def __init__(self, url: str, engine: Engine, tables: Tables) -> None:
        self.url = url
        self.masked = mask_url(url)
        self.engine = engine
        self.tables = tables
        self.is_sqlite = engine.dialect.name == "sqlite"

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

    def read(self, work: Callable[[Connection], T]) -> T:
        """Run `work` in one read transaction (a consistent snapshot)."""
        with self.errors(), self.engine.connect() as conn, conn.begin():
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


def storage_error(url: str, exc: BaseException) -> CtxchatError:
    """One line naming the (masked) URL: a `ConfigError` when the URL itself is wrong (no
    such dialect, no driver, not a URL) since no retry fixes it, else a `StorageError`."""
    problem = _config_problem(url, exc)
    if problem is not None:
        return ConfigError(f"database {mask_url(url)}: {problem}")
    return StorageError(f"database {mask_url(url)}: {_reason(url, exc)}")


def _config_problem(url: str, exc: BaseException) -> str | None:
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    if isinstance(exc, NoSuchModuleError):
        scheme = url.partition(":")[0]
        return f"unknown database type '{scheme}'"
    if isinstance(exc, ArgumentError):
        return "not a database URL (expected e.g. sqlite:///path or postgresql+psycopg://...)"
    if isinstance(exc, ModuleNotFoundError):
        return (
            f"its driver is not installed (No module named '{exc.name}'); for PostgreSQL "
            "install ctxchat[postgres]"
        )
    return None


def _reason(url: str, exc: BaseException) -> str:
    from sqlalchemy.exc import DBAPIError

    if isinstance(exc, OSError):
        where = f" ({exc.filename})" if exc.filename else ""
        return f"{exc.strerror or exc}{where}"
    detail = exc.orig if isinstance(exc, DBAPIError) and exc.orig is not None else exc
    lines = [line.strip() for line in str(detail).splitlines() if line.strip()]
    text = lines[0] if lines else type(detail).__name__
    return scrub_password(url, text)


# -- the process-wide engine cache ------------------------------------------------------------
_lock = threading.Lock()
_databases: dict[str, Database] = {}
_owner_pid = os.getpid()


def open_database(url: str) -> Database:
    """The database at `url`, opened once per process and migrated to the current schema."""
    global _owner_pid
    with _lock:
        if os.getpid() != _owner_pid:
            # A forked child must not share the parent's pooled connections.
            _databases.clear()
            _owner_pid = os.getpid()
        database = _databases.get(url)
        if database is None:
            database = _open(url)
            _databases[url] = database
        return database


def close_database(url: str) -> None:
    """Close the pooled connections to `url`, if it was opened (reopened on next use)."""
    with _lock:
        database = _databases.pop(url, None)
    if database is not None:
        database.engine.dispose()


def close_all() -> None:
    """Dispose every cached engine (tests and benchmarks that delete their databases)."""
    with _lock:
        for database in _databases.values():
            database.engine.dispose()
        _databases.clear()


def _open(url: str) -> Database:
    engine: Engine | None = None
    try:
        engine = _create_engine(url)
        tables = Tables.build()
        database = Database(url, engine, tables)
        _ensure_schema(database)
        return database
    except CtxchatError:
        if engine is not None:
            engine.dispose()
        raise
    except Exception as exc:
        if engine is not None:
            engine.dispose()
        raise storage_error(url, exc) from exc


def _create_engine(url: str) -> Engine:
    from sqlalchemy import create_engine, event
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        connect_args = {"connect_timeout": CONNECT_TIMEOUT_S} if _is_postgres(url) else {}
        # pre_ping: a server restarted since the last turn costs a reconnect, not a failure.
        return create_engine(url, pool_pre_ping=True, connect_args=connect_args)
    database = parsed.database or ""
    if not database or database.startswith(":memory:") or parsed.query.get("mode") == "memory":
        raise ConfigError(
            f"database {mask_url(url)}: an in-memory SQLite database forgets everything when "
            "ctxchat exits; give a file path (or use in_memory_history)"
        )
    path = Path(database)
    if path.parent.exists() and not path.parent.is_dir():
        raise ConfigError(f"database {mask_url(url)}: {path.parent} is not a directory")
    if path.is_file() and not os.access(path.parent, os.W_OK):
        engine = _read_only_engine(path)
    else:
        try:
            ensure_private_dir(path.parent)
            if not path.exists():
                touch_private(path)  # 0600 before SQLite creates it with the umask's mode
        except OSError as exc:
            where = exc.filename if exc.filename is not None else path
            raise ConfigError(
                f"database {mask_url(url)}: cannot write {where}: {exc.strerror or exc}"
            ) from exc
        engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})

    @event.listens_for(engine, "connect")
    def _configure(dbapi_connection: Any, _record: Any) -> None:
        # Autocommit at the driver level: transactions are begun explicitly below, so a
        # writer can say IMMEDIATE (pysqlite's own implicit BEGIN is always deferred).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        _enter_wal(cursor)
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        write = conn.get_execution_options().get("ctxchat_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


def _enter_wal(cursor: Any) -> None:
    """Switch the database to WAL (once set it stays). Switching needs the database to
    itself, and SQLite answers "database is locked" at once instead of waiting its busy
    timeout when another process is reading it: two processes opening a new database
    together meet that, so the switch is tried again until the timeout has passed."""
    import sqlite3

    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    pause = 0.005
    while True:
        try:
            cursor.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.2)


def _read_only_engine(path: Path) -> Engine:
    """The database in a directory ctxchat cannot write (a read-only home), for reading.

    A WAL database cannot even be read there: SQLite needs to create its -shm file beside
    it. Opened immutable, it is read as the file is, which is all `sessions show` needs;
    any write fails with SQLite's "attempt to write a readonly database".
    """
    import sqlite3
    from urllib.parse import quote

    from sqlalchemy import create_engine
    from sqlalchemy.pool import NullPool

    uri = f"file:{quote(str(path))}?mode=ro&immutable=1"

    def connect() -> sqlite3.Connection:
        return sqlite3.connect(uri, uri=True, check_same_thread=False)

    return create_engine("sqlite://", creator=connect, poolclass=NullPool)


def _is_postgres(url: str) -> bool:
    return url.partition(":")[0].split("+")[0] in ("postgresql", "postgres")


def _ensure_schema(database: Database) -> None:
    current = database.read(schema_version)
    if current == SCHEMA_VERSION:
        return
    if current is not None and current > SCHEMA_VERSION:
        raise _too_new(database, current)

    def upgrade(conn: Connection) -> None:
        if not database.is_sqlite:
            # Two processes opening a fresh PostgreSQL database at once: one migrates, the
            # other waits here and then finds nothing left to do.
            from sqlalchemy import text

            conn.execute(text("SELECT pg_advisory_xact_lock(7432811)"))
        found = schema_version(conn)
        if found is not None and found > SCHEMA_VERSION:
            raise _too_new(database, found)
        migrate(conn, found or 0)

    database.write(upgrade)


def _too_new(database: Database, version: int) -> StorageError:
    return StorageError(
        f"database {database.masked} has schema version {version}, newer than this ctxchat "
        f"understands (up to {SCHEMA_VERSION}); upgrade ctxchat to use it"
    )


class UrlOptions(Protocol):
    """Options of a SQL-backed provider: at least the database URL."""

    @property
    def url(self) -> str | None: ...


SqlOptionsT = TypeVar("SqlOptionsT", bound=UrlOptions)


class SqlBacked(ContextProvider[SqlOptionsT]):
    """For providers that keep their data in a SQL database: their own `url` option, else
    the pipeline's shared database ([storage] url), else the SQLite file in the data dir;
    resolved at config time, opened once per process, closed and checked here.

    Put it first among the bases (`class P(SqlBacked[O], HistoryProvider[O])`)."""

    url: str

    def setup(self) -> None:
        super().setup()
        self.url = resolve_url(self.options.url or self.env.storage_url, self.env.data_dir)

    def database(self) -> Database:
        return open_database(self.url)

    def close(self) -> None:
        close_database(self.url)

    def check(self) -> None:
        """Open the database (creating and migrating it if new), as the first turn would."""
        self.database()
