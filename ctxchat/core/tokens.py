"""Token counts: exact with tiktoken when it is installed and its encoding is available,
otherwise an estimate of one token per four characters (about right for English prose and
code with GPT-style tokenizers; it over-counts nothing that matters for a context window)."""

from __future__ import annotations

import contextlib
import functools
import math
import threading
from collections.abc import Callable, Iterable
from typing import Any

from ctxchat.core.messages import ImagePart, Message, TextPart, ToolCallPart, ToolResultPart

CHARS_PER_TOKEN = 4
MESSAGE_OVERHEAD = 4  # role and separators, as chat formats add per message


ENCODING = "o200k_base"
ENCODING_LOAD_TIMEOUT = 2.0  # seconds; tiktoken downloads an uncached encoding, no timeout


@functools.cache
def _tiktoken_counter() -> Callable[[str], int] | None:
    """tiktoken's counter when it is installed and its encoding loads in time; else None.

    The load runs in a daemon thread: offline, or behind a slow network, tiktoken's own
    download would otherwise stall the turn for as long as the network does.
    """
    try:
        import tiktoken
    except ImportError:
        return None
    loaded: list[Any] = []

    def load() -> None:
        with contextlib.suppress(Exception):
            loaded.append(tiktoken.get_encoding(ENCODING))

    worker = threading.Thread(target=load, name="ctxchat-tiktoken", daemon=True)
    worker.start()
    worker.join(ENCODING_LOAD_TIMEOUT)
    if not loaded:
        return None
    encoding = loaded[0]
    return lambda text: len(encoding.encode(text, disallowed_special=()))


def tiktoken_counter() -> Callable[[str], int] | None:
    """tiktoken's exact counter for OpenAI's models, when it is installed and loads."""
    return _tiktoken_counter()


def estimate_tokens(text: str) -> int:
    return (len(text) + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN


def count_text_tokens(text: str) -> int:
    if not text:
        return 0
    counter = _tiktoken_counter()
    return counter(text) if counter else estimate_tokens(text)


TextCounter = Callable[[str], int]


def count_message_tokens(message: Message, counter: TextCounter = count_text_tokens) -> int:
    total = MESSAGE_OVERHEAD
    for part in message.parts:
        if isinstance(part, TextPart):
            total += counter(part.text)
        elif isinstance(part, ToolCallPart):
            total += counter(part.name) + counter(part.arguments)
        elif isinstance(part, ToolResultPart):
            total += counter(part.content)
        elif isinstance(part, ImagePart):
            total += image_tokens(part.width, part.height)
    return total


# OpenAI's documented cost of an image at high detail: fitted into 2048 x 2048, then its
# shorter side brought down to 768, then 170 tokens for each 512-pixel tile and 85 more.
# Other servers count images their own way; this is the most any documented one charges
# for a picture of that size that we know of, so the budget errs on the side of room.
_IMAGE_FIT = 2048
_IMAGE_SHORT_SIDE = 768
_IMAGE_TILE = 512
_IMAGE_TILE_TOKENS = 170
_IMAGE_BASE_TOKENS = 85


def image_tokens(width: int, height: int) -> int:
    """An image's tokens by OpenAI's tile formula (high detail)."""
    w, h = float(max(width, 1)), float(max(height, 1))
    if max(w, h) > _IMAGE_FIT:
        scale = _IMAGE_FIT / max(w, h)
        w, h = w * scale, h * scale
    if min(w, h) > _IMAGE_SHORT_SIDE:
        scale = _IMAGE_SHORT_SIDE / min(w, h)
        w, h = w * scale, h * scale
    tiles = math.ceil(w / _IMAGE_TILE) * math.ceil(h / _IMAGE_TILE)
    return _IMAGE_TILE_TOKENS * tiles + _IMAGE_BASE_TOKENS


def count_messages_tokens(
    messages: Iterable[Message], counter: TextCounter = count_text_tokens
) -> int:
    return sum(count_message_tokens(m, counter) for m in messages)


def count_tool_tokens(tool: Any, counter: TextCounter = count_text_tokens) -> int:
    """A tool as advertised: the JSON of its spec (anything with a `spec()`)."""
    import json

    return counter(json.dumps(tool.spec()))


def count_request_tokens(
    messages: Iterable[Message], tools: Iterable[Any] = (), counter: TextCounter = count_text_tokens
) -> int:
    """A whole request: its messages and the specs of the tools it advertises (anything
    with a `spec()`, as `ctxchat.core.tools.Tool`)."""
    specs = sum(count_tool_tokens(tool, counter) for tool in tools)
    return count_messages_tokens(messages, counter) + specs
