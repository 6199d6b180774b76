"""The REPL's built-in slash commands, as `Command` objects in the same open registry that
providers add theirs to; /help and completion are built from the registry alone.

Handlers reach the chat through `ChatState` (`ctx.services["chat"]`), which the REPL reads
after each command: a command asks for something (exit, resend) by setting it there.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ctxchat.commands import Command, CommandContext, CommandRegistry
from ctxchat.errors import UsageError
from ctxchat.options import nearest
from ctxchat.wording import plural

if TYPE_CHECKING:
    from ctxchat.chat import ChatService, Conversation

CommandOutput = Callable[[str], None]
SESSIONS_SHOWN = 15
# The name runs to the first whitespace of any kind: a pasted "/etc/hosts" and its lines.
_COMMAND_LINE = re.compile(r"/(\S*)\s*(.*)", re.DOTALL)


class UnknownCommand(UsageError):
    """A line starting with "/" that names no command: likely a message (a path, say), so
    the REPL hands the text back instead of dropping it."""

    def __init__(self, name: str, names: list[str]) -> None:
        guess = nearest(name, names)
        hint = f"did you mean '/{guess}'?" if guess else "see /help"
        super().__init__(
            f"unknown command '/{name}' ({hint}); to send a message that starts with '/', "
            "begin it with '//'"
        )
        self.name = name


def split_command(line: str) -> tuple[str, str]:
    """`/name args` as (name, args); args keep their inner newlines."""
    found = _COMMAND_LINE.fullmatch(line.strip())
    if found is None:
        return "", line.strip()
    return found.group(1), found.group(2).strip()


class ChatState:
    """The interactive chat the commands act on: one service, one open conversation."""

    def __init__(
        self,
        service: ChatService,
        conversation: Conversation,
        *,
        context_window: int | None = None,
        cwd: Path | None = None,
    ) -> None:
        self.service = service
        self.conversation = conversation
        self.context_window = context_window
        self.cwd = cwd or Path.cwd()
        self.registry = CommandRegistry()
        self.exit_requested = False
        self.resend: str | None = None  # set by /retry: the REPL sends it next
        self.last_ok = True  # whether the last turn sent in this process completed

    def command_context(self, name: str, output: CommandOutput) -> CommandContext:
        owner = self.registry.owner(name)
        session = self.conversation.session
        state = session.provider_state(owner) if owner else {}
        return CommandContext(
            session=session,
            state=state,
            output=output,
            services={"chat": self, "registry": self.registry},
        )

    async def dispatch(self, line: str, output: CommandOutput) -> None:
        """Run one `/command args` line."""
        name, args = split_command(line)
        command = self.registry.get(name)
        if command is None:
            raise UnknownCommand(name, self.registry.names())
        context = self.command_context(name, output)
        owner = self.registry.owner(name)
        before = _snapshot(context.state)
        await command.handler(context, args)
        # The engine reloads a saved session before each turn: a provider command's change
        # to its state is written now or it would be lost.
        if owner is not None and _snapshot(context.state) != before:
            self.service.save_provider_state(self.conversation, owner)


def _snapshot(state: dict[str, object]) -> str:
    return json.dumps(state, sort_keys=True, default=str)


def chat_of(ctx: CommandContext) -> ChatState:
    chat = ctx.services.get("chat")
    if not isinstance(chat, ChatState):
        raise UsageError("this command only works in the interactive chat")
    return chat


def _local(moment: datetime) -> str:
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")


# -- handlers -----------------------------------------------------------------------------------
async def _help(ctx: CommandContext, args: str) -> None:
    registry = chat_of(ctx).registry
    entries = []
    for command in registry.unique():
        usage = f"/{command.name}" + (f" {command.usage}" if command.usage else "")
        aliases = "".join(f", /{a}" for a in command.aliases)
        entries.append((usage + aliases, command.help))
    width = max(len(left) for left, _ in entries)
    lines = ["commands:", *(f"  {left:<{width}}  {text}" for left, text in entries)]
    lines += [
        "keys: Enter sends · Esc+Enter or Ctrl+J adds a line · Tab completes /commands",
        "      Ctrl-C cancels a reply or clears the line · Ctrl-D exits",
        "a message that starts with '/' is sent by typing '//' first: //etc/hosts sends /etc/hosts",
    ]
    ctx.output("\n".join(lines))


async def _exit(ctx: CommandContext, args: str) -> None:
    chat_of(ctx).exit_requested = True


async def _new(ctx: CommandContext, args: str) -> None:
    chat = chat_of(ctx)
    chat.conversation = chat.service.new(title=args or None)
    chat.last_ok = True
    ctx.output("new session" + (f" '{args}'" if args else "") + " (saved on its first reply)")


async def _sessions(ctx: CommandContext, args: str) -> None:
    chat = chat_of(ctx)
    limit = SESSIONS_SHOWN
    if args:
        if not args.isascii() or not args.isdigit() or int(args) < 1:
            raise UsageError(f"usage: /sessions [N], N a whole number from 1 (not '{args}')")
        limit = int(args)
    found = chat.service.store.list(limit=limit)
    if not found:
        ctx.output("no saved sessions yet")
        return
    current = chat.conversation.session.id
    counts = [plural(s.turns, "turn") for s in found]
    width = max(len(count) for count in counts)
    lines = []
    for s, count in zip(found, counts, strict=True):
        mark = "*" if s.id == current else " "
        title = " ".join((s.title or "(untitled)").split())
        lines.append(f"{mark} {s.id}  {_local(s.updated_at)}  {count:>{width}}  {title}")
    ctx.output("\n".join(lines))


async def _switch(ctx: CommandContext, args: str) -> None:
    if not args:
        raise UsageError("usage: /switch ID|PREFIX|TITLE")
    chat = chat_of(ctx)
    chat.conversation = chat.service.open(args)
    chat.last_ok = True
    session = chat.conversation.session
    turns = plural(session.turns, "turn")
    ctx.output(f"switched to {session.id} '{session.display_title()}' ({turns})")


async def _title(ctx: CommandContext, args: str) -> None:
    chat = chat_of(ctx)
    if not args:
        ctx.output(f"title: {chat.conversation.session.display_title()}")
        return
    chat.service.rename(chat.conversation, args)
    ctx.output(f"renamed to '{chat.conversation.session.title}'")


async def _retry(ctx: CommandContext, args: str) -> None:
    """Resend the last input; a completed last turn is undone first so it is replaced."""
    chat = chat_of(ctx)
    conversation = chat.conversation
    text = conversation.last_input
    if chat.last_ok and conversation.saved:
        messages = await chat.service.transcript(conversation.session)
        from ctxchat.transcript import last_user_text

        stored = last_user_text(messages)
        if stored is None:
            raise UsageError("nothing to retry yet")
        await chat.service.undo(conversation)
        text = stored
    if not text:
        raise UsageError("nothing to retry yet")
    chat.resend = text


async def _undo(ctx: CommandContext, args: str) -> None:
    chat = chat_of(ctx)
    removed = await chat.service.undo(chat.conversation)
    if not removed:
        ctx.output("nothing to undo")
        return
    from ctxchat.context_report import preview

    asked = next((m.text for m in removed if m.role == "user"), "")
    count = plural(len(removed), "message")
    ctx.output(f"removed the last turn ({count}): {preview(asked, 60)!r}")


async def _context(ctx: CommandContext, args: str) -> None:
    from ctxchat.context_report import context_report, format_report

    chat = chat_of(ctx)
    context = chat.conversation.last_context
    if context is None:
        ctx.output("nothing yet: /context describes the last reply received in this session")
        return
    agent = chat.service.agent
    report = context_report(
        context,
        base_instructions=agent.settings.instructions,
        source_ids=[p.source_id for p in agent.run_providers()],
        context_window=chat.context_window,
    )
    ctx.output(format_report(report))


async def _export(ctx: CommandContext, args: str) -> None:
    from ctxchat.export import (
        FORMATS,
        ExportFormat,
        default_export_name,
        export_format,
        export_text,
        format_for_path,
        write_export,
    )

    chat = chat_of(ctx)
    try:
        words = shlex.split(args)
    except ValueError as exc:
        raise UsageError(f"usage: /export [md|json|jsonl] [FILE] ({exc})") from None
    fmt: ExportFormat | None = None
    if words and words[0].lower().lstrip(".") in (*FORMATS, "markdown"):
        fmt = export_format(words.pop(0))
    if len(words) > 1:
        raise UsageError("usage: /export [md|json|jsonl] [FILE] (quote a file name with spaces)")
    if fmt is None:  # notes.json means JSON: the name says what the file holds
        fmt = format_for_path(Path(words[0])) if words else "md"
    conversation = chat.conversation
    if not conversation.saved:
        raise UsageError("nothing to export yet: this session has no reply")
    session = conversation.session
    target = Path(words[0]) if words else chat.cwd / default_export_name(session, fmt)
    if not target.is_absolute():
        target = chat.cwd / target.expanduser()
    messages = await chat.service.transcript(session)
    write_export(target, export_text(session, messages, fmt))
    ctx.output(f"exported {len(messages)} messages as {fmt} to {target}")


async def _model(ctx: CommandContext, args: str) -> None:
    chat = chat_of(ctx)
    agent = chat.service.agent
    if not args:
        ctx.output(f"model: {agent.model.name}")
        return
    with_model = getattr(agent.model, "with_model", None)
    if with_model is None:
        raise UsageError(f"the model client {type(agent.model).__name__} cannot switch models")
    agent.model = with_model(args)
    ctx.output(f"model: {args} (from the next turn)")


BUILTIN_COMMANDS: tuple[Command, ...] = (
    Command("help", "list commands and keys", _help, aliases=("?",)),
    Command("exit", "leave the chat (Ctrl-D does too)", _exit, aliases=("quit",)),
    Command("new", "start a new session", _new, usage="[TITLE]"),
    Command("sessions", "list recent sessions", _sessions, usage="[N]"),
    Command("switch", "open another session", _switch, usage="ID|PREFIX|TITLE"),
    Command("title", "show or set this session's title", _title, usage="[TEXT]"),
    Command("retry", "send the last input again, replacing its reply", _retry),
    Command("undo", "drop the last turn from the history", _undo),
    Command("context", "what each provider put into the last turn, in tokens", _context),
    Command(
        "export",
        "write this session to a file",
        _export,
        usage="[md|json|jsonl] [FILE]",
        completions=("md", "json", "jsonl"),
    ),
    Command("model", "show or switch the model", _model, usage="[NAME]"),
)


def install_commands(chat: ChatState) -> None:
    """Fill `chat.registry`: the built-ins, then each provider's commands under its source id."""
    chat.registry.add_all(BUILTIN_COMMANDS)
    for provider in chat.service.agent.run_providers():
        chat.registry.add_all(provider.commands(), provider.source_id)
