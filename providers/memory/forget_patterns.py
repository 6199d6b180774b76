"""The shapes of a request to forget (`forget_request.py`): what is to leave the memory, what
is to be kept, "the rest" and "everything". Patterns only, as in `clause_patterns`.
"""

from __future__ import annotations

import re

# "take Pip off the list", "keep my kid's details out of this": the memory is the place.
FORGET_AROUND = re.compile(
    r"\b(?:take|leave|keep|cross)\s+(?P<target>.{1,50}?)\s+(?:off (?:the|your|my) "
    r"(?:list|memory|notes|file)|out of (?:this|it|your memory|memory|my file|your notes|"
    r"there)|out)(?:,?\s*please)?\s*[.!]?$"
    # Whatever the verb, what is to leave the memory: "scratch where I live from your memory".
    # A verb of fetching from the memory ("pull my address from your notes") is no removal.
    r"|^(?:please\s+|can you\s+|could you\s+)?(?!(?:please|can|could|get|got|pull|fetch|"
    r"retrieve|recall|grab|use|read|look|check|find|found|learn|know|copy|quote|take|bring|"
    r"tell)\w*\b)"
    r"(?![\w'’]*(?:ed|ing)\b)\w+\s+(?P<from>.{1,60}?)\s+(?:from|out of|off)\s+"
    r"(?:your|the|ctxchat's)\s+(?:memory|memories|notes|records?|files?)\b"
    # "You can let the chess thing go": the thing let go of sits between the verb's parts.
    r"|\blet\s+(?P<let>(?:the|my|that|those|these)\b.{1,40}?)\s+go(?:,?\s*please)?\s*[.!]?$",
    re.IGNORECASE,
)
THE_REST = re.compile(
    r"(?:the rest|everything else|all (?:the )?(?:rest|others?|else)|the others?|anything "
    r"else|all other \w+)\b",
    re.IGNORECASE,
)
ONLY_KEEP = re.compile(
    r"(?:please\s+)?(?:only keep|keep only|just keep|keep just|remember only|only remember)\s+"
    r"(?P<what>[^;,.!]+?)(?:[,;]?\s*(?:and\s+)?(?:nothing else|(?:forget|drop|lose|delete) "
    r"(?:the rest|everything else)))?\s*[.!]?",
    re.IGNORECASE,
)
KEEP = re.compile(r"\b(?:keep|behalte|garde|guarda|mantén)\s+(?P<what>[^;,.!]+)", re.I)
EVERYTHING = re.compile(
    r"^(?:everything|all|anything)\b.{0,30}\b(?:about me|you know|you've (?:saved|stored|"
    r"learnt|learned)|you have)|^(?:everything|all of it|it all)$"
    # "Forget me completely": the user, whole.
    r"|^me(?:\s+(?:completely|entirely|altogether|totally))?$",
    re.IGNORECASE,
)
FORGET_TARGET_TRIM = re.compile(
    r"^(?:that|about|the fact that|the|my|me|everything|anything|all|of|stuff|"
    r"thing|what|you know|you've|you have|saved|stored|said|i said|i told you|"
    r"that i|dass|que|de|du|des|la|le|les|lo)\b\s*",
    re.IGNORECASE,
)
