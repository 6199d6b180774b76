"""The chat's built-in slash commands, in the same open registry providers add theirs to.

Each handler works on the conversation through the `ChatService` and returns data
(`CommandResult`): what to show, and whether the chat exits, sends a text or goes on with
another conversation. Nothing here knows about terminals.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ctxchat.core.errors import UsageError
from ctxchat.core.text import TITLE_SHOWN, plural, preview, title_or_untitled
from ctxchat.services.attach_commands import ATTACH_COMMANDS
from ctxchat.services.branch_commands import BRANCH_COMMANDS
from ctxchat.services.commands import (
    Block,
    ChatCommandResult,
    Command,
    CommandContext,
    CommandRegistry,
    CommandResult,
    CommandSource,
    Gauge,
    Marked,
    Note,
    Table,
)
from ctxchat.services.copy_commands import COPY_COMMANDS
from ctxchat.services.cost_command import COST_COMMAND
from ctxchat.services.roles import ROLE_COMMAND

if TYPE_CHECKING:
    from ctxchat.core.provider import ContextProvider

SESSIONS_SHOWN = 15


async def _help(ctx: CommandContext, args: str) -> CommandResult:
    rows = []
    for command in ctx.registry.unique():
        usage = f"/{command.name}" + (f" {command.usage}" if command.usage else "")
        aliases = "".join(f", /{a}" for a in command.aliases)
        rows.append((usage + aliases, command.help))
    # Its header says what it is: no title above it.
    return CommandResult((Table(("command", "what it does"), tuple(rows)),))


async def _exit(ctx: CommandContext, args: str) -> CommandResult:
    return CommandResult(exit=True)


async def _new(ctx: CommandContext, args: str) -> CommandResult:
    conversation = await ctx.service.start_new(args or None, after=ctx.conversation)
    said = "new session" + (f" '{conversation.session.title}'" if args else "")
    return ChatCommandResult(
        (Note(said + " (saved on its first reply)"),), conversation=conversation
    )


async def _sessions(ctx: CommandContext, args: str) -> CommandResult:
    limit = SESSIONS_SHOWN
    if args:
        if not args.isascii() or not args.isdigit() or int(args) < 1:
            raise UsageError(f"usage: /sessions [N], N a whole number from 1 (not '{args}')")
        limit = int(args)
    found = ctx.service.sessions(limit=limit)
    if not found:
        return CommandResult.say("no saved sessions yet")
    current = ctx.conversation.session.id
    rows = tuple(
        (s.id, s.updated_at, s.turns, preview(title_or_untitled(s.title), TITLE_SHOWN))
        for s in found
    )
    marked = frozenset(i for i, s in enumerate(found) if s.id == current)
    return CommandResult((Table(("id", "last used", "turns", "title"), rows, marked),))


async def _search(ctx: CommandContext, args: str) -> CommandResult:
    from ctxchat.services.session_search import search_sessions

    if not args.strip():
        raise UsageError("usage: /search QUERY (the words to find in every session)")
    service = ctx.service
    warned: list[str] = []
    hits = await search_sessions(
        service.agent.run_providers(),
        service.store,
        args,
        project=service.project,
        warn=warned.append,
    )
    notes = tuple(Note(line, "warning") for line in warned)
    if not hits:
        return CommandResult((*notes, Note("no stored message holds those words")))
    current = ctx.conversation.session.id
    rows = tuple(
        (
            h.session_id,
            h.created_at,
            h.role,
            preview(title_or_untitled(h.title), 30),
            Marked(h.snippet),
        )
        for h in hits
    )
    marked = frozenset(i for i, h in enumerate(hits) if h.session_id == current)
    table = Table(("session", "when", "role", "title", "snippet"), rows, marked)
    return CommandResult((*notes, table))


async def _fork(ctx: CommandContext, args: str) -> CommandResult:
    from ctxchat.services.forking import fork_session

    at: int | None = None
    if args:
        if not args.isascii() or not args.isdigit() or int(args) < 1:
            raise UsageError(f"usage: /fork [N], N a turn number from 1 (not '{args}')")
        at = int(args)
    if not ctx.conversation.saved:
        raise UsageError("nothing to fork yet: this session has no saved turn")
    made = await fork_session(ctx.service, ctx.conversation.session.id, at)
    said = f"forked at turn {made.turns}: now in {made.id}; the original is untouched"
    return ChatCommandResult((Note(said),), conversation=ctx.service.open(made.id))


def _session_references(ctx: CommandContext, typed: str) -> Sequence[str]:
    """Ids and titles of recent sessions that start with what was typed, for Tab."""
    found: list[str] = []
    for s in ctx.service.sessions(limit=200):
        if s.id.upper().startswith(typed.upper()):
            found.append(s.id)
        if s.title and s.title.lower().startswith(typed.lower()):
            found.append(s.title)
    return list(dict.fromkeys(found))


async def _switch(ctx: CommandContext, args: str) -> CommandResult:
    if not args:
        raise UsageError("usage: /switch ID|PREFIX|TITLE")
    conversation = ctx.service.open(args)
    session = conversation.session
    said = f"switched to {session.id} '{session.display_title()}' ({plural(session.turns, 'turn')})"
    return ChatCommandResult((Note(said),), conversation=conversation)


async def _title(ctx: CommandContext, args: str) -> CommandResult:
    if not args:
        return CommandResult.say(f"title: {ctx.conversation.session.display_title()}")
    ctx.service.rename(ctx.conversation, args)
    return CommandResult.say(f"renamed to '{ctx.conversation.session.title}'")


async def _retry(ctx: CommandContext, args: str) -> CommandResult:
    """Resend the last input; a completed last turn is undone first so it is replaced.
    With `--model NAME`, to that model, and the replaced reply is kept as an alternative."""
    from ctxchat.services.alternatives import keep_alternative, retry_model

    model = retry_model(args)
    conversation = ctx.conversation
    text = conversation.last_input
    if not ctx.last_turn_failed and conversation.saved:
        from ctxchat.services.compose import split_attachments
        from ctxchat.views.transcript import last_user_message

        stored = last_user_message(await ctx.service.transcript(conversation.session))
        if stored is None:
            raise UsageError("nothing to retry yet")
        previous = conversation.model.name
        removed = await ctx.service.undo(conversation)
        if model is not None:
            keep_alternative(ctx, removed, previous)
        # Its attachments go with it again as parts, as /attach gives them, not as words.
        text, attached = split_attachments(stored)
        ctx.attached.extend(attached)
    if not text:
        raise UsageError("nothing to retry yet")
    if model is None:
        return CommandResult(send=text)
    ctx.service.switch_model(conversation, model)
    said = f"model: {conversation.model.name} (from this retry on); the replaced reply is kept"
    return CommandResult((Note(said, "quiet"),), send=text)


async def _undo(ctx: CommandContext, args: str) -> CommandResult:
    removed = await ctx.service.undo(ctx.conversation)
    if not removed:
        return CommandResult.say("nothing to undo")
    asked = next((m.text for m in removed if m.role == "user"), "")
    count = plural(len(removed), "message")
    return CommandResult.say(f"removed the last turn ({count}): {preview(asked, 60)!r}")


async def _context(ctx: CommandContext, args: str) -> CommandResult:
    from ctxchat.views.context_report import format_report

    word = args.strip()
    if word not in ("", "full"):
        raise UsageError("usage: /context [full]")
    report = ctx.service.context_report(ctx.conversation)
    if report is None:
        return CommandResult.say(
            "nothing yet: /context describes the last reply received in this session"
        )
    blocks: list[Block] = [Note(format_report(report, full=word == "full"))]
    parts = report.gauge()
    if parts:
        blocks.insert(0, Gauge(sum(t for _, t in parts), tuple(parts), title="window"))
    return CommandResult(tuple(blocks))


async def _export(ctx: CommandContext, args: str) -> CommandResult:
    from ctxchat.views.export import FORMATS, choose_export_format, default_export_name

    usage = "usage: /export [md|json|jsonl] [FILE]"
    try:
        words = shlex.split(args)
    except ValueError as exc:
        raise UsageError(f"{usage} ({exc})") from None
    named = None
    if words and words[0].lower().lstrip(".") in (*FORMATS, "markdown"):
        named = words.pop(0)
    if len(words) > 1:
        raise UsageError(f"{usage} (quote a file name with spaces)")
    path = Path(words[0]).expanduser() if words else None
    fmt = choose_export_format(named, path)
    conversation = ctx.conversation
    if not conversation.saved:
        raise UsageError("nothing to export yet: this session has no reply")
    target = path if path is not None else Path(default_export_name(conversation.session, fmt))
    if not target.is_absolute():
        target = ctx.cwd / target
    count = await ctx.service.export(conversation.session, target, fmt)
    return CommandResult.say(f"exported {plural(count, 'message')} as {fmt} to {target}")


async def _think(ctx: CommandContext, args: str) -> CommandResult:
    """The last reply's reasoning, whole (the chat shows it folded to a line)."""
    from ctxchat.views.transcript import last_reasoning, reasoning_of

    conversation = ctx.conversation
    context = conversation.last_context
    text = ""
    if context is not None and context.response is not None:
        text = reasoning_of(context.response.messages)
    elif conversation.saved:  # resumed or switched to: the stored conversation says
        text = last_reasoning(await ctx.service.transcript(conversation.session))
    if not text:
        return CommandResult.say("the last reply came without reasoning", tone="quiet")
    return CommandResult.say(text, tone="quiet")


