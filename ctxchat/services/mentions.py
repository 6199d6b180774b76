"""`@path` in what a person types: a word-initial `@` token naming an existing file or
directory attaches it; every other `@` is text.

Only typed text and a `run` prompt argument are read this way, never piped input or a
role's `{{input}}`: text a program produced must not attach files by mentioning them.
So `me@example.com` (not word-initial) and `@alice` (no such file) stay as they are, and
`@@name` is the escape for a literal `@name`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

# A token starts after whitespace or at the start; punctuation that ends a sentence is
# tried without, so "see @notes.txt." attaches notes.txt.
_TOKEN = re.compile(r"(?<!\S)@(@?)(\S+)")
_TRAILING = ".,;:!?)]}'\""


@dataclass(frozen=True)
class Mentions:
    text: str  # the text to send: escapes undone, mentions left as the person wrote them
    paths: tuple[str, ...]  # what the mentions name, in order, each once


def find_mentions(text: str, cwd: Path) -> Mentions:
    paths: list[str] = []

    def replace(match: re.Match[str]) -> str:
        escaped, word = match.group(1), match.group(2)
        if escaped:
            return "@" + word
        for candidate in (word, word.rstrip(_TRAILING)):
            if candidate and _exists(cwd, candidate):
                if candidate not in paths:
                    paths.append(candidate)
                break
        return match.group(0)

    return Mentions(_TOKEN.sub(replace, text), tuple(paths))


def _exists(cwd: Path, name: str) -> bool:
    path = Path(name).expanduser()
    try:
        return (path if path.is_absolute() else cwd / path).exists()
    except (OSError, ValueError):  # a name too long for the file system, a NUL
        return False
