"""`/compact` in the REPL: fold the conversation into the summary now, and show it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ctxchat import Command, CommandResult, CommandView, Note, UsageError
from ctxchat.kit import plural

if TYPE_CHECKING:
    from .provider import SummaryProvider

USAGE = "usage: /compact [N]  (N: the newest turns kept in full, 2 if left out)"
DEFAULT_KEEP = 2


def summary_commands(provider: SummaryProvider) -> Sequence[Command[CommandView]]:
    async def compact(ctx: CommandView, args: str) -> CommandResult:
        keep = _keep_turns(args)
        fold = await provider.compact(ctx.agent, ctx.session, ctx.state, ctx.model, keep)
        summary = ctx.state.get("summary")
        if not fold.messages:
            said = "nothing to compact: everything before the newest "
            said += f"{plural(keep, 'turn')} is in the summary already"
            return CommandResult.say(said)
        head = f"summarised {plural(fold.messages, 'message')}; the summary now reads:"
        return CommandResult((Note(head), Note(str(summary or ""), "quiet")))

    return [
        Command(
            "compact",
            "fold the conversation into the summary now, keeping the newest N turns",
            compact,
            usage="[N]",
        )
    ]


def _keep_turns(args: str) -> int:
    text = args.strip()
    if not text:
        return DEFAULT_KEEP
    if not text.isdigit() or int(text) < 1:
        raise UsageError(USAGE)
    return int(text)
