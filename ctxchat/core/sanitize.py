"""Text from a model, a server or a stored message, made safe for whoever reads it.

One rule everywhere such text reaches a person: a terminal (the REPL, `sessions show`, a
reply piped into `tee`, an error line on stderr) or a Markdown file (`sessions export`, the
audit's Markdown). Escape sequences are removed whole, other control characters are shown
as visible symbols, and bidirectional embedding and isolate controls are dropped, since
they reorder what is shown (a title that reads one way and is another). Only JSON outputs
keep the raw text, where every such character is written as a `\\u` escape (`json_text`).

Piped output is sanitised too: the reader of a pipe is usually a terminal a moment later
(`ctxchat run q | tee out`, `| less -R`).
"""

from __future__ import annotations

import json
import re
from typing import Any

from ctxchat.core.text import preview

# Whole escape sequences are dropped (a colour, a window title, a screen clear), so what is
# left reads as the text around them: CSI, OSC ended by BEL or ST, DCS/SOS/PM/APC strings,
# and the short escapes. The introducer of an unended string ([ ] P X ^ _) is not a short
# escape: its ESC is shown instead, so the text after it stays in view.
_ESCAPE_SEQUENCE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"
    r"|\x1b[PX^_][^\x1b]*\x1b\\"
    r"|\x1b[ -/]*[0-OQ-WYZ\\`-~]"
)
# The start of one of those, cut off by the end of what has arrived so far.
_PARTIAL_ESCAPE = re.compile(
    r"\x1b(?:\[[0-?]*[ -/]*|\][^\x07\x1b]*\x1b?|[PX^_][^\x1b]*\x1b?|[ -/]*)?"
)
# C0 controls but newline and tab, DEL, and the C1 controls some terminals obey too.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# Bidirectional embeddings, overrides (U+202A-U+202E) and isolates (U+2066-U+2069).
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
# What a JSON output writes as an escape although JSON allows it raw: DEL, the C1
# controls, the bidi controls, and the line and paragraph separators.
_JSON_INVISIBLE = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
HELD_MAX = 256  # an unterminated sequence longer than this is shown, not waited for


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # the Unicode control pictures: ␛ for ESC, ␍ for CR...
    return "\u2421" if code == 0x7F else "\ufffd"


def terminal_safe(text: str) -> str:
    """`text` as it may reach a terminal or a Markdown file: escape sequences removed, any
    other control character but newline and tab shown as a visible symbol, bidi controls
    dropped. Model output, titles and stored messages can hold anything; written raw they
    could recolour, retitle or clear the user's terminal, hide text behind a carriage
    return, or show it in another order than it is stored."""
    text = _ESCAPE_SEQUENCE.sub("", text.replace("\r\n", "\n"))
    return _CONTROL.sub(_visible, _BIDI.sub("", text))


def one_line(text: str, limit: int | None = None) -> str:
    """`terminal_safe` for a table cell or a single line: every run of whitespace (tabs and
    newlines included) becomes one space; cut to `limit` characters when given."""
    flat = " ".join(terminal_safe(text).split())
    return preview(flat, limit) if limit is not None else flat


def json_text(value: Any, *, indent: int | None = None) -> str:
    """`value` as JSON, non-ASCII text kept readable, but every character a terminal could
    act on or that reorders text written as a `\\u` escape (JSON escapes the C0 controls
    already; DEL, C1 and bidi controls it would leave raw). Only string contents can hold
    them, so replacing them in the output keeps it valid JSON."""
    text = json.dumps(value, ensure_ascii=False, indent=indent)
    return _JSON_INVISIBLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class SafeStream:
    """`terminal_safe` over text that arrives in pieces: an escape sequence (or a CR before
    its LF) split between two pieces is held back until it is complete, so it is removed
    whole instead of showing half of it."""

    def __init__(self) -> None:
        self.held = ""

    def feed(self, piece: str) -> str:
        text = self.held + piece
        self.held = ""
        window = max(0, len(text) - HELD_MAX)
        start = text.find("\x1b", window)
        while start != -1:
            if _PARTIAL_ESCAPE.fullmatch(text, start):
                text, self.held = text[:start], text[start:]
                break
            start = text.find("\x1b", start + 1)
        if text.endswith("\r"):
            text, self.held = text[:-1], "\r" + self.held
        return terminal_safe(text)

    def flush(self) -> str:
        text, self.held = self.held, ""
        return terminal_safe(text)
