"""A user's message with its attachments: what `-a`, `/attach` and `@path` add to it.

Attachments are parts after the words they go with, so everything that reads parts (the
budget, the audit, exports, search, fork) sees them, and memory, which reads only the
user's own words, does not learn from them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from ctxchat.core.messages import ImagePart, Message, Part, TextPart
from ctxchat.core.settings import AttachmentSettings
from ctxchat.services.attachments import read_attachments
from ctxchat.services.mentions import find_mentions

# Text a person wrote themselves, where `@path` attaches: typed at the prompt or given as
# the prompt argument. Piped text and pastes are documents: a mention in them is text.
MENTION_ORIGINS = frozenset({"typed", "argument"})


def with_mentions(message: Message, cwd: Path, limits: AttachmentSettings | None = None) -> Message:
    """`message` with the files its typed `@path` mentions name attached, and `@@`
    escapes undone; the same message when it mentions none."""
    parts: list[Part] = []
    paths: list[str] = []
    for part in message.parts:
        if isinstance(part, TextPart) and part.origin in MENTION_ORIGINS:
            found = find_mentions(part.text, cwd)
            paths.extend(p for p in found.paths if p not in paths)
            part = dataclasses.replace(part, text=found.text)
        parts.append(part)
    attached = read_attachments(paths, cwd=cwd, limits=limits)
    return dataclasses.replace(message, parts=(*parts, *attached))


def with_parts(message: Message, attached: Sequence[Part]) -> Message:
    if not attached:
        return message
    return dataclasses.replace(message, parts=(*message.parts, *attached))


def attach_to_first(turns: Iterable[Message], attached: Sequence[Part]) -> Iterator[Message]:
    """The turns, the first with `attached` after its own parts (the turn `-a` goes with)."""
    first = True
    for turn in turns:
        yield with_parts(turn, attached) if first else turn
        first = False


def split_attachments(message: Message) -> tuple[str, tuple[Part, ...]]:
    """A stored user message as what to send again: the text of its words, and its
    attachments (documents and images) to go with it as parts, not as typed text."""
    words: list[str] = []
    attached: list[Part] = []
    for part in message.parts:
        if isinstance(part, TextPart) and part.origin != "document":
            words.append(part.text)
        elif isinstance(part, TextPart | ImagePart):
            attached.append(part)
    return "\n\n".join(words), tuple(attached)
