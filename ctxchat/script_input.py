"""Piped input for `ctxchat run` in scripting mode: bytes in, turns out.

Turns are produced as stdin delivers them, so a program can feed ctxchat a line, read the
reply, and only then write the next line (a co-process); nothing waits for end-of-file
except a prompt argument, which makes all of stdin part of its one turn.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from ctxchat.errors import UsageError

# One message; about 250k tokens of English, already past most models' context windows.
DEFAULT_MAX_INPUT_BYTES = 1_000_000
REPLACEMENT = "\ufffd"
BOM = b"\xef\xbb\xbf"
EMPTY_STDIN = (
    "nothing to send: stdin is empty (pipe text in, one turn per line, or give a prompt argument)"
)


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


def prompt_turn(
    prompt: str,
    raw: bytes,
    *,
    separator: str | None = None,
    max_bytes: int = DEFAULT_MAX_INPUT_BYTES,
) -> tuple[str, str | None]:
    """The one turn of `ctxchat run PROMPT`: the prompt, then whatever stdin held."""
    if separator is not None:
        raise UsageError(
            "--turns-separator splits stdin into turns; it cannot be combined with a prompt "
            "argument, which makes one turn of it"
        )
    if not prompt.strip():
        raise UsageError("the prompt argument is empty")
    text, warning = decode_input(raw)
    body = text.strip("\n")
    turn = f"{prompt}\n\n{body}" if body.strip() else prompt
    check_size(turn, max_bytes)
    return turn, warning
