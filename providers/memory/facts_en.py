"""English fact rules: first-person statements, one family of patterns per kind of fact.

Order matters: at a clause start the first rule that makes ops wins, so the narrower
patterns ("I have a cat allergy") come before the wider ones ("I have a cat").
"""

from __future__ import annotations

from .en_base import CONDITION, PET, REL, b
from .facts_en_life import LIFE
from .facts_en_self import SELF
from .grammar import Rule

FACTS: tuple[Rule, ...] = SELF + LIFE

__all__ = ["CONDITION", "FACTS", "PET", "REL", "b"]
