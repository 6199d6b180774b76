"""Word wrap for text streamed to a terminal, as it arrives.

A terminal breaks a line at its last column, in the middle of a word; the REPL's console
wraps at word boundaries, and a one-shot reply on a terminal must read the same. Text is
held back only as long as the word being written: a word is placed once the space after
it (or the end) shows it whole. Pipes get the text as it is.
"""

from __future__ import annotations


class WordWrap:
    """Breaks streamed text into lines of at most `width` cells, between words. A word
    longer than a line is cut at the width, as nothing better fits."""

    def __init__(self, width: int) -> None:
        self.width = max(1, width)
        self.column = 0
        self.spaces = 0  # blanks after the last word placed, not written yet
        self.word = ""

    def feed(self, text: str) -> str:
        out: list[str] = []
        for char in text:
            if char == "\n":
                out.append(self._place_word())
                out.append("\n")
                self.column = self.spaces = 0
            elif char in " \t":
                out.append(self._place_word())
                self.spaces += 1 if char == " " else 8 - (self.column + self.spaces) % 8
            else:
                self.word += char
        return "".join(out)

    def flush(self) -> str:
        """The word held back, at the end of the text."""
        return self._place_word()

    def wrote_raw(self, text: str) -> None:
        """Text written around the wrapper (a marker line): where its column is now."""
        if not text:
            return
        from rich.cells import cell_len

        last = text.rsplit("\n", 1)
        self.column = cell_len(last[-1]) if len(last) > 1 else self.column + cell_len(text)
        self.spaces = 0

    def _place_word(self) -> str:
        if not self.word:
            return ""
        from rich.cells import cell_len

        word, self.word = self.word, ""
        out: list[str] = []
        size = cell_len(word)
        if self.column and self.column + self.spaces + size > self.width:
            out.append("\n")
            self.column = 0
        elif self.spaces:
            out.append(" " * self.spaces)
            self.column += self.spaces
        self.spaces = 0
        while self.column + size > self.width:  # longer than a whole line: cut it
            room = self.width - self.column
            head = _fit(word, room)
            out.append(head + "\n")
            word = word[len(head) :]
            size = cell_len(word)
            self.column = 0
        out.append(word)
        self.column += size
        return "".join(out)


def _fit(word: str, cells: int) -> str:
    """The longest start of `word` that takes at most `cells` cells (at least a character,
    so a wide character on a narrow line still moves on)."""
    from rich.cells import cell_len

    end = 1
    while end < len(word) and cell_len(word[: end + 1]) <= cells:
        end += 1
    return word[:end]
