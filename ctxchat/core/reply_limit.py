"""A reply's stored size, capped.

A reply is shown whole as it streams, but what is kept of it (in the history, the audit,
and every later request the history window sends back) is cut to `[agent]
max_reply_bytes`, with a note in the kept text saying so: a 50 MB reply would otherwise be
stored twice and sent again with every turn after it. The cut is made when the reply
arrives, so a tool round in the same turn already sends the kept text back, and the
history's token counts (its window) are those of the kept text.
"""

from __future__ import annotations

from dataclasses import replace

from ctxchat.core.messages import Message, Part, TextPart

NOTE = (
    "\n\n[ctxchat: this reply was {size:,} bytes; only the first {kept:,} were kept "
    "([agent] max_reply_bytes)]"
)


def cap_reply(message: Message, limit: int) -> tuple[Message, int]:
    """The message with its text cut to `limit` bytes of UTF-8 (a note added), and the
    size of its text before the cut; the message itself when it fits."""
    size = sum(len(p.text.encode("utf-8")) for p in message.parts if isinstance(p, TextPart))
    if size <= limit:
        return message, size
    room = limit
    parts: list[Part] = []
    for part in message.parts:
        if not isinstance(part, TextPart):
            parts.append(part)
            continue
        raw = part.text.encode("utf-8")
        kept = raw[:room].decode("utf-8", errors="ignore")  # never half a character
        room -= len(kept.encode("utf-8"))
        if kept:
            parts.append(replace(part, text=kept))
    note = NOTE.format(size=size, kept=limit)
    last_text = max((i for i, p in enumerate(parts) if isinstance(p, TextPart)), default=None)
    if last_text is None:
        parts.insert(0, TextPart(note.lstrip()))
    else:
        last = parts[last_text]
        assert isinstance(last, TextPart)
        parts[last_text] = replace(last, text=last.text + note)
    return replace(message, parts=tuple(parts)), size