async def _model(ctx: CommandContext, args: str) -> CommandResult:
    if not args:
        return CommandResult.say(f"model: {ctx.conversation.model.name}")
    ctx.service.switch_model(ctx.conversation, args)
    said = [Note(f"model: {ctx.conversation.model.name} (from the next turn)")]
    warning = await ctx.service.unlisted(ctx.conversation.model.name)
    if warning:
        said.append(Note(warning, "warning"))
    return CommandResult(tuple(said))


BUILTIN_COMMANDS: tuple[Command[CommandContext], ...] = (
    Command("help", "list commands and keys", _help, aliases=("?",)),
    Command("exit", "leave the chat (Ctrl-D does too)", _exit, aliases=("quit",)),
    Command("new", "start a new session", _new, usage="[TITLE]"),
    Command("sessions", "list recent sessions", _sessions, usage="[N]"),
    Command(
        "switch",
        "open another session",
        _switch,
        usage="ID|PREFIX|TITLE",
        complete=_session_references,
    ),
    Command("search", "find words in every session's stored messages", _search, usage="QUERY"),
    Command("fork", "go on in a copy of this session, up to turn N", _fork, usage="[N]"),
    Command("title", "show or set this session's title", _title, usage="[TEXT]"),
    Command(
        "retry",
        "send the last input again, replacing its reply (--model: to another model, "
        "keeping the old reply beside it)",
        _retry,
        usage="[--model NAME]",
        completions=("--model",),
    ),
    Command("undo", "drop the last turn from the history", _undo),
    Command(
        "context",
        "what each provider put into the last turn, in tokens (full: instructions whole)",
        _context,
        usage="[full]",
        completions=("full",),
    ),
    Command("think", "show the last reply's reasoning whole", _think),
    Command(
        "export",
        "write this session to a file",
        _export,
        usage="[md|json|jsonl] [FILE]",
        completions=("md", "json", "jsonl"),
    ),
    Command("model", "show or switch the model", _model, usage="[NAME]"),
)


def chat_commands(providers: Sequence[ContextProvider[Any]] = ()) -> CommandRegistry:
    """The registry of a chat: the built-ins, then each provider's commands under its
    source id (so their handlers get that provider's session state)."""
    registry = CommandRegistry()
    registry.add_all(BUILTIN_COMMANDS)
    registry.add_all(ATTACH_COMMANDS)
    registry.add_all(COPY_COMMANDS)
    registry.add_all(BRANCH_COMMANDS)
    registry.add(ROLE_COMMAND)
    registry.add(COST_COMMAND)
    for provider in providers:
        if isinstance(provider, CommandSource):
            registry.add_all(provider.commands(), provider.source_id)
    return registry
