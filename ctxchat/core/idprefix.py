"""Short references to long ids, as git shows commits: the shortest start of each id that
no other id shares, never shorter than a minimum.

Ids stay ULIDs (they sort by time). A ULID's first ten characters are its millisecond, so
ids made in one burst share most of them: a prefix is as long as it must be to tell them
apart, and the minimum keeps it from changing whenever one more id arrives.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

MIN_PREFIX = 6


def unique_prefixes(ids: Iterable[str], minimum: int = MIN_PREFIX) -> dict[str, str]:
    """Each id's shortest prefix (at least `minimum` characters) that starts no other id,
    compared without case, as references are matched."""
    ordered = sorted(set(ids), key=str.upper)
    keys = [i.upper() for i in ordered]
    found: dict[str, str] = {}
    for number, current in enumerate(ordered):
        # In sorted order the id sharing the longest start with this one is a neighbour.
        neighbours = keys[max(0, number - 1) : number] + keys[number + 1 : number + 2]
        shared = max((_common(keys[number], other) for other in neighbours), default=0)
        found[current] = current[: max(minimum, shared + 1)]
    return found


def matching(ref: str, ids: Sequence[str]) -> list[str]:
    """The ids `ref` is the whole of or a prefix of, without case; an exact id alone."""
    wanted = ref.strip().upper()
    if not wanted:
        return []
    exact = [i for i in ids if i.upper() == wanted]
    if exact:
        return exact[:1]
    return sorted(i for i in ids if i.upper().startswith(wanted))


def _common(a: str, b: str) -> int:
    length = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        length += 1
    return length
