"""The local model's fast path (`services.direct_stream`): a streamed reply read without the
openai client, against the HTTP fake. What it reads must be what the openai client reads
(text, reasoning, tool calls, usage, the finish reason, through the same `ReplyAssembler`);
anything but a 200 is `DirectRefused`, before anything is shown, so the openai client asks
again and says why; a stream cut mid-way fails as one."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import openai
import pytest
from fakeopenai import Cut, Error, FakeOpenAI, Text, ToolCalls

from ctxchat.core.model_types import ModelReply
from ctxchat.services.direct_stream import DirectRefused, StreamError, open_stream
from ctxchat.services.reply_stream import ReplyAssembler

BODY: dict[str, Any] = {
    "model": "fake-model",
    "messages": [{"role": "user", "content": "Tell me about the sea."}],
    "stream": True,
    "stream_options": {"include_usage": True},
}


async def direct(base_url: str, events: list[object] | None = None) -> ModelReply:
    assembler = ReplyAssembler(events.append if events is not None else lambda _e: None)
    stream = await open_stream(base_url, BODY, timeout=10)
    try:
        async for chunk in stream:
            assembler.add(chunk)
    finally:
        await stream.close()
    return assembler.reply()


async def through_openai(base_url: str) -> ModelReply:
    assembler = ReplyAssembler(lambda _e: None)
    async with openai.AsyncOpenAI(base_url=base_url, api_key="k", max_retries=0) as client:
        stream = await client.chat.completions.create(**BODY)
        async for chunk in stream:
            assembler.add(chunk)
    return assembler.reply()


def essence(reply: ModelReply) -> tuple[object, ...]:
    """What a reply says: not its message's id and time, nor the ids the fake numbers."""
    message = reply.message
    calls = [(call.name, call.arguments) for call in message.tool_calls]
    return message.text, calls, message.reasoning, message.usage, reply.finish_reason


@pytest.mark.parametrize(
    "reply",
    [
        Text("The sea is wide and deep, and full of fish.", usage=(12, 11)),
        Text("Salt.", reasoning="It is about water.", reasoning_in="field"),
        Text("Salt.", reasoning="It is about water.", reasoning_in="think"),
        ToolCalls([("read_file", {"path": "a.py"}), ("find", {"q": "sea"})], text="Let me look."),
    ],
    ids=["text", "reasoning-field", "reasoning-think", "tool-calls"],
)
def test_a_reply_reads_as_the_openai_client_reads_it(fake_openai: FakeOpenAI, reply: Any) -> None:
    fake_openai.enqueue(reply, reply)
    events: list[object] = []
    ours = asyncio.run(direct(fake_openai.base_url, events))
    theirs = asyncio.run(through_openai(fake_openai.base_url))
    assert essence(ours) == essence(theirs)
    assert ours.message.text or ours.message.tool_calls
    assert events  # each piece passed on as it came
    (request, _) = fake_openai.chat_requests()
    assert request.messages == BODY["messages"]  # the body as given, sent whole


@pytest.mark.parametrize("status", [400, 401, 404, 500, 503])
def test_anything_but_a_stream_is_refused_before_anything_is_read(
    fake_openai: FakeOpenAI, status: int
) -> None:
    fake_openai.enqueue(Error(status, "the model cannot take tools"))
    with pytest.raises(DirectRefused, match=str(status)):
        asyncio.run(direct(fake_openai.base_url))


def test_a_server_that_is_not_there_is_refused() -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(DirectRefused):
        asyncio.run(direct(f"http://127.0.0.1:{port}/v1"))


def test_a_stream_cut_mid_way_fails_after_what_came(fake_openai: FakeOpenAI) -> None:
    fake_openai.enqueue(Cut("partial reply here", after_chunks=2))
    events: list[object] = []
    with pytest.raises(StreamError, match="cut"):
        asyncio.run(direct(fake_openai.base_url, events))
    assert events  # the pieces before the cut were passed on
