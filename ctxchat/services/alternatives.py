"""Replies set aside by `/retry --model NAME`: kept beside the conversation, never in it.

The retried turn's old reply is taken out of the history (so no model is sent it again)
and kept in the session's state under `alternatives`, with the turn it answered and the
model that wrote it; exports show it with that turn.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from ctxchat.core.alternatives import STATE_KEY
from ctxchat.core.errors import UsageError
from ctxchat.core.messages import Message
from ctxchat.services.commands import CommandContext

USAGE = "usage: /retry [--model NAME]"


def retry_model(args: str) -> str | None:
    """The model `/retry` args name, or None for a plain retry."""
    try:
        words = shlex.split(args)
    except ValueError as exc:
        raise UsageError(f"{USAGE} ({exc})") from None
    if not words:
        return None
    if len(words) == 2 and words[0] in ("--model", "-m") and words[1].strip():
        return words[1]
    if len(words) == 1 and words[0].startswith("--model="):
        name = words[0].removeprefix("--model=")
        if name.strip():
            return name
    raise UsageError(USAGE)


def keep_alternative(ctx: CommandContext, removed: Sequence[Message], model: str) -> None:
    """Keeps the reply of a removed turn (not its input, which is sent again)."""
    replies = [m.to_dict() for m in removed if m.role != "user"]
    if not replies:
        return
    conversation = ctx.conversation
    state = conversation.session.provider_state(STATE_KEY)
    state.setdefault("replies", []).append(
        {"turn": conversation.session.turns + 1, "model": model, "messages": replies}
    )
    ctx.service.save_provider_state(conversation, STATE_KEY)
