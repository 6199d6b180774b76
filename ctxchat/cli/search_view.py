"""`ctxchat sessions search`'s output: each hit as a header line and its snippet, matched
words in bold on a terminal and between ** on a pipe; or a JSON array."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ctxchat.cli.command_view import highlighted
from ctxchat.core.sanitize import json_text
from ctxchat.core.search import SessionHit
from ctxchat.views.search_hits import hit_header, hits_text, neighbour_line

if TYPE_CHECKING:
    from rich.console import Console


def print_hits(console: Console, hits: Sequence[SessionHit], *, json_output: bool) -> None:
    import sys

    if json_output:
        print(json_text([h.to_dict() for h in hits], indent=2))
        return
    if not hits:
        sys.stderr.write("no stored message holds those words\n")
        return
    if not console.is_terminal:
        print(hits_text(hits))
        return
    from rich.text import Text

    for hit in hits:
        console.print(Text(hit_header(hit), style="dim"), soft_wrap=True)
        console.print(Text("    ") + highlighted(hit.snippet))
        neighbour = neighbour_line(hit)
        if neighbour is not None:
            console.print(Text(f"    {neighbour}", style="dim"), soft_wrap=True)
