"""`/attach`: files, directories and URLs for the next message of the chat."""

from __future__ import annotations

import shlex

from ctxchat.core.errors import UsageError
from ctxchat.services.attachments import describe, read_attachments
from ctxchat.services.commands import Command, CommandContext, CommandResult, Note


async def _attach(ctx: CommandContext, args: str) -> CommandResult:
    try:
        sources = shlex.split(args)
    except ValueError as exc:
        raise UsageError(f"/attach: {exc}") from None
    if not sources:
        raise UsageError("usage: /attach PATH|URL [...] (attached to the next message)")
    parts = read_attachments(sources, cwd=ctx.cwd)
    said = "; ".join(describe(parts))
    return CommandResult((Note(f"attached to the next message: {said}"),), attach=parts)


ATTACH_COMMANDS = (
    Command(
        "attach",
        "attach files, directories or URLs to the next message",
        _attach,
        usage="PATH|URL ...",
    ),
)
