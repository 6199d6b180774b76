"""`/copy`: the last reply, or one of its code blocks, for the clipboard; with several
blocks and no N, the REPL offers them in a numbered picker (`ctxchat.cli.copy_picker`).

The command picks the text; the REPL puts it on the clipboard (OSC 52, see
`ctxchat.cli.clipboard`), since only the terminal side may write to the terminal.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ctxchat.core.errors import UsageError
from ctxchat.core.messages import Message
from ctxchat.core.text import preview
from ctxchat.services.commands import Command, CommandContext, CommandResult, Note, Table

# A fenced block: a run of three or more backticks or tildes opening a line, closed by a
# line of the same run (at least as long); the info string after the opening is no code.
_FENCE = re.compile(
    r"^(?P<fence>`{3,}|~{3,})[^\n]*\n(?P<body>.*?)^(?P=fence)[`~]*[ \t]*$",
    re.MULTILINE | re.DOTALL,
)


def code_blocks(text: str) -> list[str]:
    return [m.group("body").removesuffix("\n") for m in _FENCE.finditer(text)]


def last_reply_text(messages: Sequence[Message]) -> str | None:
    for message in reversed(messages):
        if message.role == "assistant" and message.text:
            return message.text
    return None


async def _reply(ctx: CommandContext) -> str:
    conversation = ctx.conversation
    context = conversation.last_context
    text = None
    if context is not None and context.response is not None:
        text = last_reply_text(context.response.messages)
    if text is None and conversation.saved:
        text = last_reply_text(await ctx.service.transcript(conversation.session))
    if text is None:
        raise UsageError("nothing to copy yet: there is no reply in this session")
    return text


async def _copy(ctx: CommandContext, args: str) -> CommandResult:
    text = await _reply(ctx)
    blocks = code_blocks(text)
    if not args and len(blocks) > 1:
        # Several things one may mean: the REPL asks which (block N is option N).
        choices = [(f"code block {i}", block) for i, block in enumerate(blocks, 1)]
        return CommandResult(copy_choices=(*choices, ("the last reply", text)))
    if not args:
        return CommandResult(copy=text, copy_what="the last reply")
    if not blocks:
        raise UsageError("the last reply holds no code block; /copy copies it whole")
    if not (args.isascii() and args.isdigit()) or not 1 <= int(args) <= len(blocks):
        rows = tuple((i, preview(" ".join(b.split()), 70)) for i, b in enumerate(blocks, 1))
        return CommandResult(
            (
                Table(("N", "code block"), rows, title="code blocks of the last reply"),
                Note(f"/copy N copies block N (1 to {len(blocks)})", "quiet"),
            )
        )
    number = int(args)
    return CommandResult(copy=blocks[number - 1], copy_what=f"code block {number}")


def _complete(ctx: CommandContext, rest: str) -> list[str]:
    conversation = ctx.conversation
    context = conversation.last_context
    if context is None or context.response is None:
        return []
    text = last_reply_text(context.response.messages) or ""
    return [str(i) for i in range(1, len(code_blocks(text)) + 1) if str(i).startswith(rest)]


COPY_COMMANDS = (
    Command(
        "copy",
        "copy the last reply, or its code block N, to the clipboard (with several blocks, "
        "/copy alone offers them in a picker; Tab or a wrong N lists them)",
        _copy,
        usage="[N]",
        complete=_complete,
    ),
)
