"""Text every store can keep: NUL and lone surrogates become U+FFFD as a turn is made.

The two backends disagreed: PostgreSQL refuses NUL in text columns ("shown, then not
saved"), SQLite kept it; a lone surrogate (a model's JSON may carry `"\\ud800"` escapes,
a pipe decoded with `surrogateescape` carries `\\udc80`) cannot be encoded as UTF-8 at
all, and failed the turn in whatever wrote it first. Decided once, for both: the engine
replaces them in the turn's input and in everything the model and the tools produce,
before anything counts, shows or stores it, so the turn is never lost over a character
no reader could use, and the two backends hold the same text.
"""

from __future__ import annotations

import dataclasses
import re

from ctxchat.core.messages import (
    ImagePart,
    Message,
    Part,
    ReasoningPart,
    TextPart,
    ToolCallPart,
)

# A valid surrogate pair in a str is two lone surrogates to UTF-8 too: every one goes.
UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
REPLACEMENT = "\ufffd"


def storable(text: str) -> str:
    """`text` with each NUL and surrogate code point replaced by U+FFFD."""
    if text.isascii() and "\x00" not in text:
        return text
    return UNSTORABLE.sub(REPLACEMENT, text)


def storable_message(message: Message) -> Message:
    """`message` (the same object when nothing needed replacing) with storable text."""
    parts = tuple(_storable_part(p) for p in message.parts)
    if all(new is old for new, old in zip(parts, message.parts, strict=True)):
        return message
    return dataclasses.replace(message, parts=parts)


def _storable_part(part: Part) -> Part:
    if isinstance(part, ImagePart):  # its data is base64, ASCII; its name is a path's
        name = storable(part.name)
        return part if name == part.name else dataclasses.replace(part, name=name)
    if isinstance(part, TextPart | ReasoningPart):
        text = storable(part.text)
        return part if text == part.text else dataclasses.replace(part, text=text)
    if isinstance(part, ToolCallPart):
        arguments = storable(part.arguments)
        return (
            part if arguments == part.arguments else dataclasses.replace(part, arguments=arguments)
        )
    content = storable(part.content)
    return part if content == part.content else dataclasses.replace(part, content=content)
