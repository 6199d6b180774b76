"""Output: consoles, streamed Markdown's stable part, turns. Text is made safe for a
terminal by `ctxchat.core.sanitize`.

Rich follows NO_COLOR and drops styling when the output is not a terminal by itself.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from ctxchat.core.sanitize import one_line, terminal_safe
from ctxchat.core.text import preview

if TYPE_CHECKING:
    from rich.console import Console

    from ctxchat.core.messages import ImagePart, Message, ToolCallPart, ToolResultPart

CODE_THEME = "monokai"
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def make_console(
    *, stderr: bool = False, file: TextIO | None = None, soft_wrap: bool = False
) -> Console:
    from rich.console import Console

    return Console(file=file, stderr=stderr, highlight=False, soft_wrap=soft_wrap)


def _fence_after(fence: str | None, line: str) -> str | None:
    """The opening line of the code fence open after `line` (None: not in a code block),
    given the one open before it."""
    found = _FENCE.match(line)
    if fence is None:
        return line if found else None
    opened = _FENCE.match(fence)
    marks = opened.group(1) if opened else "```"
    if (
        found
        and found.group(1)[0] == marks[0]
        and len(found.group(1)) >= len(marks)
        and not line.strip().strip(marks[0])
    ):
        return None
    return fence


_TABLE_ROW = re.compile(r"^\s*\|")


def keep_line_breaks(text: str) -> str:
    """Markdown whose single newlines stay line breaks, as in a chat: a poem, an address,
    lines without bullets. Markdown joins them into one paragraph; two trailing spaces
    make each a hard break. Code blocks and tables keep their lines already and are left
    as they are, and a break before a block of its own (a list item, a heading) changes
    nothing, since Markdown ignores a hard break at the end of a block."""
    lines = text.split("\n")
    fence: str | None = None
    for number, line in enumerate(lines[:-1]):
        after = _fence_after(fence, line)
        inside = fence is not None or after is not None
        fence = after
        following = lines[number + 1]
        if (
            inside
            or not line.strip()
            or not following.strip()
            or _TABLE_ROW.match(line)
            or line.endswith(("  ", "\\"))
        ):
            continue
        lines[number] = line + "  "
    return "\n".join(lines)


def stable_length(text: str) -> int:
    """How much of a growing Markdown text later deltas cannot change: everything up to the
    last blank line or closing code fence that lies outside a code block."""
    cut = pos = 0
    fence: str | None = None
    *complete, _arriving = text.split("\n")
    for line in complete:
        pos += len(line) + 1
        after = _fence_after(fence, line)
        if after is None and (fence is not None or not line.strip()):
            cut = pos
        fence = after
    return cut


def tail_source(text: str, max_lines: int) -> str:
    """The last `max_lines` lines of a Markdown block, standing on their own: when they
    start inside a code block, its opening fence is put back so they still render as code."""
    lines = text.split("\n")
    if len(lines) <= max_lines:
        return text
    start = len(lines) - max_lines
    fence: str | None = None
    for line in lines[:start]:
        fence = _fence_after(fence, line)
    tail = "\n".join(lines[start:])
    return tail if fence is None else f"{fence}\n{tail}"


THOUGHT = "thought: "
THINKING = "thinking: "


def thought_line(reasoning: str, width: int, *, suffix: str = "", streaming: bool = False) -> str:
    """Reasoning folded to one line of `width`: its start once it is complete, its latest
    words while it streams in."""
    flat = one_line(reasoning)
    label = THINKING if streaming else THOUGHT
    room = max(8, width - len(label) - len(suffix) - 1)
    if len(flat) <= room:
        return f"{label}{flat}{suffix}"
    if streaming:
        return f"{label}…{flat[len(flat) - room + 1 :]}{suffix}"
    return f"{label}{flat[: room - 1].rstrip()}…{suffix}"


def tool_call_line(call: ToolCallPart) -> str:
    """How every view shows a tool call: `→ name(arguments…)`."""
    return f"→ {call.name}({preview(call.arguments, 80)})"


def short_arguments(arguments: str, width: int = 60) -> str:
    """A call's arguments in a few words: `city="Oslo", days=3`, cut to `width`."""
    import json

    try:
        parsed = json.loads(arguments) if arguments.strip() else {}
    except ValueError:
        parsed = None
    if isinstance(parsed, dict):
        text = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in parsed.items())
    else:
        text = arguments
    return preview(text, width)


def tool_run_line(call: ToolCallPart, result: ToolResultPart, seconds: float) -> str:
    """How the REPL shows one tool call once it is over, in one line: the name, short
    arguments, the time it ran, and what went wrong when something did."""
    from ctxchat.core.approval import refusal_text

    head = f"→ {call.name}({short_arguments(call.arguments, 50)})"
    if result.is_error and result.content == refusal_text(call.name):
        return f"{head} · refused"
    took = f"{seconds:.2f}s" if seconds < 10 else f"{seconds:.0f}s"
    if result.is_error:
        return f"{head} · {took} · error: {preview(result.content, 60)}"
    return f"{head} · {took}"


def image_line(image: ImagePart) -> str:
    """An attached image in a transcript: its name and size, never its bytes."""
    return f"[image {image.name} · {image.media_type} · {image.width}x{image.height}]"


def tool_result_line(result: ToolResultPart) -> str:
    """How every view shows a tool's answer: `← result: …` or `← error: …`."""
    return f"← {'error' if result.is_error else 'result'}: {preview(result.content, 100)}"


def print_turns(console: Console, turns: Sequence[Sequence[Message]], *, markdown: bool) -> None:
    """Stored turns, readable: the user's words, tool traffic dimmed, the replies. Every
    stored text goes through `terminal_safe`: this is a view for people, exports keep the
    exact text."""
    from rich.text import Text

    def line(text: str, style: str = "") -> None:
        console.print(Text(terminal_safe(text), style=style))

    for turn in turns:
        for message in turn:
            if message.role == "user":
                console.print(Text("you › ", style="bold cyan") + Text(terminal_safe(message.text)))
                for image in message.images:
                    line(image_line(image), "dim")
            elif message.role == "assistant":
                if message.reasoning:
                    line(thought_line(message.reasoning, console.width), "dim")
                for call in message.tool_calls:
                    line(tool_call_line(call), "dim")
                if message.text and markdown:
                    from rich.markdown import Markdown

                    source = keep_line_breaks(terminal_safe(message.text))
                    console.print(Markdown(source, code_theme=CODE_THEME))
                elif message.text:
                    line(message.text)
            elif message.role == "tool":
                for result in message.tool_results:
                    line(tool_result_line(result), "dim")
            elif message.role == "system":
                line(f"[system] {preview(message.text, 100)}", "dim")
        console.print()
