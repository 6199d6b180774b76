"""A tool that reads the turn it is called in gets the turn's `ToolRun` from the engine, per
call: nothing of a turn is kept on the provider every session shares (issue 24, item 3).
The built-in `search_sessions` used to find the agent and the project on the shared tools
provider, set by each turn's `before_run`: two turns side by side searched with whichever
project came last."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from ctxchat import (
    Agent,
    AgentView,
    ContextProvider,
    Middleware,
    ProviderEnv,
    RunContext,
    Session,
    Tool,
)
from ctxchat.core.messages import ToolCallPart, ToolResultPart
from ctxchat.core.model_types import ModelReply, ModelRequest, ToolCall
from ctxchat.core.options import NoOptions
from ctxchat.core.tools import invoke_tool
from ctxchat.kit import ToolRun
from ctxchat.providers.history.sql import SqlHistoryProvider
from ctxchat.providers.tools.provider import ToolsOptions, ToolsProvider
from ctxchat.services.conversations import ChatService
from ctxchat.storage.store import SessionStore
from ctxchat.testing import ScriptedModel


class Meet(Middleware):
    """Holds each tool call until `count` turns are inside one: the turns run side by side."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.arrived = 0
        self.all_in = asyncio.Event()

    async def on_tool_call(
        self, tool: Tool | None, call: ToolCallPart, call_next: ToolCall
    ) -> ToolResultPart:
        self.arrived += 1
        if self.arrived == self.count:
            self.all_in.set()
        await self.all_in.wait()
        return await call_next(tool, call)


class Gate(ContextProvider[NoOptions]):
    def setup(self) -> None:
        self.meet: Meet | None = None  # the test's meeting point, set per test

    async def before_run(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        if self.meet is not None:
            context.extend_middleware(self.source_id, self.meet)


def calls_then_says(tool: str, arguments: dict[str, Any]) -> Any:
    def reply(request: ModelRequest) -> ModelReply | str:
        last = request.messages[-1]
        if last.tool_results:
            return "done"
        return ScriptedModel.calls((tool, arguments))

    return reply


def tool_results(context: RunContext) -> list[str]:
    assert context.response is not None
    return [r.content for m in context.response.messages for r in m.tool_results]


def test_a_tool_that_takes_the_run_gets_the_session_of_its_own_turn() -> None:
    async def whose(run: ToolRun) -> str:
        return run.session.id

    tool = Tool("whose", "whose turn", whose, takes_run=True)

    class Offer(Gate):
        async def before_run(self, **kwargs: Any) -> None:
            await super().before_run(**kwargs)
            kwargs["context"].extend_tools(self.source_id, [tool])

    gate = Offer("gate")
    gate.meet = Meet(2)
    model = ScriptedModel(*[calls_then_says("whose", {})] * 4)
    agent = Agent(model=model, providers=[gate], fallback_history=None)
    first, second = Session(), Session()

    async def both() -> list[RunContext]:
        return list(await asyncio.gather(agent.run(first, "who?"), agent.run(second, "who?")))

    one, two = asyncio.run(both())
    assert tool_results(one) == [first.id]
    assert tool_results(two) == [second.id]
    assert "run" not in tool.parameters.get("properties", {})


def test_outside_a_turn_a_tool_that_takes_the_run_is_refused_not_crashed() -> None:
    tool = Tool("whose", "whose turn", lambda run: run.session.id, takes_run=True)
    result = asyncio.run(invoke_tool(tool, ToolCallPart("c1", "whose", "{}"), default_timeout=5))
    assert result.is_error
    assert "runs during a turn only" in result.content


def test_two_turns_side_by_side_each_search_their_own_project_first(tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = ProviderEnv(data_dir=data)
    history = SqlHistoryProvider("history", env=env)
    tools = ToolsProvider("tools", ToolsOptions(builtins=["search_sessions"]), env=env)
    gate = Gate("gate", env=env)
    model = ScriptedModel(
        "Noted.", "Noted.", *[calls_then_says("search_sessions", {"query": "lighthouse"})] * 4
    )
    agent = Agent(model=model, providers=[history, tools, gate])
    service = ChatService(agent, SessionStore(data / "sessions"))

    said = {}
    for project in ("alpha", "beta"):
        conversation = service.new(title=f"{project} notes")
        conversation.session.project = project
        asyncio.run(service.send(conversation, f"the lighthouse of {project}"))
        said[project] = conversation.session.id
    asking = {}
    for project in ("alpha", "beta"):
        asking[project] = Session(project=project)

    gate.meet = Meet(2)

    async def both() -> list[RunContext]:
        return list(
            await asyncio.gather(
                agent.run(asking["alpha"], "where?"), agent.run(asking["beta"], "where?")
            )
        )

    alpha, beta = asyncio.run(both())
    (found_by_alpha,) = tool_results(alpha)
    (found_by_beta,) = tool_results(beta)
    # Each project's own session is the first hit its turn's search returned.
    assert found_by_alpha.index(said["alpha"]) < found_by_alpha.index(said["beta"])
    assert found_by_beta.index(said["beta"]) < found_by_beta.index(said["alpha"])
