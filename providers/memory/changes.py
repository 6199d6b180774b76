"""What the update step did: one `Change` an op, for the reply's line and the tests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from .facts import Fact

ChangeKind: TypeAlias = Literal["added", "changed", "retired", "forgotten"]


@dataclass(frozen=True, slots=True)
class Change:
    """What one op did. `fact` is the fact as stored afterwards (for `forgotten`: as it was
    before deletion, so the user can be told what went); `previous` the value it replaced."""

    kind: ChangeKind
    fact: Fact
    previous: str | None = None
