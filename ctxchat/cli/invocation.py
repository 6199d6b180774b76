"""One `ctxchat` command's run as an object: the --config given before the command name,
and the engines the command opened, closed once it is over.

`execute` hands it to Typer as the context's object and the commands find it through the
current context (`current`), so nothing of one run is kept in a module global: two
commands run in one process (as the help tests do) get one each.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ctxchat.services.conversations import ChatService


@dataclass
class Invocation:
    # `ctxchat --config FILE COMMAND`: the file every command reads unless its own
    # --config names another. Set by the root callback, before the command runs.
    config: Path | None = None
    services: list[ChatService] = field(default_factory=list)

    def close(self) -> None:
        """Close what the command opened: token counts learnt are kept for the next run,
        every engine is closed, a local model server this process started is stopped."""
        if self.services:
            from ctxchat.services.token_counts import save_token_counts

            save_token_counts()
        while self.services:
            self.services.pop().close()
        if "ctxchat.services.local_model" in sys.modules:  # a local model was looked for
            from ctxchat.services.local_model import stop_local_models

            stop_local_models()


def current() -> Invocation:
    """The run of the command under way. Outside one (shell completion, which runs no
    callback) a fresh one: no --config was given, and nothing opened there is tracked."""
    from typer._click.globals import get_current_context

    context = get_current_context(silent=True)
    found = context.find_object(Invocation) if context is not None else None
    return found if found is not None else Invocation()
