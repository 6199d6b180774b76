"""`/cost` in the REPL: this session's tokens and cost so far, by model, from the usage
ledger (see `ctxchat.services.usage`)."""

from __future__ import annotations

from ctxchat.core.errors import UsageError
from ctxchat.services.commands import Command, CommandContext, CommandResult, Note, Table


async def _cost(ctx: CommandContext, args: str) -> CommandResult:
    from ctxchat.services.usage import usage_report
    from ctxchat.views.usage_view import COLUMNS, key_text, usage_cells

    if args.strip():
        raise UsageError("usage: /cost (it takes no arguments)")
    session = ctx.conversation.session
    providers = ctx.service.agent.run_providers()
    report = await usage_report(providers, ctx.service.prices, "model", session=session)
    if not report.lines:
        return CommandResult.say("nothing yet: no turn of this session is stored")
    rows = [(key_text(line.key), *usage_cells(line)) for line in report.lines]
    rows.append(("total", *usage_cells(report.total)))
    table = Table(("model", *COLUMNS), tuple(rows), title="this session")
    blocks: list[Note | Table] = [table]
    if report.total.cost is None and report.total.turns:
        blocks.append(Note('no price for these models: add [prices."MODEL"] to the config'))
    return CommandResult(tuple(blocks))


COST_COMMAND = Command("cost", "show this session's tokens and cost", _cost)
