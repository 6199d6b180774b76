"""Composing the next message: `/attach` (files, directories and URLs to go with it) and
`/edit-draft` (the draft in the user's editor, which the REPL opens)."""

from __future__ import annotations

import shlex

from ctxchat.core.errors import UsageError
from ctxchat.services.attachments import describe, read_attachments
from ctxchat.services.commands import Command, CommandContext, CommandResult

CLEAR = "--clear"


async def _attach(ctx: CommandContext, args: str) -> CommandResult:
    try:
        sources = shlex.split(args)
    except ValueError as exc:
        raise UsageError(f"/attach: {exc}") from None
    if sources == [CLEAR]:
        count = len(ctx.attached)
        ctx.attached.clear()
        return CommandResult.say(f"dropped {count} attachment(s)" if count else "nothing attached")
    if not sources:
        if not ctx.attached:
            return CommandResult.say(
                "nothing attached; /attach PATH|URL attaches to the next message"
            )
        return CommandResult.say(
            "attached to the next message: " + "; ".join(describe(ctx.attached))
        )
    parts = read_attachments(
        sources, cwd=ctx.cwd, limits=ctx.attachment_limits
    )  # all or none: the first bad one raises
    ctx.attached.extend(parts)
    return CommandResult.say(
        "attached to the next message: " + "; ".join(describe(parts)), tone="quiet"
    )


async def _edit_draft(ctx: CommandContext, args: str) -> CommandResult:
    if args:
        raise UsageError("usage: /edit-draft (it takes no arguments)")
    return CommandResult(edit_draft=True)


ATTACH_COMMANDS = (
    Command(
        "attach",
        "attach files, directories or URLs to the next message (--clear drops them)",
        _attach,
        usage="[PATH|URL ...|--clear]",
        completions=(CLEAR,),
    ),
    Command(
        "edit-draft",
        "compose the message in $VISUAL or $EDITOR (Ctrl-X Ctrl-E too)",
        _edit_draft,
    ),
)
