"""Text to the clipboard: OSC 52 to the terminal, which works over SSH and in tmux, and a
local clipboard tool as well where one exists and the session is not remote.

OSC 52 asks the terminal emulator itself to set the clipboard, so the text lands on the
machine the person sits at, wherever ctxchat runs. Inside tmux the sequence is wrapped in
tmux's passthrough, so it reaches the outer terminal even when tmux's own set-clipboard
is off. Some terminals ignore OSC 52 or cap its length: the local tool is the fallback on
a desktop session.
"""

from __future__ import annotations

import base64
import os
import shutil
import subprocess
import sys
from typing import IO

# Tools that read the clipboard's new content on stdin, the first found is used.
_TOOLS = (
    ("wl-copy",),
    ("xclip", "-selection", "clipboard"),
    ("xsel", "--clipboard", "--input"),
    ("pbcopy",),
)


def osc52(text: str, *, tmux: bool) -> str:
    encoded = base64.b64encode(text.encode("utf-8")).decode("ascii")
    sequence = f"\x1b]52;c;{encoded}\x07"
    if tmux:
        # tmux passthrough: DCS tmux; <sequence with each ESC doubled> ST.
        sequence = "\x1bPtmux;" + sequence.replace("\x1b", "\x1b\x1b") + "\x1b\\"
    return sequence


def _remote() -> bool:
    return any(os.environ.get(name) for name in ("SSH_CONNECTION", "SSH_TTY", "SSH_CLIENT"))


def local_tool() -> tuple[str, ...] | None:
    if _remote():
        return None  # a tool here sets this machine's clipboard, not the person's
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) and (
        sys.platform != "darwin"
    ):
        return None
    for tool in _TOOLS:
        if shutil.which(tool[0]):
            return tool
    return None


def copy_to_clipboard(text: str, out: IO[str] | None = None) -> list[str]:
    """Puts `text` on the clipboard; the ways used ("OSC 52", a tool's name)."""
    stream = out or sys.stdout
    stream.write(osc52(text, tmux=bool(os.environ.get("TMUX"))))
    stream.flush()
    used = ["OSC 52"]
    tool = local_tool()
    if tool is not None:
        try:
            subprocess.run(tool, input=text.encode("utf-8"), check=True, timeout=5)
            used.append(tool[0])
        except (OSError, subprocess.SubprocessError):
            pass
    return used
