"""Tools with side effects run only once the approver says so; a refusal is a result."""

from __future__ import annotations

import asyncio
from typing import Any

from fakeopenai import FakeOpenAI, Text, ToolCalls

from ctxchat.core.agent import Agent
from ctxchat.core.approval import Decision, ToolApproval
from ctxchat.core.context import RunContext
from ctxchat.core.model_types import Event, ToolCallFinished
from ctxchat.core.provider import ContextProvider
from ctxchat.core.session import Session
from ctxchat.core.settings import ModelSettings
from ctxchat.core.tools import Tool
from ctxchat.services.model_client import OpenAIChatModel


class Offers(ContextProvider):
    def __init__(self, tools: list[Tool], allowed: list[str] | None = None) -> None:
        super().__init__("offers")
        self.tools = tools
        self.allowed = allowed or []
        self.granted: list[tuple[str, ...]] = []

    async def before_run(
        self, *, agent: Any, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        context.allow_tools(self.allowed)
        context.extend_tools(self.source_id, self.tools)

    async def after_run(
        self, *, agent: Any, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        self.granted.append(context.granted_always)


def setup(
    model_settings: ModelSettings, allowed: list[str] | None = None
) -> tuple[Agent, Offers, list[str]]:
    written: list[str] = []

    def write(text: str) -> str:
        written.append(text)
        return "written"

    tools = [
        Tool(
            "write",
            "writes",
            write,
            {"type": "object", "properties": {"text": {"type": "string"}}},
            side_effects=True,
        ),
        Tool("peek", "reads", lambda: "seen"),
    ]
    offers = Offers(tools, allowed)
    return Agent(model=OpenAIChatModel(model_settings), providers=[offers]), offers, written


def answers(*decisions: Decision) -> tuple[list[ToolApproval], Any]:
    asked: list[ToolApproval] = []
    queue = list(decisions)

    async def approve(request: ToolApproval) -> Decision:
        asked.append(request)
        return queue.pop(0)

    return asked, approve


def test_without_an_approver_a_tool_with_side_effects_is_refused(
    fake_openai: FakeOpenAI, model_settings: ModelSettings
) -> None:
    agent, _, written = setup(model_settings)
    fake_openai.enqueue(ToolCalls([("write", {"text": "x"}), ("peek", {})]), Text("ok"))
    events: list[Event] = []
    asyncio.run(agent.run(Session(), "go", on_event=events.append))
    refused, peeked = fake_openai.chat_requests()[1].messages[-2:]
    assert refused["content"].startswith("refused: the user did not allow 'write' to run")
    assert peeked["content"] == "seen"  # a tool without side effects is never asked about
    assert written == []
    finished = [e for e in events if isinstance(e, ToolCallFinished)]
    assert finished[0].result.is_error
    assert finished[0].seconds == 0.0


def test_yes_runs_it_no_refuses_it(fake_openai: FakeOpenAI, model_settings: ModelSettings) -> None:
    agent, _, written = setup(model_settings)
    asked, approve = answers("yes", "no")
    fake_openai.enqueue(
        ToolCalls([("write", {"text": "one"})]), ToolCalls([("write", {"text": "two"})]), Text("ok")
    )
    asyncio.run(agent.run(Session(), "go", approve=approve))
    assert written == ["one"]
    assert [(a.tool.name, a.call.arguments, a.source_id) for a in asked] == [
        ("write", '{"text": "one"}', "offers"),
        ("write", '{"text": "two"}', "offers"),
    ]
    assert fake_openai.chat_requests()[2].messages[-1]["content"].startswith("refused")


def test_always_holds_for_the_rest_of_the_run_and_is_reported(
    fake_openai: FakeOpenAI, model_settings: ModelSettings
) -> None:
    agent, offers, written = setup(model_settings)
    asked, approve = answers("always")
    fake_openai.enqueue(
        ToolCalls([("write", {"text": "one"}), ("write", {"text": "two"})]), Text("ok")
    )
    asyncio.run(agent.run(Session(), "go", approve=approve))
    assert written == ["one", "two"]
    assert len(asked) == 1
    assert offers.granted == [("write",)]


def test_tools_a_provider_allows_run_unasked(
    fake_openai: FakeOpenAI, model_settings: ModelSettings
) -> None:
    agent, offers, written = setup(model_settings, allowed=["write"])
    asked, approve = answers()
    fake_openai.enqueue(ToolCalls([("write", {"text": "one"})]), Text("ok"))
    asyncio.run(agent.run(Session(), "go", approve=approve))
    assert (written, asked, offers.granted) == (["one"], [], [()])
