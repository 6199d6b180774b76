"""From a database URL to an engine: where the URL points, how SQLite is set up (a private
file, WAL, BEGIN IMMEDIATE for writers, a read-only home read as it is), and failures
reported as one line without the password.

SQLAlchemy is imported on first use only: it costs about 0.2 s, which every command that
never touches a database (`ctxchat --version`, `--help`) must not pay.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from ctxchat.core.errors import ConfigError, CtxchatError, StorageError
from ctxchat.core.redact import (
    has_unencoded_at,
    mask_password,
    remember_secret,
    scrub_password,
    scrub_secrets,
    url_password,
)
from ctxchat.storage.fsutil import ensure_private_dir, touch_private

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection, Engine

DEFAULT_DATABASE = "history.sqlite3"
BUSY_TIMEOUT_MS = 30_000
CONNECT_TIMEOUT_S = 10


def default_url(data_dir: Path) -> str:
    return f"sqlite:///{data_dir / DEFAULT_DATABASE}"


def resolve_url(url: str | None, data_dir: Path) -> str:
    """The URL to open: the default file, or `url` with a relative SQLite path placed in the
    data dir (relative to the working directory, each directory would get its own history),
    and a driverless PostgreSQL URL given the driver ctxchat installs.

    Its password is remembered as a secret (see `ctxchat.core.redact`), so no error text
    shows it; one holding an unencoded "@" is refused, since SQLAlchemy would send the rest
    of it to the network as the host name."""
    if not url:
        return default_url(data_dir)
    if "://" not in url:
        raise ConfigError(
            f"url: {mask_password(url)!r} is not a database URL "
            "(expected e.g. sqlite:///path/history.sqlite3 or postgresql+psycopg://...)"
        )
    remember_secret(url_password(url))
    if has_unencoded_at(url):
        raise ConfigError(
            f"url: {mask_password(url)!r}: the user name or password holds an '@'; write it "
            "as %40 in the URL"
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


# -- errors ------------------------------------------------------------------------------------
def storage_error(url: str, exc: BaseException) -> CtxchatError:
    """One line naming the (masked) URL: a `ConfigError` when the URL itself is wrong (no
    such dialect, no driver, not a URL) since no retry fixes it, else a `StorageError`."""
    problem = _config_problem(url, exc)
    if problem is not None:
        return ConfigError(f"database {mask_password(url)}: {problem}")
    return StorageError(f"database {mask_password(url)}: {_reason(url, exc)}")


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
    return scrub_secrets(scrub_password(url, text))


# -- engines -----------------------------------------------------------------------------------
class OpenedEngine(NamedTuple):
    engine: Engine
    read_only: bool  # a SQLite file in a directory ctxchat cannot write: reads only


def create_engine(url: str) -> OpenedEngine:
    from sqlalchemy import create_engine, event
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        connect_args = {"connect_timeout": CONNECT_TIMEOUT_S} if _is_postgres(url) else {}
        # pre_ping: a server restarted since the last turn costs a reconnect, not a failure.
        engine = create_engine(url, pool_pre_ping=True, connect_args=connect_args)
        return OpenedEngine(engine, read_only=False)
    database = parsed.database or ""
    if not database or database.startswith(":memory:") or parsed.query.get("mode") == "memory":
        raise ConfigError(
            f"database {mask_password(url)}: an in-memory SQLite database forgets everything when "
            "ctxchat exits; give a file path (or use in_memory_history)"
        )
    path = Path(database)
    if path.parent.exists() and not path.parent.is_dir():
        raise ConfigError(f"database {mask_password(url)}: {path.parent} is not a directory")
    read_only = path.is_file() and not os.access(path.parent, os.W_OK)
    if read_only:
        engine = _read_only_engine(path)
    else:
        try:
            ensure_private_dir(path.parent)
            if not path.exists():
                touch_private(path)  # 0600 before SQLite creates it with the umask's mode
        except OSError as exc:
            where = exc.filename if exc.filename is not None else path
            raise ConfigError(
                f"database {mask_password(url)}: cannot write {where}: {exc.strerror or exc}"
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

    return OpenedEngine(engine, read_only)


def inspection_engine(url: str) -> Engine | None:
    """An engine that reads `url` and can write nothing, for `config validate`; None for a
    SQLite file that does not exist yet, once it is clear it could be created (its nearest
    existing directory is writable). Unlike `create_engine`, nothing is created."""
    from sqlalchemy import create_engine
    from sqlalchemy.engine import make_url
    from sqlalchemy.pool import NullPool

    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        connect_args = {"connect_timeout": CONNECT_TIMEOUT_S} if _is_postgres(url) else {}
        return create_engine(url, poolclass=NullPool, connect_args=connect_args)
    path = Path(parsed.database or "")
    if path.is_file():
        return _read_only_engine(path)
    if path.exists():
        raise ConfigError(f"database {mask_password(url)}: {path} is not a file")
    existing = path.parent
    while not existing.exists() and existing.parent != existing:
        existing = existing.parent
    if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
        raise ConfigError(
            f"database {mask_password(url)}: cannot write {path}: "
            f"{existing} is not a writable directory"
        )
    return None


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
