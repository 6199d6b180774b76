"""Stdin to turns for scripting mode (`ctxchat.services.script_input`), without a process."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ctxchat.core.errors import UsageError
from ctxchat.core.messages import OWN_WORDS
from ctxchat.services.script_input import (
    StdinTurns,
    capped_lines,
    decode_input,
    prompt_turn,
    read_capped,
    stdin_turn,
)


def test_valid_utf8_passes_through_without_warning() -> None:
    text, warning = decode_input("naïve ☕\r\nline two".encode())
    assert text == "naïve ☕\nline two"
    assert warning is None


def test_bom_is_dropped() -> None:
    assert decode_input(b"\xef\xbb\xbfhello")[0] == "hello"


def test_invalid_bytes_are_replaced_and_located() -> None:
    text, warning = decode_input(b"fine\nstill fine\nbad \xff\xfe here\nand \xc3")
    assert text == "fine\nstill fine\nbad \ufffd\ufffd here\nand \ufffd"
    assert warning is not None
    assert "line 3" in warning
    assert "3 invalid sequences" in warning


def test_a_real_replacement_character_is_not_counted_as_invalid() -> None:
    _, warning = decode_input("already \ufffd here ".encode() + b"\x80")
    assert warning is not None
    assert "1 invalid sequence replaced" in warning


def turns_of(raw: bytes, separator: str | None = None) -> tuple[list[str], list[str]]:
    warnings: list[str] = []
    lines = raw.splitlines(keepends=True)
    return list(StdinTurns(lines, separator=separator, on_warning=warnings.append)), warnings


def test_lines_are_turns_and_blank_lines_are_skipped() -> None:
    assert turns_of(b"a\n\n  \n b \nc") == (["a", " b", "c"], [])


def test_separator_blocks() -> None:
    text = b"---\n\nfirst\n  indented\n\n --- \nsecond\n---\n---\n"
    assert turns_of(text, "---") == (["first\n  indented", "second"], [])


def test_stdin_lines_become_turns() -> None:
    assert turns_of(b"\xef\xbb\xbfone\r\n\n  \ntwo \nthree") == (["one", "two", "three"], [])
    assert turns_of(b"a\nb\n---\nc\n", separator="---") == (["a\nb", "c"], [])


def test_turns_arrive_before_the_end_of_the_input() -> None:
    def lines() -> Iterator[bytes]:
        yield b"first\n"
        raise AssertionError("read past the first turn")

    assert next(iter(StdinTurns(lines()))) == "first"


def test_invalid_utf8_is_warned_once_with_its_line() -> None:
    turns, warnings = turns_of(b"ok\nbad \xff\nworse \xfe\xfe\n")
    assert turns == ["ok", "bad \ufffd", "worse \ufffd\ufffd"]
    (warning,) = warnings
    assert "line 2" in warning


def test_prompt_then_stdin_is_one_turn_with_the_stdin_a_document() -> None:
    turn, warning = prompt_turn("Summarise:", b"data 1\ndata 2\n")
    assert (turn.text, warning) == ("Summarise:\n\ndata 1\ndata 2", None)
    assert [p.origin for p in turn.parts] == ["argument", "document"]
    assert turn.text_from(OWN_WORDS) == "Summarise:"
    alone, _ = prompt_turn("alone", b"")
    assert [(p.text, p.origin) for p in alone.parts] == [("alone", "argument")]
    turn, warning = prompt_turn("p", b"\x80")
    assert turn.text == "p\n\n\ufffd"
    assert warning is not None


def test_all_of_stdin_is_one_turn_in_the_users_words() -> None:
    turn, _ = stdin_turn(b"line one\nline two\n\n")
    assert [(p.text, p.origin) for p in turn.parts] == [("line one\nline two", "stdin")]
    with pytest.raises(UsageError, match="stdin is empty"):
        stdin_turn(b"\n \n")


def test_reading_stops_at_the_limit() -> None:
    import io

    with pytest.raises(UsageError, match="stdin is over the limit of 10 bytes"):
        read_capped(io.BytesIO(b"x" * 11), 10)
    assert read_capped(io.BytesIO(b"x" * 10), 10) == b"x" * 10
    lines = capped_lines(io.BytesIO(b"short\n" + b"y" * 50 + b"\nnever read\n"), 10)
    assert next(lines) == b"short\n"
    with pytest.raises(UsageError, match="line 2 of stdin is over the limit of 10 bytes"):
        next(lines)


def test_prompt_with_separator_or_empty_prompt_is_refused() -> None:
    with pytest.raises(UsageError, match="turns-separator"):
        prompt_turn("p", b"x", separator="---")
    with pytest.raises(UsageError, match="empty"):
        prompt_turn("  ", b"x")


@pytest.mark.parametrize("raw", [b"", b"\n", b"   \n\t\n", b"---\n---\n"])
def test_nothing_to_send(raw: bytes) -> None:
    separator = "---" if raw.startswith(b"-") else None
    with pytest.raises(UsageError, match="stdin is empty"):
        turns_of(raw, separator=separator)


def test_an_oversized_turn_stops_at_that_turn() -> None:
    reader = iter(StdinTurns([b"short\n", b"x" * 2_000 + b"\n", b"never\n"], max_bytes=1_000))
    assert next(reader) == "short"
    with pytest.raises(UsageError) as caught:
        next(reader)
    assert caught.value.message == (
        "turn 2 is 2,000 bytes, over the limit of 1,000 (raise with --max-input)"
    )


def test_the_limit_counts_bytes_not_characters() -> None:
    prompt_turn("é" * 500, b"", max_bytes=1_000)  # 1000 bytes: at the limit
    with pytest.raises(UsageError, match="--max-input"):
        prompt_turn("é" * 501, b"", max_bytes=1_000)
