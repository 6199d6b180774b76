"""The OpenAI-compatible client: one clear line per failure, the key never shown."""

from __future__ import annotations

import asyncio
import dataclasses
import socket

import pytest
from conftest import TEST_API_KEY
from fakeopenai import Cut, Error, FakeOpenAI, Hang, Text

from ctxchat.core.errors import ModelError, ModelNotConfigured
from ctxchat.core.messages import Message
from ctxchat.core.model_types import ModelRequest, TextDelta, ignore_events
from ctxchat.core.settings import ModelSettings
from ctxchat.services.model_client import OpenAIChatModel


def ask(settings: ModelSettings) -> str:
    model = OpenAIChatModel(settings)
    request = ModelRequest((Message.user("hi"),))
    reply = asyncio.run(model.complete(request, ignore_events))
    return reply.message.text


def failure(settings: ModelSettings) -> str:
    with pytest.raises(ModelError) as caught:
        ask(settings)
    message = str(caught.value)
    assert "\n" not in message
    assert TEST_API_KEY not in message
    return message


def test_streams_deltas_and_requests_usage(
    fake_openai: FakeOpenAI, model_settings: ModelSettings
) -> None:
    fake_openai.enqueue(Text("hello world", chunk_size=3))
    deltas: list[str] = []
    model = OpenAIChatModel(model_settings)
    request = ModelRequest((Message.user("hi"),))
    reply = asyncio.run(
        model.complete(
            request, lambda e: deltas.append(e.text) if isinstance(e, TextDelta) else None
        )
    )
    assert deltas == ["hel", "lo ", "wor", "ld"]
    assert reply.message.text == "hello world"
    sent = fake_openai.chat_requests()[0]
    assert sent.stream
    assert sent.include_usage
    assert sent.model == "fake-model"
    assert sent.authorization == f"Bearer {TEST_API_KEY}"


def test_authentication_failure(fake_openai: FakeOpenAI, model_settings: ModelSettings) -> None:
    fake_openai.api_key = "the-right-key"
    message = failure(model_settings)
    assert message == (
        f"authentication failed at {fake_openai.base_url} (HTTP 401): "
        "set a valid key in OPENAI_API_KEY (or [model] api_key)"
    )


def test_model_not_found(fake_openai: FakeOpenAI, model_settings: ModelSettings) -> None:
    fake_openai.enqueue(Error(404, "The model `nope` does not exist"))
    assert failure(model_settings) == (
        f"model 'fake-model' not found at {fake_openai.base_url} (HTTP 404): check [model] "
        "model, and that base_url ends with the API path, e.g. /v1"
    )


def test_what_the_event_sink_raises_is_not_a_model_error(
    fake_openai: FakeOpenAI, model_settings: ModelSettings
) -> None:
    """A sink writing to a closed stdout fails with BrokenPipeError; that is the caller's
    failure, not "the reply stream was cut mid-way"."""
    fake_openai.enqueue(Text("hello world", chunk_size=3), Text("next"))

    def sink(event: object) -> None:
        raise BrokenPipeError(32, "Broken pipe")

    model = OpenAIChatModel(model_settings)

    async def twice() -> str:
        with pytest.raises(BrokenPipeError):
            await model.complete(ModelRequest((Message.user("hi"),)), sink)
        # The failed stream was closed: the client goes on working on the same loop.
        reply = await model.complete(ModelRequest((Message.user("hi"),)), ignore_events)
        return reply.message.text

    assert asyncio.run(twice()) == "next"


def test_rate_limited_after_retries(fake_openai: FakeOpenAI, model_settings: ModelSettings) -> None:
    fake_openai.enqueue(Error(429), Error(429), Error(429))
    settings = dataclasses.replace(model_settings, retries=2)
    assert failure(settings) == f"rate limited by {fake_openai.base_url} after 2 retries (HTTP 429)"
    assert len(fake_openai.chat_requests()) == 3


def test_server_error_then_success_is_retried(
    fake_openai: FakeOpenAI, model_settings: ModelSettings
) -> None:
    fake_openai.enqueue(Error(500), Text("recovered"))
    assert ask(dataclasses.replace(model_settings, retries=1)) == "recovered"


