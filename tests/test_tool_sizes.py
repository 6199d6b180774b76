"""Tool results and tool-call arguments cut to what is kept and to the window, with a note
the model reads, and stored cut (issue 21, item 6)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from ctxchat.core.agent import Agent
from ctxchat.core.budget import measure
from ctxchat.core.context import RunContext
from ctxchat.core.provider import AgentView, ContextProvider
from ctxchat.core.session import Session
from ctxchat.core.settings import AgentSettings
from ctxchat.core.tools import Tool
from ctxchat.providers.history.in_memory import InMemoryHistoryProvider
from ctxchat.testing import ScriptedModel

PAGE = "All work and no play makes a dull chat. " * 1_500  # 60 KB


class Offers(ContextProvider):
    def __init__(self, tools: list[Tool]) -> None:
        super().__init__("tools")
        self.tools = tools

    async def before_run(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        context.extend_tools(self.source_id, self.tools)


def run_with(tool: Tool, model: ScriptedModel, **settings: Any) -> tuple[RunContext, Session]:
    agent = Agent(
        model=model,
        providers=[InMemoryHistoryProvider("history"), Offers([tool])],
        settings=AgentSettings(**settings),
    )
    session = Session()
    return asyncio.run(agent.run(session, "read it")), session


def stored_result(session: Session) -> str:
    messages = session.state["history"]["messages"]
    (result,) = [m for m in messages if m["role"] == "tool"]
    return str(result["parts"][0]["content"])


def test_a_result_larger_than_the_window_is_cut_to_fit_with_a_note() -> None:
    """read_file of a 60 KB file against an 8,192-token window failed the turn."""
    tool = Tool("read_page", "reads", lambda: PAGE)
    model = ScriptedModel(ScriptedModel.calls(("read_page", {})), "read", window=8_192)
    context, session = run_with(tool, model)
    assert context.stored
    second = model.requests[1]
    limits = asyncio.run(model.limits())
    assert measure(limits, second.messages, second.tools) <= limits.room
    sent = second.messages[-1].tool_results[0].content
    assert sent.startswith(PAGE[:1_000])
    assert sent.endswith("(the rest did not fit the model's context window)]")
    assert "this tool result was 60,000 bytes" in sent
    assert stored_result(session) == sent  # stored as the model read it


def test_a_result_over_max_reply_bytes_is_stored_cut() -> None:
    tool = Tool("read_page", "reads", lambda: PAGE)
    model = ScriptedModel(ScriptedModel.calls(("read_page", {})), "read")
    _, session = run_with(tool, model, max_reply_bytes=5_000)
    kept = stored_result(session)
    assert kept.startswith(PAGE[:4_000])
    assert kept.endswith(
        "this tool result was 60,000 bytes; only the first 5,000 were kept "
        "([agent] max_reply_bytes)]"
    )


def test_arguments_over_max_reply_bytes_are_not_kept_and_the_tool_does_not_run() -> None:
    ran: list[int] = []
    tool = Tool(
        "write",
        "writes",
        lambda text="": ran.append(len(text)) or "ok",
        {"type": "object", "properties": {"text": {"type": "string"}}},
    )
    model = ScriptedModel(ScriptedModel.calls(("write", {"text": "x" * 3_000_000})), "done")
    _, session = run_with(tool, model)
    assert ran == []
    messages = session.state["history"]["messages"]
    call = next(m for m in messages if m["role"] == "assistant" and m["parts"])
    arguments = call["parts"][0]["arguments"]
    assert len(arguments) < 1_000
    assert "these arguments were 3,000,012 bytes" in json.loads(arguments)["ctxchat_cut"]
    assert "the call was not run" in stored_result(session)
    assert len(json.dumps(session.state)) < 10_000


def test_a_catalogue_larger_than_the_window_is_trimmed_from_its_end(tmp_path: Path) -> None:
    """Advertised without a selector, the tools provider's catalogue failed the turn with
    'shorten the message' when it did not fit; now its last tools go first."""
    from ctxchat.core.provider import ProviderEnv
    from ctxchat.providers.tools.provider import ToolsProvider

    tools = ToolsProvider("tools", env=ProviderEnv(data_dir=tmp_path / "data"))
    catalogue = [t.name for t in tools.catalogue()]
    model = ScriptedModel("ok", window=512)
    agent = Agent(model=model, providers=[tools])
    context = asyncio.run(agent.run(Session(), "hi"))
    offered = [t.name for t in model.requests[0].tools]
    assert 0 < len(offered) < len(catalogue)
    assert offered == catalogue[: len(offered)]
    assert context.budget is not None
    assert context.budget.trimmed["tools"] == len(catalogue) - len(offered)
