"""Tests for tests/fakeopenai.py, driven through the real ``openai`` client."""

from __future__ import annotations

import asyncio
import json
import math
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Iterable, Iterator
from pathlib import Path
from typing import Any

import httpx2
import openai
import pytest
from fakeopenai import (
    Cut,
    Error,
    FakeOpenAI,
    Hang,
    RecordedRequest,
    Reply,
    Text,
    ToolCalls,
    cosine,
    fake_embedding,
    tokenize,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from openai.types.chat import ChatCompletionChunk, ChatCompletionMessageParam

MESSAGES: list[ChatCompletionMessageParam] = [
    {"role": "system", "content": "You are terse."},
    {"role": "user", "content": "What is in a.py?"},
]


# One server and one sync client for the whole module keep the file fast (creating an
# openai client costs ~20 ms); ``server`` resets the shared server before every test.


@pytest.fixture(scope="module")
def shared_server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        yield fake


@pytest.fixture
def server(shared_server: FakeOpenAI) -> FakeOpenAI:
    shared_server.reset()
    return shared_server


@pytest.fixture(scope="module")
def shared_client(shared_server: FakeOpenAI) -> Iterator[openai.OpenAI]:
    with openai.OpenAI(base_url=shared_server.base_url, api_key="test", max_retries=0) as c:
        yield c


@pytest.fixture
def client(server: FakeOpenAI, shared_client: openai.OpenAI) -> openai.OpenAI:
    return shared_client


def async_client(server: FakeOpenAI, **kwargs: Any) -> openai.AsyncOpenAI:
    kwargs.setdefault("max_retries", 0)
    return openai.AsyncOpenAI(base_url=server.base_url, api_key="test", **kwargs)


def consume(chunks: Iterable[ChatCompletionChunk], into: list[ChatCompletionChunk]) -> None:
    for chunk in chunks:
        into.append(chunk)


async def aconsume(
    chunks: AsyncIterator[ChatCompletionChunk], into: list[ChatCompletionChunk]
) -> None:
    async for chunk in chunks:
        into.append(chunk)


def content_of(chunks: Iterable[ChatCompletionChunk]) -> str:
    return "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)


def stream_chat(client: openai.OpenAI, **kwargs: Any) -> list[ChatCompletionChunk]:
    stream = client.chat.completions.create(
        model="gpt-test", messages=MESSAGES, stream=True, **kwargs
    )
    return list(stream)


# --------------------------------------------------------------------------- text


def test_streaming_text_with_usage(server: FakeOpenAI, client: openai.OpenAI) -> None:
    text = "Hello, streaming world! 0123456789"
    server.enqueue(Text(text, chunk_size=5))
    chunks = stream_chat(client, stream_options={"include_usage": True})

    assert content_of(chunks) == text
    content_chunks = [c for c in chunks if c.choices and c.choices[0].delta.content]
    assert len(content_chunks) == math.ceil(len(text) / 5)
    assert chunks[0].choices[0].delta.role == "assistant"
    finals = [c for c in chunks if c.choices and c.choices[0].finish_reason]
    assert [c.choices[0].finish_reason for c in finals] == ["stop"]
    assert all(c.object == "chat.completion.chunk" and c.model == "gpt-test" for c in chunks)
    assert len({c.id for c in chunks}) == 1

    last = chunks[-1]
    assert last.choices == []
    assert last.usage is not None
    chars = sum(len(str(m.get("content"))) for m in MESSAGES)
    assert last.usage.prompt_tokens == chars // 4 + 1
    assert last.usage.completion_tokens == len(text) // 4 + 1
    assert last.usage.total_tokens == last.usage.prompt_tokens + last.usage.completion_tokens


def test_streaming_without_include_usage_has_no_usage_chunk(
    server: FakeOpenAI, client: openai.OpenAI
) -> None:
    server.enqueue(Text("abc"))
    chunks = stream_chat(client)
    assert content_of(chunks) == "abc"
    assert all(c.choices for c in chunks)
    assert all(c.usage is None for c in chunks)


def test_streaming_text_async(server: FakeOpenAI) -> None:
    server.enqueue(Text("async says hi", chunk_size=3, usage=(7, 2)))

    async def run() -> list[ChatCompletionChunk]:
        async with async_client(server) as ac:
            stream = await ac.chat.completions.create(
                model="gpt-test",
                messages=MESSAGES,
                stream=True,
                stream_options={"include_usage": True},
            )
            return [c async for c in stream]

    chunks = asyncio.run(run())
    assert content_of(chunks) == "async says hi"
    usage = chunks[-1].usage
    assert usage is not None
    assert (usage.prompt_tokens, usage.completion_tokens, usage.total_tokens) == (7, 2, 9)


def test_non_streaming_text(server: FakeOpenAI, client: openai.OpenAI) -> None:
    server.enqueue(Text("The answer.", usage=(11, 3), finish_reason="length"))
    completion = client.chat.completions.create(model="gpt-test", messages=MESSAGES)
    assert completion.object == "chat.completion"
    assert completion.model == "gpt-test"
    choice = completion.choices[0]
    assert choice.message.role == "assistant"
    assert choice.message.content == "The answer."
    assert choice.message.tool_calls is None
    assert choice.finish_reason == "length"
    assert completion.usage is not None
    assert completion.usage.prompt_tokens == 11
    assert completion.usage.completion_tokens == 3
    assert completion.usage.total_tokens == 14


def test_non_streaming_text_async(server: FakeOpenAI) -> None:
    server.enqueue(Text("async plain"))

    async def run() -> str | None:
        async with async_client(server) as ac:
            completion = await ac.chat.completions.create(model="gpt-test", messages=MESSAGES)
            return completion.choices[0].message.content

    assert asyncio.run(run()) == "async plain"


def test_default_reply_echoes_last_user_message(server: FakeOpenAI, client: openai.OpenAI) -> None:
    completion = client.chat.completions.create(
        model="gpt-test",
        messages=[
            {"role": "user", "content": "first"},
            {"role": "assistant", "content": "ok"},
            {"role": "user", "content": [{"type": "text", "text": "second"}]},
        ],
    )
    assert completion.choices[0].message.content == "echo: second"
    assert content_of(stream_chat(client)) == "echo: What is in a.py?"

    def custom(request: RecordedRequest) -> Reply:
        return Text(f"{len(request.messages)} messages")

    server.default = custom
    assert content_of(stream_chat(client)) == "2 messages"


def test_queue_is_fifo_then_default(server: FakeOpenAI, client: openai.OpenAI) -> None:
    server.enqueue(Text("one"), Text("two"))
    assert server.pending() == 2
    answers = [
        client.chat.completions.create(model="m", messages=MESSAGES).choices[0].message.content
        for _ in range(3)
    ]
    assert answers == ["one", "two", "echo: What is in a.py?"]
    assert server.pending() == 0


def test_slow_stream_is_delivered_incrementally(server: FakeOpenAI, client: openai.OpenAI) -> None:
    rest = threading.Event()
    server.enqueue(Text("aabbccdd", chunk_size=2, hold=rest))
    # A server that buffered the stream would hold the first piece back with the rest:
    # released anyway after a while, so that case fails below instead of hanging.
    release = threading.Timer(20, rest.set)
    release.start()
    held_at_each_piece: list[bool] = []
    pieces: list[str] = []
    try:
        for chunk in client.chat.completions.create(model="m", messages=MESSAGES, stream=True):
            if chunk.choices and chunk.choices[0].delta.content:
                pieces.append(chunk.choices[0].delta.content)
                held_at_each_piece.append(not rest.is_set())
                rest.set()
    finally:
        release.cancel()
    assert pieces == ["aa", "bb", "cc", "dd"]
    # The first piece reached the client while the server still held the rest back.
    assert held_at_each_piece[0]


# --------------------------------------------------------------------------- tool calls


def test_streamed_tool_calls_reassemble(server: FakeOpenAI, client: openai.OpenAI) -> None:
    read_args = {"path": "src/a.py", "start_line": 10, "end_line": 42}
    server.enqueue(
        ToolCalls([("read_file", read_args), ("grep", "{not valid json")], text="Let me look.")
    )
    chunks = stream_chat(client, stream_options={"include_usage": True})

    assert content_of(chunks) == "Let me look."
    calls: dict[int, dict[str, str]] = {}
    argument_chunks: dict[int, int] = {}
    for chunk in chunks:
        if not chunk.choices:
            continue
        for delta in chunk.choices[0].delta.tool_calls or []:
            slot = calls.setdefault(delta.index, {"id": "", "name": "", "arguments": ""})
            if delta.id:
                # The header chunk carries id, type and name, with empty arguments.
                assert delta.type == "function"
                assert delta.function is not None
                assert delta.function.name
                assert delta.function.arguments == ""
                slot["id"] = delta.id
                slot["name"] = delta.function.name
            elif delta.function and delta.function.arguments:
                slot["arguments"] += delta.function.arguments
                argument_chunks[delta.index] = argument_chunks.get(delta.index, 0) + 1

    assert sorted(calls) == [0, 1]
    assert calls[0]["name"] == "read_file"
    assert json.loads(calls[0]["arguments"]) == read_args
    assert calls[1]["name"] == "grep"
    assert calls[1]["arguments"] == "{not valid json"
    assert argument_chunks[0] > 3  # arguments really are split across several chunks
    ids = [calls[0]["id"], calls[1]["id"]]
    assert all(i.startswith("call_") for i in ids)
    assert len(set(ids)) == 2

    finish = [c.choices[0].finish_reason for c in chunks if c.choices]
    assert [f for f in finish if f] == ["tool_calls"]
    assert chunks[-1].usage is not None


def test_non_streaming_tool_calls_have_unique_ids(
    server: FakeOpenAI, client: openai.OpenAI
) -> None:
    server.enqueue(ToolCalls([("a", {"x": 1})]), ToolCalls([("b", {})]))
    first = client.chat.completions.create(model="m", messages=MESSAGES).choices[0]
    second = client.chat.completions.create(model="m", messages=MESSAGES).choices[0]
    assert first.finish_reason == "tool_calls"
    assert first.message.content is None
    calls = [*(first.message.tool_calls or []), *(second.message.tool_calls or [])]
    assert len(calls) == 2
    assert [c.function.name for c in calls if c.type == "function"] == ["a", "b"]
    assert [json.loads(c.function.arguments) for c in calls if c.type == "function"] == [
        {"x": 1},
        {},
    ]
    assert len({c.id for c in calls}) == 2


def test_streamed_tool_calls_async(server: FakeOpenAI) -> None:
    server.enqueue(ToolCalls([("search", {"query": "hello world"})]))

    async def run() -> str:
        arguments = ""
        async with async_client(server) as ac:
            stream = await ac.chat.completions.create(model="m", messages=MESSAGES, stream=True)
            async for chunk in stream:
                for delta in (chunk.choices[0].delta.tool_calls or []) if chunk.choices else []:
                    if delta.function and delta.function.arguments:
                        arguments += delta.function.arguments
        return arguments

    assert json.loads(asyncio.run(run())) == {"query": "hello world"}


# --------------------------------------------------------------------------- errors


def test_wrong_api_key_is_401_and_recorded() -> None:
    with FakeOpenAI(api_key="secret") as fake:
        with (
            openai.OpenAI(base_url=fake.base_url, api_key="nope", max_retries=0) as bad,
            pytest.raises(openai.AuthenticationError) as info,
        ):
            bad.chat.completions.create(model="m", messages=MESSAGES)
        assert info.value.status_code == 401
        assert info.value.code == "invalid_api_key"
        assert len(fake.chat_requests()) == 1
        assert fake.chat_requests()[0].headers["authorization"] == "Bearer nope"

        with openai.OpenAI(base_url=fake.base_url, api_key="secret", max_retries=0) as good:
            reply = good.chat.completions.create(model="m", messages=MESSAGES)
        assert reply.choices[0].message.content == "echo: What is in a.py?"


def test_unknown_path_is_404(client: openai.OpenAI) -> None:
    with pytest.raises(openai.NotFoundError) as info:
        client.post("/no/such/endpoint", cast_to=object, body={})
    assert info.value.code == "unknown_url"
    with pytest.raises(openai.NotFoundError):
        client.models.retrieve("no-such-model")


@pytest.mark.parametrize(
    ("status", "exc_type"),
    [
        (400, openai.BadRequestError),
        (401, openai.AuthenticationError),
        (403, openai.PermissionDeniedError),
        (404, openai.NotFoundError),
        (429, openai.RateLimitError),
        (500, openai.InternalServerError),
        (503, openai.InternalServerError),
    ],
)
@pytest.mark.parametrize("stream", [False, True])
def test_error_replies_map_to_openai_exceptions(
    server: FakeOpenAI,
    client: openai.OpenAI,
    status: int,
    exc_type: type[openai.APIStatusError],
    stream: bool,
) -> None:
    server.enqueue(Error(status, "scripted failure", code="some_code"))
    with pytest.raises(exc_type) as info:
        client.chat.completions.create(model="m", messages=MESSAGES, stream=stream)
    assert info.value.status_code == status
    assert info.value.code == "some_code"
    assert info.value.body == {
        "message": "scripted failure",
        "type": info.value.type,
        "code": "some_code",
        "param": None,
    }
    assert "scripted failure" in str(info.value)
    if status == 429:
        assert info.value.response.headers["retry-after"] == "0"


def test_rate_limit_and_server_errors_are_retried_quickly(server: FakeOpenAI) -> None:
    server.enqueue(Error(429), Error(500), Text("finally"))
    with openai.OpenAI(base_url=server.base_url, api_key="test", max_retries=2) as c:
        completion = c.chat.completions.create(model="m", messages=MESSAGES)
    assert completion.choices[0].message.content == "finally"
    assert len(server.chat_requests()) == 3


def test_error_reply_async(server: FakeOpenAI) -> None:
    server.enqueue(Error(429))

    async def run() -> None:
        async with async_client(server) as ac:
            await ac.chat.completions.create(model="m", messages=MESSAGES)

    with pytest.raises(openai.RateLimitError):
        asyncio.run(run())


def test_invalid_json_body_is_400_and_recorded(server: FakeOpenAI, client: openai.OpenAI) -> None:
    with pytest.raises(openai.BadRequestError):
        client.post("/chat/completions", cast_to=object, content=b"{nope")
    recorded = server.chat_requests()[-1]
    assert recorded.body is None
    assert recorded.raw == b"{nope"


# --------------------------------------------------------------------------- cut / hang


def test_cut_stream_raises_connection_error_sync(server: FakeOpenAI, client: openai.OpenAI) -> None:
    server.enqueue(Cut("partial text", after_chunks=2))
    stream = client.chat.completions.create(model="m", messages=MESSAGES, stream=True)
    received: list[ChatCompletionChunk] = []
    with pytest.raises(openai.APIConnectionError) as info:
        consume(stream, received)
    assert type(info.value) is openai.APIConnectionError  # not APITimeoutError
    assert isinstance(info.value.__cause__, httpx2.RemoteProtocolError)
    assert content_of(received) == "partial "
    assert all(not c.choices or c.choices[0].finish_reason is None for c in received)

    # the client recovers: the next request on the same client works
    server.enqueue(Text("after the cut"))
    assert content_of(stream_chat(client)) == "after the cut"


def test_cut_stream_raises_connection_error_async(server: FakeOpenAI) -> None:
    server.enqueue(Cut())
    received: list[ChatCompletionChunk] = []

    async def run() -> None:
        async with async_client(server) as ac:
            stream = await ac.chat.completions.create(model="m", messages=MESSAGES, stream=True)
            await aconsume(stream, received)

    with pytest.raises(openai.APIConnectionError) as info:
        asyncio.run(run())
    assert type(info.value) is openai.APIConnectionError
    assert isinstance(info.value.__cause__, httpx2.RemoteProtocolError)
    assert content_of(received) == "partial"


def test_cut_non_streaming_raises_connection_error(
    server: FakeOpenAI, client: openai.OpenAI
) -> None:
    server.enqueue(Cut())
    with pytest.raises(openai.APIConnectionError) as info:
        client.chat.completions.create(model="m", messages=MESSAGES)
    assert isinstance(info.value.__cause__, httpx2.RemoteProtocolError)


def test_hang_times_out_sync(server: FakeOpenAI) -> None:
    server.enqueue(Hang(3))
    with (
        openai.OpenAI(base_url=server.base_url, api_key="test", max_retries=0, timeout=0.3) as c,
        pytest.raises(openai.APITimeoutError) as info,
    ):
        c.chat.completions.create(model="m", messages=MESSAGES)
    assert isinstance(info.value.__cause__, httpx2.ReadTimeout)


def test_hang_times_out_async(server: FakeOpenAI) -> None:
    server.enqueue(Hang(3))

    async def run() -> None:
        async with async_client(server, timeout=0.3) as ac:
            await ac.chat.completions.create(model="m", messages=MESSAGES, stream=True)

    with pytest.raises(openai.APITimeoutError):
        asyncio.run(run())


def test_hang_then_answers_late(server: FakeOpenAI, client: openai.OpenAI) -> None:
    server.enqueue(Hang(0.05))
    completion = client.chat.completions.create(model="m", messages=MESSAGES)
    assert completion.choices[0].message.content == "late"


def test_stalled_stream_times_out_mid_iteration(server: FakeOpenAI, client: openai.OpenAI) -> None:
    server.enqueue(Text("abcdefgh", chunk_size=4, delay=1.0))
    stream = client.with_options(timeout=0.15).chat.completions.create(
        model="m", messages=MESSAGES, stream=True
    )
    received: list[ChatCompletionChunk] = []
    with pytest.raises(openai.APITimeoutError) as info:
        consume(stream, received)
    assert isinstance(info.value.__cause__, httpx2.ReadTimeout)
    assert content_of(received) == "abcd"


def test_client_abandoning_a_stream_does_not_break_the_server(
    server: FakeOpenAI, client: openai.OpenAI
) -> None:
    server.enqueue(Text("x" * 400, chunk_size=1, delay=0.005))
    stream = client.chat.completions.create(model="m", messages=MESSAGES, stream=True)
    for i, _ in enumerate(stream):
        if i == 3:
            break
    stream.close()
    assert content_of(stream_chat(client)) == "echo: What is in a.py?"


def test_stop_is_prompt_even_with_hanging_and_idle_connections() -> None:
    fake = FakeOpenAI().start()
    fake.enqueue(Hang(30))
    c = openai.OpenAI(base_url=fake.base_url, api_key="test", max_retries=0)
    c.models.list()  # leaves an idle keep-alive connection behind
    errors: list[BaseException] = []

    def call() -> None:
        try:
            c.chat.completions.create(model="m", messages=MESSAGES)
        except openai.APIError as exc:
            errors.append(exc)

    worker = threading.Thread(target=call, daemon=True)
    worker.start()
    assert fake.wait_for_requests(1, timeout=2)
    fake.stop()
    fake.stop()  # idempotent
    worker.join(2)
    assert not worker.is_alive()
    assert len(errors) == 1
    assert isinstance(errors[0], openai.APIConnectionError)
    c.close()


def test_concurrent_requests_are_served_in_parallel(
    server: FakeOpenAI, client: openai.OpenAI
) -> None:
    server.enqueue(*[Hang(0.2, text=f"r{i}") for i in range(6)])
    results: list[str] = []
    lock = threading.Lock()

    def call() -> None:
        content = client.chat.completions.create(model="m", messages=MESSAGES)
        with lock:
            results.append(content.choices[0].message.content or "")

    threads = [threading.Thread(target=call) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(5)
    assert sorted(results) == [f"r{i}" for i in range(6)]
    assert server.max_in_flight > 1  # answered side by side, not one after another


def test_many_consecutive_requests_on_one_keepalive_client(
    server: FakeOpenAI, client: openai.OpenAI
) -> None:
    for i in range(15):
        server.enqueue(Text(f"n{i}"))
        if i % 2:
            assert content_of(stream_chat(client)) == f"n{i}"
        else:
            reply = client.chat.completions.create(model="m", messages=MESSAGES)
            assert reply.choices[0].message.content == f"n{i}"
    assert len(server.chat_requests()) == 15


# --------------------------------------------------------------------------- embeddings


def test_embeddings_shape_and_similarity(server: FakeOpenAI, client: openai.OpenAI) -> None:
    texts = [
        "load the config file from disk",
        "loadConfig reads the config_file",
        "the weather in Paris is sunny",
    ]
    response = client.embeddings.create(model="text-embedding-test", input=texts)
    assert [d.index for d in response.data] == [0, 1, 2]
    vectors = [d.embedding for d in response.data]
    assert all(len(v) == 64 for v in vectors)
    assert all(abs(math.sqrt(sum(x * x for x in v)) - 1) < 1e-5 for v in vectors)
    assert cosine(vectors[0], vectors[1]) > cosine(vectors[0], vectors[2])
    assert response.usage.prompt_tokens > 0
    assert response.usage.total_tokens == response.usage.prompt_tokens

    # the client's default (base64 float32) and explicit float encodings agree
    single = client.embeddings.create(model="e", input=texts[0], encoding_format="float")
    expected = fake_embedding(texts[0])
    assert single.data[0].embedding == pytest.approx(expected)
    assert vectors[0] == pytest.approx(expected, abs=1e-6)
    assert server.embedding_requests()[0].body["encoding_format"] == "base64"


def test_embedding_dimensions_and_failures() -> None:
    with FakeOpenAI(embedding_dim=16) as fake:
        with openai.OpenAI(base_url=fake.base_url, api_key="t", max_retries=0) as c:
            assert len(c.embeddings.create(model="e", input="hi").data[0].embedding) == 16
            sized = c.embeddings.create(model="e", input=["a", "b"], dimensions=8)
            assert [len(d.embedding) for d in sized.data] == [8, 8]
            fake.fail_embeddings_with = 500
            with pytest.raises(openai.InternalServerError):
                c.embeddings.create(model="e", input="hi")
            fake.fail_embeddings_with = 429
            with pytest.raises(openai.RateLimitError):
                c.embeddings.create(model="e", input="hi")
        assert len(fake.embedding_requests()) == 4


def test_tokenize_splits_snake_and_camel_case() -> None:
    assert tokenize("parseHTTPResponse in load_config.py!") == [
        "parsehttpresponse",
        "parse",
        "http",
        "response",
        "in",
        "load_config",
        "load",
        "config",
        "py",
    ]
    assert cosine(fake_embedding("load_config"), fake_embedding("loadConfig")) > 0.5


@settings(max_examples=40, deadline=None)
@given(st.text(max_size=80), st.integers(min_value=1, max_value=128))
def test_fake_embedding_is_normalised_and_deterministic(text: str, dim: int) -> None:
    vector = fake_embedding(text, dim)
    assert len(vector) == dim
    assert abs(math.sqrt(sum(x * x for x in vector)) - 1.0) < 1e-9
    assert vector == fake_embedding(text, dim)
    assert cosine(vector, vector) == pytest.approx(1.0)


# --------------------------------------------------------------------------- recording


def test_requests_are_recorded(server: FakeOpenAI, client: openai.OpenAI) -> None:
    client.chat.completions.create(
        model="gpt-rec",
        messages=MESSAGES,
        tools=[
            {
                "type": "function",
                "function": {
                    "name": "read_file",
                    "description": "Read a file",
                    "parameters": {"type": "object", "properties": {"path": {"type": "string"}}},
                },
            },
            {"type": "function", "function": {"name": "search"}},
        ],
    )
    stream_chat(client)
    client.embeddings.create(model="e", input="x")
    client.models.list()

    assert [(r.method, r.path) for r in server.requests] == [
        ("POST", "/v1/chat/completions"),
        ("POST", "/v1/chat/completions"),
        ("POST", "/v1/embeddings"),
        ("GET", "/v1/models"),
    ]
    first, second = server.chat_requests()
    assert first.messages == MESSAGES
    assert first.tool_names == ["read_file", "search"]
    assert first.tools[0]["function"]["description"] == "Read a file"
    assert first.model == "gpt-rec"
    assert first.stream is False
    assert first.headers["authorization"] == "Bearer test"
    assert first.headers["content-type"] == "application/json"
    assert first.last_user_text == "What is in a.py?"
    assert second.stream is True
    assert second.tools == []
    assert second.tool_names == []
    assert server.requests[3].body is None
    assert server.requests[3].messages == []

    server.enqueue(Text("queued"))
    server.clear()
    assert server.requests == []
    assert server.pending() == 0


def test_models_list_includes_seen_models(server: FakeOpenAI, client: openai.OpenAI) -> None:
    client.chat.completions.create(model="my-model", messages=MESSAGES)
    assert [m.id for m in client.models.list()] == ["fake-model", "my-model"]
    assert client.models.retrieve("my-model").id == "my-model"
    server.clear()
    assert [m.id for m in client.models.list()] == ["fake-model"]


def test_base_url_requires_running_server() -> None:
    fake = FakeOpenAI()
    with pytest.raises(RuntimeError):
        _ = fake.base_url
    with fake:
        assert fake.base_url.startswith("http://127.0.0.1:")
        assert fake.base_url.endswith("/v1")
    with pytest.raises(RuntimeError):
        _ = fake.base_url


def test_enqueue_rejects_non_replies(server: FakeOpenAI) -> None:
    with pytest.raises(TypeError):
        server.enqueue("not a reply")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- script


@pytest.mark.slow  # starts Python processes: the fast loop is in-process tests
def test_runs_as_a_script() -> None:
    script = Path(__file__).with_name("fakeopenai.py")
    proc = subprocess.Popen(
        [sys.executable, str(script), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        base_url = proc.stdout.readline().strip()
        assert base_url.startswith("http://127.0.0.1:")
        assert base_url.endswith("/v1")
        with openai.OpenAI(base_url=base_url, api_key="x", max_retries=0) as c:
            stream = c.chat.completions.create(
                model="m", messages=[{"role": "user", "content": "ping"}], stream=True
            )
            assert content_of(stream) == "echo: ping"
            # embeddings computed in another process match ours (hashing is stable)
            embedding = c.embeddings.create(model="e", input="Hello world_wide").data[0]
            assert embedding.embedding == pytest.approx(fake_embedding("Hello world_wide"))
    finally:
        proc.terminate()
        _, stderr = proc.communicate(timeout=5)
    assert stderr == ""
