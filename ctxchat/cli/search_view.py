"""`ctxchat sessions search`'s output: each hit as a header line and its snippet, matched
words in bold on a terminal and between ** on a pipe; or a JSON array."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ctxchat.core.sanitize import json_text, one_line
from ctxchat.core.search import SessionHit
from ctxchat.views.search_hits import flat_piece, hit_header, hits_text

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
        line = Text("    ")
        for text, matched in hit.snippet:
            if matched:
                line.append(one_line(text), "bold")
            else:
                line.append(flat_piece(text))
        console.print(line)
