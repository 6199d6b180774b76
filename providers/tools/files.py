"""The file tools: read a text file, list a directory, both confined to configured roots.

A path the model gives is taken from the first root when relative, then resolved the way
the operating system would (`..` and every symbolic link followed) and refused unless the
result is still under one of the roots: `..` cannot climb out and a link cannot point out.
The file is then opened component by component from the root's directory descriptor,
each with `O_NOFOLLOW` (an `openat` walk), so a directory swapped for a link between the
check and the open is refused, not followed out of the root. Nothing here writes.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Any

from ctxchat import ConfigError, CtxchatError

MAX_ENTRIES = 500


class OutsideRoots(CtxchatError):
    """A path the file tools refuse: it is not under any configured root."""


def check_roots(roots: list[str]) -> list[Path]:
    """The configured roots as resolved directories; a missing one is a config error."""
    resolved: list[Path] = []
    for index, root in enumerate(roots):
        path = Path(root).expanduser()
        if not path.is_absolute():
            raise ConfigError(f"roots[{index}]: {root!r} must be an absolute path")
        if not path.is_dir():
            raise ConfigError(f"roots[{index}]: {root!r} is not a directory")
        resolved.append(Path(os.path.realpath(path)))
    return resolved


class FileTools:
    """`read_file` and `list_directory` over `roots` (resolved directories)."""

    def __init__(self, roots: list[Path], max_bytes: int) -> None:
        self.roots = roots
        self.max_bytes = max_bytes

    def _resolve(self, path: str) -> Path:
        if not self.roots:
            raise OutsideRoots("no directory is open to the file tools")
        if "\0" in path:
            raise OutsideRoots("a path cannot contain a NUL character")
        given = Path(path).expanduser()
        candidate = given if given.is_absolute() else self.roots[0] / given
        real = Path(os.path.realpath(candidate))
        for root in self.roots:
            if real == root or root in real.parents:
                return real
        shown = ", ".join(str(r) for r in self.roots)
        raise OutsideRoots(f"{path!r} is outside the directories open to the file tools ({shown})")

    def _open(self, path: str, real: Path, flags: int) -> int:
        """`real` opened beneath its root: each component from the directory before it,
        starting at the root's own descriptor, none through a symbolic link. A directory
        swapped for a link after `_resolve` checked the path is refused, not followed."""
        root = next(r for r in self.roots if real == r or r in real.parents)
        parts = real.relative_to(root).parts
        nofollow = os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
        try:
            fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | nofollow)
            for index, part in enumerate(parts):
                last = index == len(parts) - 1
                wanted = flags if last else os.O_RDONLY | os.O_DIRECTORY
                try:
                    following = os.open(part, wanted | nofollow, dir_fd=fd)
                finally:
                    os.close(fd)
                fd = following
        except FileNotFoundError:
            raise FileNotFoundError(f"no such file: {path}") from None
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                raise OutsideRoots(f"{path} changed while it was being opened") from None
            raise OSError(f"cannot open {path}: {exc.strerror}") from None
        return fd

    def read_file(self, path: str) -> str:
        """Read a text file (UTF-8) from the directories the user opened to the tools.

        Args:
            path: the file's path, absolute or relative to the first open directory
        """
        real = self._resolve(path)
        fd = self._open(path, real, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            if stat.S_ISDIR(info.st_mode):
                raise IsADirectoryError(f"{path} is a directory: use list_directory")
            if not stat.S_ISREG(info.st_mode):
                raise OutsideRoots(f"{path} is not a regular file")
            data = handle.read(self.max_bytes + 1)
        if b"\0" in data[:8192]:
            raise ValueError(f"{path} is not a text file")
        text = data[: self.max_bytes].decode("utf-8", errors="replace")
        if len(data) > self.max_bytes:
            text += f"\n[cut: only the first {self.max_bytes} bytes of {info.st_size} are shown]"
        return text

    def list_directory(self, path: str = ".") -> dict[str, Any]:
        """List a directory among those the user opened to the tools: each entry's name,
        kind (file, directory, link, other) and size in bytes.

        Args:
            path: the directory, absolute or relative to the first open directory
        """
        real = self._resolve(path)
        try:
            fd = self._open(path, real, os.O_RDONLY | os.O_DIRECTORY)
        except OutsideRoots:
            if not real.is_dir():  # not a link swapped in: a file where a directory is
                raise NotADirectoryError(f"{path} is not a directory") from None
            raise
        entries: list[dict[str, Any]] = []
        try:
            with os.scandir(fd) as found:
                for entry in sorted(found, key=lambda e: e.name):
                    if len(entries) == MAX_ENTRIES:
                        break
                    info = entry.stat(follow_symlinks=False)
                    entries.append(
                        {"name": entry.name, "kind": _kind(info.st_mode), "size": info.st_size}
                    )
        finally:
            os.close(fd)
        listing: dict[str, Any] = {"directory": str(real), "entries": entries}
        if len(entries) == MAX_ENTRIES:
            listing["cut"] = f"only the first {MAX_ENTRIES} entries are shown"
        return listing


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "link"
    if stat.S_ISDIR(mode):
        return "directory"
    if stat.S_ISREG(mode):
        return "file"
    return "other"
