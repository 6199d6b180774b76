"""What `ctxchat import` asks of user memory: its secret screen for every imported
message, and learning from the user's own imported words (`--learn`).

Learning from an import is narrower than learning from a turn, since the words are old:
only `add` ops are taken (a "forget ..." or "not anymore" said to another tool long ago is
about that tool's memory, not this one), and none for a single-valued slot the memory
already holds (what the memory holds now was said more recently than anything imported,
or says the same), nor from a clause whose secret the screen masked. Within the import,
later messages replace earlier ones as in a chat. The rules extractor reads them: offline
and free, whatever `extractor` the provider has, since an import may hold thousands of
messages.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from ctxchat.kit import LearnItem

if TYPE_CHECKING:
    from .changes import Change
    from .factset import FactSet
    from .ops import Op


def mask_secrets(text: str) -> tuple[str, int]:
    """`text` with each secret the screen catches replaced by `[secret withheld]`, and how
    many spans were."""
    from .secrets import WITHHELD, looks_secret, withhold_secrets

    if not text or not looks_secret(text):
        return text, 0
    masked = withhold_secrets(text)
    return masked, masked.count(WITHHELD) - text.count(WITHHELD)


def importable_ops(item: LearnItem, held: Callable[[str], bool]) -> list[Op]:
    """The ops of `item` an import may apply; `held(slot)`: the memory already holds that
    single-valued slot."""
    from . import extract_rules, slot_info
    from .secrets import WITHHELD

    kept = []
    for op in extract_rules(item.text).ops:
        if op.kind != "add" or WITHHELD in op.value or WITHHELD in op.evidence:
            continue  # a masked secret is no fact about the user
        if op.slot is not None and slot_info(op.slot).kind == "single" and held(op.slot):
            continue
        kept.append(op)
    return kept


def learn(facts: FactSet, items: Sequence[LearnItem], held: Callable[[str], bool]) -> list[Change]:
    """Apply each item's importable ops to `facts` in order; the changes."""
    from . import Provenance, apply_ops

    now = datetime.now(UTC)
    changes: list[Change] = []
    for item in items:
        ops = importable_ops(item, held)
        if ops:
            provenance = Provenance(item.session_id, item.message_id)
            changes.extend(apply_ops(facts, ops, now=now, provenance=provenance))
    return changes


def held_slots(facts: FactSet) -> Callable[[str], bool]:
    """Which slots hold an active fact now (before anything of the import is applied)."""
    slots = {f.slot for f in facts.active() if f.slot is not None}
    return lambda slot: slot in slots
