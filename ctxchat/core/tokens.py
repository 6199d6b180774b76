"""Token counts: exact with tiktoken when it is installed and its encoding is available,
otherwise an estimate of one token per four characters (about right for English prose and
code with GPT-style tokenizers; it over-counts nothing that matters for a context window)."""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable, Iterable
from typing import Any

from ctxchat.core.messages import Message, TextPart, ToolCallPart, ToolResultPart

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
    return total


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
