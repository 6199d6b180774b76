"""Forgetting everywhere: what a forget leaves behind to find the copies of a value, without
keeping the value.

When the user forgets a fact, copies of its value may live on outside the memory store: in
a rolling summary, in the audit's record of the blocks that recalled it. A `Forgetting`
holds, for each forgotten value, only its length in words and a digest of those words
(case folded), and the date. Any text can then be searched for word runs with the same
digest, and those runs told to a model as values that must not appear, or replaced by the
visible `[forgotten DATE]` marker, so that a reader sees something was taken out and when.

Two capabilities, any provider may implement them (see `ctxchat.core.capabilities`):
`ForgetSource` (the memory: the forgettings since a time) and `ValueForgetter` (a store of
copies, such as the audit: replace these values in what you keep, told the values by
`forget_elsewhere` in the moment of the forget, never afterwards).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ctxchat.core.capabilities import ForgottenSources, ValueForgetter

_WORD = re.compile(r"\w+")


def digest(value: str) -> str:
    """The digest of a value's words: case and punctuation do not change it."""
    words = " ".join(w.casefold() for w in _WORD.findall(value))
    return hashlib.sha256(words.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Forgetting:
    """One forget: when, and (word count, digest) for each value forgotten."""

    at: datetime
    digests: tuple[tuple[int, str], ...]

    @classmethod
    def of(cls, values: Iterable[str], at: datetime) -> Forgetting:
        """Each whole value, and each of its names and numbers on its own (a word with a
        capital or a digit: "at Zorblaxcorp" is also found as "employed by Zorblaxcorp")."""
        found: set[tuple[int, str]] = set()
        for value in values:
            words = _WORD.findall(value)
            if words:
                found.add((len(words), digest(value)))
            found.update(
                (1, digest(w))
                for w in words
                if len(w) > 1 and (w[0].isupper() or any(c.isdigit() for c in w))
            )
        return cls(at, tuple(sorted(found)))

    @property
    def marker(self) -> str:
        return f"[forgotten {self.at:%Y-%m-%d}]"


def _spans(text: str, forgettings: Sequence[Forgetting]) -> list[tuple[int, int, str]]:
    """(start, end, marker) of each forgotten value in `text`, longest first, no overlaps."""
    words = list(_WORD.finditer(text))
    wanted: dict[tuple[int, str], str] = {}
    for forgetting in forgettings:
        for key in forgetting.digests:
            wanted.setdefault(key, forgetting.marker)
    found: list[tuple[int, int, str]] = []
    taken: set[int] = set()
    for length in sorted({n for n, _ in wanted}, reverse=True):
        for i in range(len(words) - length + 1):
            if taken.intersection(range(i, i + length)):
                continue
            run = " ".join(w.group().casefold() for w in words[i : i + length])
            marker = wanted.get((length, hashlib.sha256(run.encode("utf-8")).hexdigest()))
            if marker is not None:
                found.append((words[i].start(), words[i + length - 1].end(), marker))
                taken.update(range(i, i + length))
    return sorted(found)


def forgotten_in(text: str, forgettings: Sequence[Forgetting]) -> list[str]:
    """The forgotten values as `text` writes them, each once."""
    return list(dict.fromkeys(text[start:end] for start, end, _ in _spans(text, forgettings)))


def mark_forgotten(text: str, forgettings: Sequence[Forgetting]) -> tuple[str, int]:
    """`text` with each forgotten value replaced by its marker, and how many were."""
    spans = _spans(text, forgettings)
    for start, end, marker in reversed(spans):
        text = text[:start] + marker + text[end:]
    return text, len(spans)


def forgotten_messages(providers: Iterable[object]) -> set[str]:
    """The ids of every message a forgotten fact came from, over `providers`."""
    found: set[str] = set()
    for provider in providers:
        if isinstance(provider, ForgottenSources):
            found |= provider.forgotten_message_ids()
    return found


# In `RunContext.metadata`: the forgets made during this run, for a provider that records
# the run after the forget happened (the audit's row of the very turn that said "forget").
RUN_KEY = "ctxchat.forgotten"


async def forget_elsewhere(
    providers: Iterable[object],
    values: Sequence[str],
    at: datetime,
    run_metadata: dict[str, Any] | None = None,
) -> Forgetting:
    """Tell every `ValueForgetter` among `providers` to replace `values` (just forgotten,
    at `at`) in its copies, and note the forget in the run's metadata when in a run."""
    forgetting = Forgetting.of(values, at)
    if run_metadata is not None:
        run_metadata.setdefault(RUN_KEY, []).append(forgetting)
    for provider in providers:
        if isinstance(provider, ValueForgetter):
            await provider.forget_values(values, forgetting)
    return forgetting


def forgotten_this_run(run_metadata: dict[str, Any]) -> list[Forgetting]:
    found = run_metadata.get(RUN_KEY, [])
    return [f for f in found if isinstance(f, Forgetting)]
