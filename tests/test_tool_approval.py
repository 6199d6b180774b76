"""Tools with side effects run only once the approver says so; a refusal is a result."""

from __future__ import annotations

import asyncio
from typing import Any

from ctxchat.core.agent import Agent
from ctxchat.core.approval import Decision, ToolApproval
from ctxchat.core.context import RunContext
from ctxchat.core.model_types import Event, ToolCallFinished
from ctxchat.core.openai_format import to_openai_messages
from ctxchat.core.provider import ContextProvider
from ctxchat.core.session import Session
from ctxchat.core.tools import Tool
from ctxchat.testing import ScriptedModel


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
    model: ScriptedModel, allowed: list[str] | None = None
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
    return Agent(model=model, providers=[offers]), offers, written


def sent(model: ScriptedModel, index: int) -> list[dict[str, Any]]:
    """The messages of request `index` as the wire carries them."""
    return to_openai_messages(model.requests[index].messages)


def answers(*decisions: Decision) -> tuple[list[ToolApproval], Any]:
    asked: list[ToolApproval] = []
    queue = list(decisions)

    async def approve(request: ToolApproval) -> Decision:
        asked.append(request)
        return queue.pop(0)

    return asked, approve


def test_without_an_approver_a_tool_with_side_effects_is_refused() -> None:
    model = ScriptedModel(ScriptedModel.calls(("write", {"text": "x"}), ("peek", {})), "ok")
    agent, _, written = setup(model)
    events: list[Event] = []
    asyncio.run(agent.run(Session(), "go", on_event=events.append))
    refused, peeked = sent(model, 1)[-2:]
    assert refused["content"].startswith("refused: the user did not allow 'write' to run")
    assert peeked["content"] == "seen"  # a tool without side effects is never asked about
    assert written == []
    finished = [e for e in events if isinstance(e, ToolCallFinished)]
    assert finished[0].result.is_error
    assert finished[0].seconds == 0.0


def test_yes_runs_it_no_refuses_it() -> None:
    model = ScriptedModel(
        ScriptedModel.calls(("write", {"text": "one"})),
        ScriptedModel.calls(("write", {"text": "two"})),
        "ok",
    )
    agent, _, written = setup(model)
    asked, approve = answers("yes", "no")
    asyncio.run(agent.run(Session(), "go", approve=approve))
    assert written == ["one"]
    assert [(a.tool.name, a.call.arguments, a.source_id) for a in asked] == [
        ("write", '{"text": "one"}', "offers"),
        ("write", '{"text": "two"}', "offers"),
    ]
    assert sent(model, 2)[-1]["content"].startswith("refused")


def test_always_holds_for_the_rest_of_the_run_and_is_reported() -> None:
    model = ScriptedModel(
        ScriptedModel.calls(("write", {"text": "one"}), ("write", {"text": "two"})), "ok"
    )
    agent, offers, written = setup(model)
    asked, approve = answers("always")
    asyncio.run(agent.run(Session(), "go", approve=approve))
    assert written == ["one", "two"]
    assert len(asked) == 1
    assert offers.granted == [("write",)]


def test_tools_a_provider_allows_run_unasked() -> None:
    model = ScriptedModel(ScriptedModel.calls(("write", {"text": "one"})), "ok")
    agent, offers, written = setup(model, allowed=["write"])
    asked, approve = answers()
    asyncio.run(agent.run(Session(), "go", approve=approve))
    assert (written, asked, offers.granted) == (["one"], [], [()])
