"""The tool loop (`ctxchat.core.tool_loop`) with a model whose endpoint takes no tools:
none are sent, and the agent says so once, keeping who was told itself (no module global
holds it: another agent on the same model says it again)."""

from __future__ import annotations

import asyncio

from historykit import LOOKUP, Contributor

from ctxchat.core.agent import Agent
from ctxchat.core.limits import ContextLimits
from ctxchat.core.model_types import Event, ModelNotice
from ctxchat.core.session import Session
from ctxchat.testing import ScriptedModel


class NoTools(ScriptedModel):
    async def limits(self) -> ContextLimits:
        return ContextLimits(self.window, "config", takes_tools=False)


def notices(agent: Agent, session: Session, text: str) -> list[str]:
    events: list[Event] = []
    asyncio.run(agent.run(session, text, on_event=events.append))
    return [e.message for e in events if isinstance(e, ModelNotice)]


def test_an_endpoint_without_tools_is_sent_none_and_each_agent_says_so_once() -> None:
    model = NoTools(name="tiny")
    first = Agent(model=model, providers=[Contributor("tools", tools=[LOOKUP])])
    second = Agent(model=model, providers=[Contributor("tools", tools=[LOOKUP])])
    session = Session()

    said = [notices(first, session, "one"), notices(first, session, "two")]
    said.append(notices(second, session, "three"))

    assert [len(n) for n in said] == [1, 0, 1]
    assert said[0][0].startswith("tools are off for tiny: the endpoint says")
    assert all(request.tools == () for request in model.requests)
