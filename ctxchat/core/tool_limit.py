"""Tool calls and results, cut to what is kept and to what the window has room for.

A tool result is sent back to the model in the same turn and stored with it. One larger
than the window (`read_file` of a 60 KB file against an 8,192-token window, a 20 MB MCP
result) failed the turn with "shorten the message", which the user cannot do; and 3 MB of
arguments and 3 MB of result made a 12 MB database for one turn. So, as a reply is capped
by `[agent] max_reply_bytes` (`ctxchat.core.reply_limit`):

- a tool call's arguments over the cap are replaced by a note: the call then fails its
  schema check, and the model reads why;
- a tool result is cut to the cap, then to the tokens the request has left once the parts
  that cannot be trimmed (the system message, the input, this turn's replies and results,
  the tool specs) are counted; history may still be trimmed for it. A note in the kept text
  says what was cut, so the model knows it read a part, and that cut text is what every
  store keeps.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ctxchat.core.messages import Message, ToolCallPart

RESULT_NOTE = (
    "\n[ctxchat: this tool result was {size:,} bytes; only the first {kept:,} were kept{why}]"
)
ARGUMENTS_NOTE = (
    '{{"ctxchat_cut": "these arguments were {size:,} bytes, over [agent] max_reply_bytes '
    '({limit:,}); they were not kept and the call was not run"}}'
)
# Tokens kept for a result however full the window: enough for the note and a start.
MIN_RESULT_TOKENS = 64


def _cut_bytes(text: str, limit: int) -> str:
    return text.encode("utf-8")[:limit].decode("utf-8", errors="ignore")  # never half a char


def cap_arguments(message: Message, limit: int) -> Message:
    """The message with each tool call's arguments over `limit` bytes replaced by a note."""
    calls = [p for p in message.parts if isinstance(p, ToolCallPart)]
    if all(len(c.arguments.encode("utf-8")) <= limit for c in calls):
        return message
    parts = []
    for part in message.parts:
        size = len(part.arguments.encode("utf-8")) if isinstance(part, ToolCallPart) else 0
        if isinstance(part, ToolCallPart) and size > limit:
            part = replace(part, arguments=ARGUMENTS_NOTE.format(size=size, limit=limit))
        parts.append(part)
    return replace(message, parts=tuple(parts))


def fit_result(text: str, *, limit: int, tokens: int, count: Callable[[str], int]) -> str:
    """`text` cut to `limit` bytes and to `tokens` tokens as `count` counts them (at least
    `MIN_RESULT_TOKENS`), with a note saying so; `text` itself when it fits."""
    size = len(text.encode("utf-8"))
    tokens = max(tokens, MIN_RESULT_TOKENS)
    if size <= limit and count(text) <= tokens:
        return text
    kept = _cut_bytes(text, limit)
    why = " ([agent] max_reply_bytes)"
    while True:
        noted = kept + RESULT_NOTE.format(size=size, kept=len(kept.encode("utf-8")), why=why)
        used = count(noted)
        if used <= tokens or not kept:
            return noted
        why = " (the rest did not fit the model's context window)"
        # Shrink in proportion, a little more than needed: counts are not linear.
        share = max(0.0, (tokens - (used - count(kept))) / max(1, count(kept))) * 0.9
        kept = kept[: int(len(kept) * share)]
