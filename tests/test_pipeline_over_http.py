"""The provider pipeline through the real openai client and the local OpenAI-protocol
server: what a turn makes of a stream (usage, tool-call arguments assembled from chunks,
the reason the reply stopped), of a cut stream or an error, and of a cancel mid-stream.
The rest of the pipeline runs on a scripted model (test_engine_pipeline.py)."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import pytest
from fakeopenai import Cut, Error, FakeOpenAI, Text, ToolCalls
from test_engine_pipeline import Recorder, stored

from ctxchat.core.agent import Agent, TurnFailed
from ctxchat.core.errors import TurnCancelled
from ctxchat.core.model_types import Event, TextDelta
from ctxchat.core.session import Session
from ctxchat.core.settings import AgentSettings, ModelSettings
from ctxchat.core.tools import Tool
from ctxchat.services.model_client import OpenAIChatModel


def make_agent(settings: ModelSettings, providers: list[Any]) -> Agent:
    return Agent(
        model=OpenAIChatModel(settings),
        providers=providers,
        settings=AgentSettings(instructions="BASE INSTRUCTIONS"),
    )


@pytest.mark.parametrize("reply", [Error(500), Cut(), Error(401)])
def test_failed_turn_stores_nothing_and_after_run_sees_the_error(
    fake_openai: FakeOpenAI, model_settings: ModelSettings, reply: Any
) -> None:
    log: list[tuple[str, str]] = []
    recorder = Recorder("watch", log)
    agent = make_agent(model_settings, [recorder])
    session = Session()
    asyncio.run(agent.run(session, "kept"))
    fake_openai.enqueue(reply)
    with pytest.raises(TurnFailed) as failure:
        asyncio.run(agent.run(session, "lost?"))
    assert failure.value.input_text == "lost?"
    assert [m["parts"][0]["text"] for m in stored(session, "session_history")] == [
        "kept",
        "echo: kept",
    ]
    assert recorder.seen_errors[0] is None
    assert recorder.seen_errors[1] is failure.value.cause
    assert log[-1] == ("after", "watch")


def test_cancelled_turn_runs_after_run_and_hands_back_input(
    fake_openai: FakeOpenAI, model_settings: ModelSettings
) -> None:
    recorder = Recorder("watch", [])
    agent = make_agent(model_settings, [recorder])
    session = Session()
    fake_openai.enqueue(Text("x" * 400, hold=threading.Event()))  # streams until cancelled

    async def scenario() -> TurnFailed:
        streaming = asyncio.Event()

        def on_event(event: Event) -> None:
            if isinstance(event, TextDelta):
                streaming.set()

        task = asyncio.create_task(agent.run(session, "please stop", on_event=on_event))
        await streaming.wait()
        task.cancel()
        try:
            await task
        except TurnFailed as exc:
            return exc
        raise AssertionError("the turn was not cancelled")

    failure = asyncio.run(scenario())
    assert isinstance(failure.cause, TurnCancelled)
    assert failure.exit_code == 130
    assert failure.input_text == "please stop"
    assert isinstance(recorder.seen_errors[0], TurnCancelled)
    assert stored(session, "session_history") == []


def test_usage_is_recorded_from_the_stream(
    fake_openai: FakeOpenAI, model_settings: ModelSettings
) -> None:
    agent = make_agent(model_settings, [])
    fake_openai.enqueue(Text("hello", usage=(123, 7)))
    context = asyncio.run(agent.run(Session(), "hi"))
    assert fake_openai.chat_requests()[0].include_usage
    assert context.response is not None
    assert (context.response.usage.input_tokens, context.response.usage.output_tokens) == (123, 7)
    assert context.response.messages[0].usage is not None


def test_streamed_tool_call_arguments_are_assembled(
    fake_openai: FakeOpenAI, model_settings: ModelSettings
) -> None:
    received: list[dict[str, Any]] = []
    big = {"text": "ünïcødé " * 200, "n": list(range(50))}
    tool = Tool("take", "takes", lambda **kw: received.append(kw) or "ok")
    agent = make_agent(model_settings, [Recorder("t", [], tools=[tool])])
    fake_openai.enqueue(ToolCalls([("take", big)]), Text("ok"))
    asyncio.run(agent.run(Session(), "go"))
    assert received == [big]
    sent_call = fake_openai.chat_requests()[1].messages[-2]["tool_calls"][0]
    assert json.loads(sent_call["function"]["arguments"]) == big


@pytest.mark.parametrize(
    ("finish_reason", "cut_short"),
    [("stop", None), ("length", "max_tokens reached"), ("content_filter", "content filter")],
)
def test_the_response_says_why_the_reply_stopped(
    fake_openai: FakeOpenAI, model_settings: ModelSettings, finish_reason: str, cut_short: str
) -> None:
    fake_openai.enqueue(ToolCalls([("nothing", {})]), Text("final", finish_reason=finish_reason))
    agent = make_agent(model_settings, [])
    response = asyncio.run(agent.run(Session(), "hi")).response
    assert response is not None
    # The final reply's reason, not the tool round's ("tool_calls").
    assert (response.finish_reason, response.cut_short) == (finish_reason, cut_short)
