"""The draft in `$VISUAL` or `$EDITOR`: Ctrl-X Ctrl-E and /edit-draft at the REPL prompt.

The draft goes through a private temporary file (0600, removed after), since a draft may
hold anything the user was about to send. The saved text comes back as the draft; an
empty save, or an editor that exits with an error, cancels and leaves the draft as it was.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Edited:
    text: str | None  # the new draft, or None: keep the old one
    note: str  # what happened, one line for the user


def editor_command() -> list[str] | None:
    for name in ("VISUAL", "EDITOR"):
        value = os.environ.get(name, "").strip()
        if value:
            return shlex.split(value)
    return None


def edit_draft(draft: str) -> Edited:
    command = editor_command()
    if not command:
        return Edited(None, "set $VISUAL or $EDITOR to compose in an editor")
    handle, name = tempfile.mkstemp(prefix="ctxchat-draft-", suffix=".md")
    path = Path(name)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(draft)
        try:
            status = subprocess.run([*command, str(path)], check=False).returncode
        except OSError as exc:
            return Edited(None, f"cannot run the editor {command[0]}: {exc.strerror or exc}")
        if status != 0:
            return Edited(None, f"the editor exited with status {status}: draft kept")
        text = path.read_text("utf-8", errors="replace")
    finally:
        path.unlink(missing_ok=True)
    text = text.removesuffix("\n")  # editors end the file with a newline the user did not type
    if not text.strip():
        return Edited(None, "empty save: draft kept as it was")
    return Edited(text, "")
