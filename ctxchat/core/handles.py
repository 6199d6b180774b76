"""Handles opened once per key and shared by whatever their owner builds: the engines of a
chat's SQL databases, one per URL, which every provider of the chat using that URL shares.

The owner (a chat's pipeline, a command, a test) creates the registry, lends it to what it
builds (`ProviderEnv.databases`) and closes what it opened: two chats in one process each
close their own databases, never the other's, as one process-wide cache could not tell.

Fork safety lives here too: a child forked after the registry opened something inherits
handles whose pooled connections are the parent's. The child forgets them, unclosed (closing
would shut sockets the parent still uses), and opens its own.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Generic, Protocol, TypeVar


class Closable(Protocol):
    def close(self) -> None: ...


HandleT = TypeVar("HandleT", bound=Closable)


class Handles(Generic[HandleT]):
    """The handles one owner opened, by key; `close` and `close_all` close them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: dict[str, HandleT] = {}
        self._pid = os.getpid()

    def get(self, key: str, open_handle: Callable[[str], HandleT]) -> HandleT:
        """The handle for `key`, opened by `open_handle(key)` the first time it is asked for
        (in this process: see the module's docstring on forks)."""
        with self._lock:
            self._forget_after_fork()
            handle = self._open.get(key)
            if handle is None:
                handle = self._open[key] = open_handle(key)
            return handle

    def close(self, key: str) -> None:
        """Close the handle for `key`, if it was opened (opened again on next use)."""
        with self._lock:
            self._forget_after_fork()
            handle = self._open.pop(key, None)
        if handle is not None:
            handle.close()

    def close_all(self) -> None:
        with self._lock:
            self._forget_after_fork()
            handles = list(self._open.values())
            self._open.clear()
        for handle in handles:
            handle.close()

    def _forget_after_fork(self) -> None:
        if os.getpid() != self._pid:
            self._open.clear()
            self._pid = os.getpid()
