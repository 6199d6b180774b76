"""A full window against a real llama.cpp server (the tiny model): what ctxchat counts for a
request is never less than what the server counts, chat template included. Counting each
message's text by `/tokenize` alone left the template out (1.5 tokens a message on
SmolLM2), and a window's worth of short messages came to a request the server refused
(`bench/local_model.py` stopped there, 100 turns into one conversation)."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from llamakit import llama_server_in

from ctxchat.core.messages import Message
from ctxchat.core.openai_format import to_openai_messages
from ctxchat.core.settings import DEFAULT_INSTRUCTIONS, ModelSettings
from ctxchat.core.tokens import count_messages_tokens
from ctxchat.services.model_client import OpenAIChatModel

pytestmark = pytest.mark.slow

REPLY = (
    "The sea is a vast body of salt water that covers most of the Earth, home to fish, "
    "whales and coral reefs. Its tides follow the moon."
)


def conversation(pairs: int) -> list[Message]:
    messages = [Message.system(DEFAULT_INSTRUCTIONS)]
    for i in range(pairs):
        messages += [Message.user(f"Tell me about the sea. ({i})"), Message.assistant(REPLY)]
    return [*messages, Message.user("And the moon?")]


def served_prompt_tokens(base_url: str, messages: list[Message]) -> int:
    body: dict[str, Any] = {"messages": to_openai_messages(messages), "max_tokens": 1}
    request = urllib.request.Request(
        base_url + "/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=120) as answer:
        return int(json.loads(answer.read())["usage"]["prompt_tokens"])


def test_what_ctxchat_counts_covers_what_the_server_counts(
    ctxchat_home: Path, tmp_path: Path
) -> None:
    with llama_server_in(tmp_path, context=4096) as server:
        model = OpenAIChatModel(ModelSettings(model="smollm2", base_url=server.base_url))
        limits = asyncio.run(model.limits())
        assert limits.prompt_overhead > 0  # the reply's header, from /apply-template
        for pairs in (1, 10, 40):
            messages = conversation(pairs)
            counted = count_messages_tokens(messages, limits.count_text) + limits.prompt_overhead
            served = served_prompt_tokens(server.base_url, messages)
            assert served <= counted <= served * 1.05, (pairs, counted, served)