def test_server_error(fake_openai: FakeOpenAI, model_settings: ModelSettings) -> None:
    fake_openai.enqueue(Error(503, "overloaded"))
    assert failure(model_settings) == (
        f"server error from {fake_openai.base_url} (HTTP 503): overloaded"
    )


def test_stream_cut_mid_way(fake_openai: FakeOpenAI, model_settings: ModelSettings) -> None:
    fake_openai.enqueue(Cut())
    assert (
        failure(model_settings) == f"the reply stream from {fake_openai.base_url} was cut mid-way"
    )


def test_timeout(fake_openai: FakeOpenAI, model_settings: ModelSettings) -> None:
    fake_openai.enqueue(Hang(3))
    settings = dataclasses.replace(model_settings, timeout=0.3)
    assert failure(settings) == (
        f"no reply from {fake_openai.base_url} within 0.3s (raise [model] timeout to wait longer)"
    )


def test_timeout_says_how_many_attempts_waited(
    fake_openai: FakeOpenAI, model_settings: ModelSettings
) -> None:
    fake_openai.enqueue(Hang(3), Hang(3), Hang(3))
    settings = dataclasses.replace(model_settings, timeout=0.3, retries=2)
    assert failure(settings) == (
        f"no reply from {fake_openai.base_url} within 0.3s "
        "(3 attempts; raise [model] timeout to wait longer)"
    )
    assert len(fake_openai.chat_requests()) == 3


def test_query_values_in_base_url_are_masked(model_settings: ModelSettings) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings = dataclasses.replace(
        model_settings, base_url=f"http://127.0.0.1:{port}/v1?key=qsecret"
    )
    assert failure(settings) == (
        f"cannot reach http://127.0.0.1:{port}/v1?key=***: is the server running?"
    )


def test_unreachable_endpoint(model_settings: ModelSettings) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings = dataclasses.replace(model_settings, base_url=f"http://127.0.0.1:{port}/v1")
    assert failure(settings) == f"cannot reach http://127.0.0.1:{port}/v1: is the server running?"


def test_a_host_that_does_not_resolve_is_named_as_such(model_settings: ModelSettings) -> None:
    # .invalid never resolves (RFC 6761): a typo in the host, not a server that is down.
    settings = dataclasses.replace(model_settings, base_url="http://ctxchat-test.invalid/v1")
    message = failure(settings)
    assert message.startswith("cannot reach http://ctxchat-test.invalid/v1: the host ")
    assert "'ctxchat-test.invalid' could not be resolved" in message
    assert "is the server running" not in message


def test_credentials_in_base_url_are_refused(model_settings: ModelSettings) -> None:
    # The client would send them as Basic auth instead of the bearer key.
    with pytest.raises(ValueError, match="OPENAI_API_KEY") as caught:
        dataclasses.replace(model_settings, base_url="http://user:hunter2@127.0.0.1:1/v1")
    assert "hunter2" not in str(caught.value)
    assert "http://***@127.0.0.1:1/v1" in str(caught.value)


def test_nothing_configured_says_how_to_configure() -> None:
    with pytest.raises(ModelNotConfigured) as caught:
        ask(ModelSettings())
    message = str(caught.value)
    assert "OPENAI_API_KEY" in message
    assert "http://localhost:11434/v1" in message
    assert caught.value.exit_code == 2


def test_local_server_needs_no_key(fake_openai: FakeOpenAI) -> None:
    settings = ModelSettings(model="m", base_url=fake_openai.base_url, retries=0)
    assert ask(settings) == "echo: hi"


def test_temperature_max_tokens_and_run_options_reach_the_request(
    fake_openai: FakeOpenAI, model_settings: ModelSettings
) -> None:
    settings = dataclasses.replace(model_settings, temperature=0.3, max_tokens=77)
    model = OpenAIChatModel(settings)
    request = ModelRequest((Message.user("hi"),), options={"seed": 7})
    asyncio.run(model.complete(request, ignore_events))
    body = fake_openai.chat_requests()[0].body
    assert (body["temperature"], body["max_tokens"], body["seed"]) == (0.3, 77, 7)


def test_unset_sampling_options_are_left_to_the_endpoint(
    fake_openai: FakeOpenAI, model_settings: ModelSettings
) -> None:
    ask(model_settings)
    body = fake_openai.chat_requests()[0].body
    assert "temperature" not in body
    assert "max_tokens" not in body
