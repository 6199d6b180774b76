"""A command's result on the terminal: its notes and tables, made safe and aligned."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from ctxchat.core.sanitize import one_line, terminal_safe
from ctxchat.core.text import local_time

if TYPE_CHECKING:
    from rich.console import Console

    from ctxchat.services.commands import Cell, CommandResult, Table

KEYS_HELP = (
    "keys: Enter sends · Esc+Enter or Ctrl+J adds a line · Tab completes /commands\n"
    "      Ctrl-C cancels a reply or clears the line · Ctrl-D exits\n"
    "a message that starts with '/' is sent by typing '//' first: //etc/hosts sends /etc/hosts"
)
STYLES = {"normal": "", "quiet": "dim", "warning": "yellow"}


def cell_text(value: Cell) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime):
        return local_time(value)
    if isinstance(value, int | float):
        return f"{value:,}" if isinstance(value, int) else f"{value:g}"
    return one_line(value)


def table_lines(table: Table) -> list[str]:
    """Left-aligned columns (numbers right-aligned), a `*` before marked rows."""
    rows = [[cell_text(v) for v in row] for row in table.rows]
    numeric = [
        all(isinstance(row[c], int | float) for row in table.rows if row[c] is not None)
        for c in range(len(table.columns))
    ]
    widths = [max([0, *(len(r[c]) for r in rows)]) for c in range(len(table.columns))]
    mark = bool(table.marked)
    lines = []
    for number, row in enumerate(rows):
        cells = [
            value.rjust(widths[c]) if numeric[c] else value.ljust(widths[c])
            for c, value in enumerate(row)
        ]
        prefix = ("* " if number in table.marked else "  ") if mark else ""
        lines.append((prefix + "  ".join(cells)).rstrip())
    return lines


def print_result(console: Console, result: CommandResult, *, keys_help: bool = False) -> None:
    from rich.text import Text

    from ctxchat.services.commands import Note

    for block in result.blocks:
        if isinstance(block, Note):
            console.print(Text(terminal_safe(block.text), style=STYLES[block.tone]))
            continue
        if block.title:
            console.print(Text(f"{block.title}:"))
        for line in table_lines(block):
            console.print(Text(line))
    if keys_help:
        console.print(Text(KEYS_HELP))
