"""A real terminal emulator for tests that must see the screen rather than the byte
stream (what stays in the scrollback after redraws, what a live region leaves behind):
tmux, on a server of its own so nothing of the user's tmux is touched."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

CONFIG = """\
set -g remain-on-exit on
set -g history-limit 20000
set -g status off
"""
WAIT_SECONDS = 20.0

# CI installs tmux and sets CTXCHAT_REQUIRE_TMUX=1: there a missing tmux fails these tests
# instead of skipping them.
needs_tmux = pytest.mark.skipif(
    shutil.which("tmux") is None and os.environ.get("CTXCHAT_REQUIRE_TMUX") != "1",
    reason="needs tmux",
)


class Terminal:
    """One tmux pane of `width` x `height` running `argv` with `env`."""

    def __init__(
        self, argv: list[str], env: dict[str, str], folder: Path, *, width: int, height: int
    ) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.socket = str(folder / "tmux.sock")
        config = folder / "tmux.conf"
        config.write_text(CONFIG)
        # The server starts with this environment; the pane's command inherits it.
        self._tmux(
            "-f",
            str(config),
            "new-session",
            "-d",
            "-x",
            str(width),
            "-y",
            str(height),
            "-s",
            "test",
            shlex.join(argv),
            env=env,
        )

    def _tmux(self, *args: str, env: dict[str, str] | None = None) -> str:
        result = subprocess.run(
            ["tmux", "-S", self.socket, *args],
            capture_output=True,
            text=True,
            env=env,
            check=True,
            timeout=WAIT_SECONDS,
        )
        return result.stdout

    def screen(self) -> str:
        """The scrollback and the visible screen, as text (trailing blanks trimmed)."""
        return self._tmux("capture-pane", "-p", "-S", "-", "-E", "-", "-t", "test")

    def visible(self) -> str:
        """Only what is on the screen now."""
        return self._tmux("capture-pane", "-p", "-t", "test")

    def wait_for(self, wanted: str | Callable[[str], bool], *, visible: bool = False) -> str:
        """The screen once it shows `wanted` (or satisfies it); fails after a while."""
        found = (lambda text: wanted in text) if isinstance(wanted, str) else wanted
        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            text = self.visible() if visible else self.screen()
            if found(text):
                return text
            if time.monotonic() > deadline:
                raise AssertionError(f"never shown: {wanted!r}; the screen:\n{text}")
            time.sleep(0.05)

    def type(self, text: str) -> None:
        self._tmux("send-keys", "-t", "test", "-l", text)

    def press(self, *keys: str) -> None:
        """tmux key names: Enter, C-c, C-d..."""
        self._tmux("send-keys", "-t", "test", *keys)

    def title(self) -> str:
        return self._tmux("display-message", "-p", "-t", "test", "#{pane_title}").strip()

    def exit_status(self) -> int | None:
        dead, status = self._tmux(
            "display-message", "-p", "-t", "test", "#{pane_dead} #{pane_dead_status}"
        ).split()
        return int(status) if dead == "1" else None

    def close(self) -> None:
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], capture_output=True, check=False)
