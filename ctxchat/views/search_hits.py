"""Search hits as text: a header line (session, date, role, title), a one-line snippet
whose matched words stand between ** (what a pipe, a model and a REPL table show; a
terminal bolds them instead, see `ctxchat.cli.search_view`), and the neighbouring turn on
a line of its own: the reply to a user's message, or what an assistant's answered."""

from __future__ import annotations

from collections.abc import Sequence

from ctxchat.core.sanitize import one_line
from ctxchat.core.search import SessionHit
from ctxchat.core.text import TITLE_SHOWN, local_time, title_or_untitled

MARK = "**"
NEIGHBOUR_SHOWN = 200  # characters of the neighbouring turn on its line


def hit_header(hit: SessionHit) -> str:
    title = one_line(title_or_untitled(hit.title), TITLE_SHOWN)
    return f'{hit.session_id}  {local_time(hit.created_at)}  {hit.role}  "{title}"'


def marked_snippet(hit: SessionHit) -> str:
    """The snippet on one line, each matched word between **."""
    return marked_text(hit.snippet)


def marked_text(pieces: Sequence[tuple[str, bool]]) -> str:
    """(text, matched) pieces on one line, each matched word between **."""
    return "".join(
        f"{MARK}{text}{MARK}" if matched else text for text, matched in one_line_pieces(pieces)
    )


def one_line_pieces(pieces: Sequence[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """(text, matched) pieces made one line: whitespace runs one space, kept between the
    words around a match, none at either end. What both the marked text and a terminal's
    bold rendering show."""
    flat = [(one_line(text) if matched else _flat_piece(text), matched) for text, matched in pieces]
    if flat:
        flat[0] = (flat[0][0].lstrip(), flat[0][1])
        flat[-1] = (flat[-1][0].rstrip(), flat[-1][1])
    return [(text, matched) for text, matched in flat if text]


def _flat_piece(text: str) -> str:
    """Whitespace runs made one space, but kept at either end: the words around a match."""
    flat = one_line(text)
    if not flat:
        return " " if text else ""
    return (" " if text[:1].isspace() else "") + flat + (" " if text[-1:].isspace() else "")


def neighbour_line(hit: SessionHit) -> str | None:
    """The neighbouring turn as one line: `reply: ...` or `replying to: ...`."""
    if hit.neighbour is None:
        return None
    label = "reply" if hit.role == "user" else f"replying to ({hit.neighbour.role})"
    return f"{label}: {one_line(hit.neighbour.text, NEIGHBOUR_SHOWN)}"


def hits_text(hits: Sequence[SessionHit]) -> str:
    """Every hit as two lines, three with its neighbouring turn, for a model or a pipe."""
    lines: list[str] = []
    for hit in hits:
        lines += [hit_header(hit), f"    {marked_snippet(hit)}"]
        neighbour = neighbour_line(hit)
        if neighbour is not None:
            lines.append(f"    {neighbour}")
    return "\n".join(lines)
