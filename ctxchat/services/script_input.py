"""Piped input for `ctxchat run` in scripting mode: bytes in, turns out.

By default all of stdin is one turn (`cat notes.md | ctxchat run`: the document is the
message). With `--lines` each line is a turn, and with `--turns-separator` each block
between marker lines: those turns are produced as stdin delivers them, so a program can
feed ctxchat a line, read the reply, and only then write the next (a co-process). A prompt
argument makes stdin a document attached to it, in the one turn.

Reading stops at the size limit: a message too large is refused without holding all of it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import BinaryIO

from ctxchat.core.errors import UsageError
from ctxchat.core.messages import Message, TextPart
from ctxchat.core.text import DEFAULT_MAX_INPUT_BYTES

REPLACEMENT = "\ufffd"
BOM = b"\xef\xbb\xbf"
EMPTY_STDIN = "nothing to send: stdin is empty (pipe text in, or give a prompt argument)"
TOO_LARGE = "{what} is over the limit of {limit:,} bytes (raise with --max-input)"


def _not_utf8(name: str, line: int, replaced: int) -> str:
    plural = "s" if replaced != 1 else ""
    return (
        f"{name} is not valid UTF-8 (first bad byte on line {line}); "
        f"{replaced} invalid sequence{plural} replaced with U+FFFD"
    )


def _decode(raw: bytes) -> tuple[str, int | None, int]:
    """Text, the offset of the first invalid byte (or None), and how many were replaced."""
    try:
        return raw.decode("utf-8"), None, 0
    except UnicodeDecodeError as exc:
        text = raw.decode("utf-8", errors="replace")
        replaced = text.count(REPLACEMENT) - raw.count(REPLACEMENT.encode("utf-8"))
        return text, exc.start, replaced


def decode_input(raw: bytes, *, name: str = "stdin") -> tuple[str, str | None]:
    """All of the input as text and, when it was not UTF-8, a warning saying where."""
    text, bad_at, replaced = _decode(raw.removeprefix(BOM))
    warning = None
    if bad_at is not None:
        warning = _not_utf8(name, raw[:bad_at].count(b"\n") + 1, replaced)
    return text.replace("\r\n", "\n"), warning


def _turns(lines: Iterable[str], separator: str | None) -> Iterator[str]:
    """One turn per non-blank line, or per block between lines equal to `separator`."""
    if separator is None:
        for line in lines:
            if line.strip():
                yield line.rstrip()
        return
    marker = separator.strip()
    block: list[str] = []
    for line in lines:
        if line.strip() != marker:
            block.append(line)
            continue
        turn = "\n".join(block).strip("\n").rstrip()
        block = []
        if turn.strip():
            yield turn
    turn = "\n".join(block).strip("\n").rstrip()
    if turn.strip():
        yield turn


def check_size(text: str, limit: int, what: str = "the message") -> None:
    # Exact byte counts, both in the unit --max-input takes: a rounded "1.0 kB" beside a
    # limit of 1,000 bytes reads as if the message fitted.
    size = len(text.encode("utf-8"))
    if size > limit:
        raise UsageError(
            f"{what} is {size:,} bytes, over the limit of {limit:,} (raise with --max-input)"
        )


class StdinTurns:
    """The turns in a stream of byte lines, each yielded as soon as it is complete.

    Invalid UTF-8 is replaced and reported once through `on_warning`; a turn over the size
    limit raises `UsageError` (turns before it have been sent by then, and stay saved); a
    stream with no turn at all raises it at end-of-file.
    """

    def __init__(
        self,
        lines: Iterable[bytes],
        *,
        separator: str | None = None,
        max_bytes: int = DEFAULT_MAX_INPUT_BYTES,
        on_warning: Callable[[str], None] | None = None,
        name: str = "stdin",
    ) -> None:
        self.lines = lines
        self.separator = separator
        self.max_bytes = max_bytes
        self.on_warning = on_warning or (lambda _text: None)
        self.name = name
        self.warned = False

    def _text_lines(self) -> Iterator[str]:
        for number, raw in enumerate(self.lines, start=1):
            if number == 1:
                raw = raw.removeprefix(BOM)
            text, bad_at, replaced = _decode(raw)
            if bad_at is not None and not self.warned:
                self.warned = True
                self.on_warning(_not_utf8(self.name, number, replaced))
            yield text.removesuffix("\n").removesuffix("\r")

    def __iter__(self) -> Iterator[str]:
        count = 0
        for turn in _turns(self._text_lines(), self.separator):
            count += 1
            check_size(turn, self.max_bytes, f"turn {count}")
            yield turn
        if count == 0:
            raise UsageError(EMPTY_STDIN)


def capped_lines(stream: BinaryIO, limit: int) -> Iterator[bytes]:
    """The lines of `stream`, each read only up to `limit` bytes: a longer one is refused
    (`UsageError`) before the rest of it is read."""
    number = 0
    while True:
        line = stream.readline(limit + 2)  # room for the line's own CR LF
        if not line:
            return
        number += 1
        if len(line.rstrip(b"\r\n")) > limit:
            raise UsageError(TOO_LARGE.format(what=f"line {number} of stdin", limit=limit))
        yield line


def read_capped(stream: BinaryIO, limit: int, what: str = "stdin") -> bytes:
    """All of `stream`, or `UsageError` as soon as it holds more than `limit` bytes."""
    raw = stream.read(limit + 1)
    if len(raw) > limit:
        raise UsageError(TOO_LARGE.format(what=what, limit=limit))
    return raw


def stdin_turn(
    raw: bytes, *, max_bytes: int = DEFAULT_MAX_INPUT_BYTES
) -> tuple[Message, str | None]:
    """All of stdin as one turn, the user's message."""
    text, warning = decode_input(raw)
    body = text.strip("\n")
    if not body.strip():
        raise UsageError(EMPTY_STDIN)
    check_size(body, max_bytes)
    return Message.user(body, origin="stdin"), warning


def prompt_turn(
    prompt: str,
    raw: bytes,
    *,
    separator: str | None = None,
    max_bytes: int = DEFAULT_MAX_INPUT_BYTES,
) -> tuple[Message, str | None]:
    """The one turn of `ctxchat run PROMPT`: the prompt, then whatever stdin held, as a
    document attached to it (its own part, so providers can tell it from the prompt)."""
    if separator is not None:
        raise UsageError(
            "--turns-separator splits stdin into turns; it cannot be combined with a prompt "
            "argument, which makes one turn of it"
        )
    if not prompt.strip():
        raise UsageError("the prompt argument is empty")
    text, warning = decode_input(raw)
    body = text.strip("\n")
    parts = [TextPart(prompt, "argument")]
    if body.strip():
        parts.append(TextPart(body, "document"))
    message = Message("user", tuple(parts))
    check_size(message.text, max_bytes)
    return message, warning
