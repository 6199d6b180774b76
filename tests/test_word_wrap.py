"""The word wrap of one-shot replies on a terminal (`ctxchat.cli.wrap`), fed as a stream."""

from __future__ import annotations

from ctxchat.cli.wrap import WordWrap


def wrapped(text: str, width: int, piece: int) -> str:
    wrap = WordWrap(width)
    out = [wrap.feed(text[i : i + piece]) for i in range(0, len(text), piece)]
    return "".join(out) + wrap.flush()


def test_lines_break_between_words_however_the_text_is_cut_into_deltas() -> None:
    text = "the quick brown fox jumps over the lazy dog\nand then it rests"
    for piece in (1, 3, 100):
        assert wrapped(text, 10, piece) == (
            "the quick\nbrown fox\njumps over\nthe lazy\ndog\nand then\nit rests"
        )


def test_a_word_longer_than_a_line_is_cut_at_the_width() -> None:
    assert wrapped("ab internationalisation cd", 8, 2) == "ab\ninternat\nionalisa\ntion cd"


def test_wide_characters_take_two_cells() -> None:
    assert wrapped("日本語 日本語", 7, 1) == "日本語\n日本語"


def test_a_line_written_around_it_moves_its_column() -> None:
    wrap = WordWrap(10)
    wrap.wrote_raw("<think>\n")
    assert wrap.feed("0123456789 x") + wrap.flush() == "0123456789\nx"
