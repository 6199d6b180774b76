"""A command's result on the terminal: its notes and tables, made safe and aligned."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from ctxchat.core.sanitize import one_line, terminal_safe
from ctxchat.core.text import local_time

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

    from ctxchat.services.commands import Cell, CommandResult, Gauge, Table

KEYS_HELP = (
    "keys: Enter sends · Esc+Enter or Ctrl+J adds a line · Tab completes /commands\n"
    "      Ctrl-C cancels a reply or clears the line · Ctrl-D exits\n"
    "a message that starts with '/' is sent by typing '//' first: //etc/hosts sends /etc/hosts"
)
STYLES = {"normal": "", "quiet": "dim", "warning": "yellow"}


def cell_text(value: Cell) -> str:
    from ctxchat.services.commands import Marked

    if value is None:
        return ""
    if isinstance(value, Marked):
        from ctxchat.views.search_hits import marked_text

        return marked_text(value.pieces)
    if isinstance(value, datetime):
        return local_time(value)
    if isinstance(value, int | float):
        return f"{value:,}" if isinstance(value, int) else f"{value:g}"
    return one_line(value)


def table_lines(table: Table, *, header: bool = False, width: int | None = None) -> list[str]:
    """Left-aligned columns (numbers right-aligned), a `*` before marked rows; with
    `header`, the column names first. With `width`, lines fit it: the widest text columns
    give up cells first, each cut cell ending in `…`."""
    rows = [[cell_text(v) for v in row] for row in table.rows]
    numeric = [
        all(isinstance(row[c], int | float) for row in table.rows if row[c] is not None)
        for c in range(len(table.columns))
    ]
    if header:
        rows.insert(0, list(table.columns))
    widths = [max([0, *(len(r[c]) for r in rows)]) for c in range(len(table.columns))]
    mark = bool(table.marked)
    if width is not None:
        widths = _fitted_widths(widths, numeric, width - (2 if mark else 0))
    lines = []
    for number, row in enumerate(rows):
        if header:
            number -= 1  # the header is no row of the table's
        cells = [
            value.rjust(widths[c]) if numeric[c] else _cut(value, widths[c]).ljust(widths[c])
            for c, value in enumerate(row)
        ]
        prefix = ("* " if number in table.marked else "  ") if mark else ""
        lines.append((prefix + "  ".join(cells)).rstrip())
    return lines


NARROWEST_COLUMN = 8


def _fitted_widths(widths: list[int], numeric: list[bool], room: int) -> list[int]:
    """Column widths whose line (two spaces between columns) fits `room`, taken a cell at
    a time from the widest text column; none goes below `NARROWEST_COLUMN`."""
    fitted = list(widths)
    over = sum(fitted) + 2 * (len(fitted) - 1) - room
    while over > 0:
        shrinkable = [c for c, w in enumerate(fitted) if not numeric[c] and w > NARROWEST_COLUMN]
        if not shrinkable:
            break
        widest = max(shrinkable, key=lambda c: fitted[c])
        fitted[widest] -= 1
        over -= 1
    return fitted


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


def highlighted(pieces: Sequence[tuple[str, bool]]) -> Text:
    """(text, matched) pieces on one line, the matched words bold (see `one_line_pieces`)."""
    from rich.text import Text

    from ctxchat.views.search_hits import one_line_pieces

    return Text.assemble(
        *((text, "bold" if matched else "") for text, matched in one_line_pieces(pieces))
    )


def _row_text(line: str, last: Cell, bold: bool) -> Text:
    """A table line; a `Marked` last cell with its words bold rather than between **
    (nothing after it needs to stay aligned)."""
    from rich.text import Text

    from ctxchat.services.commands import Marked

    if not (bold and isinstance(last, Marked)):
        return Text(line)
    return Text(line[: len(line) - len(cell_text(last))]) + highlighted(last.pieces)


BAR_STYLES = ("cyan", "magenta", "green", "yellow", "blue", "red", "bright_cyan")


def gauge_cells(gauge: Gauge, width: int) -> list[tuple[str, int]]:
    """Each part's share of a bar `width` cells wide: at least one cell for a part that is
    there at all, the widest part giving back what rounding added."""
    total = gauge.total or 1
    cells = [
        (name, max(1, round(tokens * width / total)) if tokens else 0)
        for name, tokens in gauge.parts
    ]
    over = sum(count for _, count in cells) - width
    if cells and over:
        widest = max(range(len(cells)), key=lambda i: cells[i][1])
        name, count = cells[widest]
        cells[widest] = (name, max(0, count - over))
    return cells


def print_gauge(console: Console, gauge: Gauge) -> None:
    """One bar split by source and a legend with each part's tokens: colours on a terminal
    that has them, each part's initial where there are none (NO_COLOR, a pipe)."""
    from rich.text import Text

    colour = console.color_system is not None and not console.no_color
    tokens = dict(gauge.parts)
    bar = Text("[")
    legend = Text()
    for number, (name, count) in enumerate(gauge_cells(gauge, max(10, min(60, console.width - 2)))):
        style = "dim" if name == "free" else BAR_STYLES[number % len(BAR_STYLES)]
        mark = "·" if name == "free" else ("█" if colour else name[0])
        bar.append(mark * count, style=style if colour else "")
        key = "■" if colour and name != "free" else mark
        legend.append(("  " if number else "") + f"{key} {name} {tokens[name]:,}", style=style)
    bar.append("]")
    console.print(bar)
    console.print(legend)


def print_result(console: Console, result: CommandResult, *, keys_help: bool = False) -> None:
    from rich.text import Text

    from ctxchat.services.commands import Gauge, Note

    for block in result.blocks:
        if isinstance(block, Note):
            console.print(Text(terminal_safe(block.text), style=STYLES[block.tone]))
            continue
        if isinstance(block, Gauge):
            print_gauge(console, block)
            continue
        if block.title:
            console.print(Text(f"{block.title}:"))
        head, *rows = table_lines(block, header=True)
        console.print(Text(head, style="dim"))
        bold = console.color_system is not None and not console.no_color
        for line, row in zip(rows, block.rows, strict=True):
            console.print(_row_text(line, row[-1] if row else None, bold))
    if keys_help:
        console.print(Text(KEYS_HELP))
