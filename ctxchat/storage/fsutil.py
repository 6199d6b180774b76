"""Files written whole or not at all, readable by their owner only."""

from __future__ import annotations

import contextlib
import errno
import os
from pathlib import Path

DIR_MODE = 0o700
FILE_MODE = 0o600


def ensure_private_dir(path: Path) -> Path:
    """Create `path` as 0700 if missing, and every missing parent too; dirs that already
    exist keep their mode.

    Each level is created on its own: `mkdir(parents=True)` would give the parents the
    umask's mode (typically 0755), leaving e.g. `~/.local/share/ctxchat` open to all when
    `sessions/` is created inside it first. (0700 for new XDG base dirs is what the XDG
    spec asks for too.)
    """
    if path.is_dir():
        return path
    missing: list[Path] = []
    level = path
    while not level.exists():  # a file in the way stops here, and mkdir below says so
        missing.append(level)
        if level.parent == level:
            break
        level = level.parent
    if not missing:
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(path))
    for level in reversed(missing):
        try:
            level.mkdir(mode=DIR_MODE)
        except FileExistsError:
            if not level.is_dir():
                raise
            continue  # another process created it meanwhile: its mode is its own
        # mkdir's mode is filtered by the umask; set it explicitly.
        os.chmod(level, DIR_MODE)
    return path


def _fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write to a temp file beside `path`, fsync, rename over it, fsync the directory."""
    ensure_private_dir(path.parent)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}-{os.urandom(4).hex()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_dir(path.parent)


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def touch_private(path: Path) -> None:
    """Create an empty 0600 file if it does not exist yet."""
    ensure_private_dir(path.parent)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, FILE_MODE)
    os.close(fd)
