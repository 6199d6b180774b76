"""Leads before a colon that introduce the user's own words ("Quick note: …", "I need to fix
something I said: …"), not a text to work on or someone else's words."""

from __future__ import annotations

import re

# A lead before a colon that introduces the user's own words, not a text to work on.
OWN_LEAD = re.compile(
    r"(?:(?:ah|oh|ok|okay|so|sorry|oops),?\s+)?(?:i (?:need|want|have) to|let me|i should|"
    r"i'd like to)\s+(?:fix|correct|clarify|amend|update)\s+(?:something|what|that|one thing)"
    r"(?:\s+i\s+(?:said|wrote|told you|mentioned)(?:\s+(?:earlier|before))?)?|"
    r"(?:quick|side|small|one|just a)?\s*(?:note|fyi)",
    re.IGNORECASE,
)


def lead_before(message: str, colon: int) -> str:
    """The words of the sentence before a colon."""
    cut = max(message.rfind(mark, 0, colon) for mark in ".!?\n")
    return message[cut + 1 : colon].strip()


# A few words and a colon before what is told.
TALK_LEAD = re.compile(r"\s*(?P<lead>[^.!?:\n]{3,60}):\s+(?=\S)")
