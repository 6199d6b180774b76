"""What one message says of a thing that holds one value is one statement: the reader's
statements of a message, merged where they are one."""

from __future__ import annotations

import dataclasses
import re

from .change_patterns import CHANGE
from .ops import Op
from .slots import slot_info


def one_statement_each(ops: list[Op], message: str) -> list[Op]:
    """ "Nurse. 12-hour shifts, mostly ICU.": what one message says of a thing that holds one
    value is one statement, not a first one that the next replaces; a change said outright
    ("…, moved to Leeds") still replaces."""
    merged: list[Op] = []
    for op in ops:
        same = next(
            (
                i
                for i, m in enumerate(merged)
                if op.kind == m.kind == "add"
                and op.slot is not None
                and m.slot == op.slot
                and slot_info(op.slot).kind == "single"
                and op.replaces is None is m.replaces
                and not CHANGE.search(op.value)
            ),
            None,
        )
        if same is None:
            merged.append(op)
            continue
        first = merged[same]
        merged[same] = dataclasses.replace(first, value=_joined(message, first.value, op.value))
    # "My sister lives in Rome, worth visiting?": "my sister" named again inside the request
    # says nothing the statement did not.
    adds = [op for op in merged if op.kind == "add" and op.replaces is None]
    kept: list[Op] = []
    for op in merged:
        said = op.value.casefold()
        within = op in adds and any(
            other.slot == op.slot
            and said in other.value.casefold()
            and (len(other.value) > len(op.value) or other in kept)
            for other in adds
            if other is not op
        )
        if not within:
            kept.append(op)
    return kept


def _joined(message: str, first: str, second: str) -> str:
    """Two statements as one, as written when only punctuation or "and" stands between them
    ("dairy-free, nut-free")."""
    if second in first:
        return first
    if first in second:
        return second
    at = message.find(first)
    then = message.find(second, at + len(first)) if at >= 0 else -1
    if then >= 0 and _JUST_JOINED.fullmatch(message, at + len(first), then):
        return message[at : then + len(second)]
    return f"{first.rstrip()} {second}"


_JUST_JOINED = re.compile(r"[\s,;.!&]*(?:and\s*)?")
