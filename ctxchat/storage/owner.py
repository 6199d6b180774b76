"""Whose a stored row is: the home it was written from and the user it belongs to.

A database may be shared by several homes (two users, or one user on two machines, each
with its own CTXCHAT_HOME or data dir). Every history, audit and index row therefore carries
an owner, so that search and recall read only this user's rows, in the query itself, and
deletion, prune and `--orphans` touch only rows this home wrote: a session file this home
does not hold says nothing about another home's rows.

The home's id is random, made once and kept in the home (`home-id`, 0600): a path or a host
name would change when a home is moved or copied, and would say more than is needed. The
user is keyed as user memory keys its facts: the configured `user`, else `CTXCHAT_USER`,
else the login name.
"""

from __future__ import annotations

import contextlib
import getpass
import os
import uuid
from dataclasses import dataclass
from pathlib import Path

from ctxchat.core.errors import StorageError

from .fsutil import FILE_MODE, ensure_private_dir

HOME_ID_FILE = "home-id"


@dataclass(frozen=True)
class Owner:
    home: str
    user: str


def user_key(configured: str | None) -> str:
    """The user rows and facts are keyed by: `configured`, else CTXCHAT_USER, else the login
    name (a container's bare uid gets `uid-N`)."""
    if configured:
        return configured
    from_env = os.environ.get("CTXCHAT_USER", "").strip()
    if from_env:
        return from_env
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no login name (a container's bare uid)
        return f"uid-{os.getuid()}"


def home_id(data_dir: Path) -> str:
    """This home's id, made on first use. Two processes making it at once agree: the file
    is created exclusively and the loser reads the winner's. A home that cannot keep one
    (read-only) is a StorageError: rows written without it would belong to no home."""
    path = data_dir / HOME_ID_FILE
    found = _read(path)
    if found:
        return found
    try:
        return _make(data_dir, path)
    except OSError as exc:
        raise StorageError(f"cannot keep this home's id in {path}: {exc.strerror or exc}") from exc


def _make(data_dir: Path, path: Path) -> str:
    ensure_private_dir(data_dir)
    made = uuid.uuid4().hex
    tmp = path.with_name(f".{HOME_ID_FILE}.tmp-{os.getpid()}-{os.urandom(4).hex()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(made + "\n")
        handle.flush()
        os.fsync(handle.fileno())
    try:
        os.link(tmp, path)  # fails if another process made it first: theirs is kept
    except FileExistsError:
        pass
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    return _read(path) or made


def _read(path: Path) -> str | None:
    try:
        text = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return text if text else None
