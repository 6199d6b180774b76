"""Editing an earlier message without losing the original: `/edit N` and `/branches`.

A branch is a session made as `/fork` makes one, from the turn before message N; the
edited text is sent there as its next message, and the original stays whole as its
parent. `/branches` lists the sessions forked from this one (and the one it came from);
`/switch ID` moves to any of them, as to any session.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ctxchat.core.errors import UsageError
from ctxchat.core.session import ForkPoint
from ctxchat.core.text import preview, title_or_untitled
from ctxchat.services.commands import (
    Cell,
    Command,
    CommandContext,
    CommandResult,
    Note,
    Table,
)

if TYPE_CHECKING:
    from ctxchat.services.conversations import ChatService, Conversation


async def _edit(ctx: CommandContext, args: str) -> CommandResult:
    conversation = ctx.conversation
    if not conversation.saved:
        raise UsageError("nothing to edit yet: this session has no saved turn")
    from ctxchat.services.compose import split_attachments

    mine = [
        m for m in await ctx.service.transcript(conversation.session) if m.role == "user" and m.text
    ]
    count = len(mine)
    if not (args.isascii() and args.isdigit()) or not 1 <= int(args) <= max(count, 1):
        raise UsageError(f"usage: /edit N, N a message of yours from 1 to {count}")
    number = int(args)
    # The editor gets the words; the attachments go with the edit as they went with the
    # original, as parts (not as typed text the editor would show, 100 kB of a file).
    words, attached = split_attachments(mine[number - 1])
    return CommandResult(
        edit_draft=True,
        draft=words,
        branch_from=ForkPoint(conversation.session.id, number - 1),
        attach=attached,
    )


async def make_branch(service: ChatService, point: ForkPoint) -> Conversation:
    """A new session holding the first `point.turn` turns of `point.session`, its parent."""
    from ctxchat.services.forking import FORK_MARK, fork_session

    if point.turn >= 1:
        made = await fork_session(service, point.session, point.turn)
        return service.open(made.id)
    # Before the first message: nothing to copy, a new session that names its parent.
    opened = service.open(point.session)
    source = opened.session
    branch = await service.start_new(after=opened)
    branch.session.forked_from = point
    branch.session.title = (source.title + FORK_MARK) if source.title else None
    return branch


async def _branches(ctx: CommandContext, args: str) -> CommandResult:
    if args:
        raise UsageError("usage: /branches (it takes no arguments)")
    current = ctx.conversation.session
    rows: list[tuple[Cell, ...]] = []
    parent = current.forked_from
    if parent is not None:
        rows.append(("parent", parent.session, "", ""))
    for summary in ctx.service.sessions():
        fork = summary.forked_from
        if fork is not None and fork.session == current.id:
            rows.append(
                ("branch", summary.id, fork.turn, preview(title_or_untitled(summary.title), 40))
            )
    if not rows:
        return CommandResult.say("no branches: /edit N or /fork makes one", tone="quiet")
    table = Table(("", "session", "from turn", "title"), tuple(rows))
    return CommandResult((table, Note("/switch ID goes to one", "quiet")))


BRANCH_COMMANDS = (
    Command(
        "edit",
        "edit your message N in $EDITOR and send it as a new branch (the original stays)",
        _edit,
        usage="N",
    ),
    Command("branches", "list this session's branches and its parent", _branches),
)
