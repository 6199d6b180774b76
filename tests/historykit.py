"""Helpers for the history tests: SQL run outside ctxchat, stored turns, an agent against
the fake OpenAI server, and a context provider that contributes to a turn."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import outside
from fakeopenai import FakeOpenAI

from ctxchat.core.agent import Agent
from ctxchat.core.context import RunContext
from ctxchat.core.errors import ModelError
from ctxchat.core.messages import Message, ToolCallPart
from ctxchat.core.model_types import ModelRequest
from ctxchat.core.openai_format import to_openai_messages
from ctxchat.core.provider import ContextProvider, HistoryProvider, ProviderEnv
from ctxchat.core.session import Session
from ctxchat.core.settings import ModelSettings
from ctxchat.core.tools import Tool
from ctxchat.services.model_client import OpenAIChatModel
from ctxchat.testing import ScriptedModel


def scratch_home() -> Path:
    """A data dir for module-level providers, removed when the tests end: SQL-backed
    providers keep this home's id in it (see `ctxchat.storage.owner`)."""
    import atexit
    import shutil
    import tempfile

    path = Path(tempfile.mkdtemp(prefix="ctxchat-test-home-"))
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


def raw_execute(url: str, statements: Sequence[str], rows: Sequence[tuple[str, Any]] = ()) -> None:
    """Run SQL outside ctxchat: sqlite3 itself for SQLite, a plain engine for PostgreSQL.
    `rows` are (statement, parameters) pairs run after `statements`."""
    if url.startswith("sqlite"):
        path = Path(url.split(":///", 1)[1])
        path.parent.mkdir(parents=True, exist_ok=True)
        with sqlite3.connect(path) as conn:
            for statement in statements:
                conn.execute(statement)
            for statement, params in rows:
                conn.execute(statement, params)
        conn.close()
        return
    with outside.transaction(url) as conn:
        for statement in statements:
            conn.exec_driver_sql(statement)
        for statement, params in rows:
            conn.exec_driver_sql(statement.replace("?", "%s"), tuple(params))


def raw_query(url: str, statement: str) -> list[tuple[Any, ...]]:
    if url.startswith("sqlite"):
        with sqlite3.connect(Path(url.split(":///", 1)[1])) as conn:
            found = [tuple(r) for r in conn.execute(statement)]
        conn.close()
        return found
    with outside.transaction(url) as conn:
        return [tuple(r) for r in conn.exec_driver_sql(statement)]


# -- messages --------------------------------------------------------------------------------
def exchange(text: str) -> list[Message]:
    """A plain turn as the engine stores it: the input and the reply."""
    return [
        Message.user(text).attributed("input"),
        Message.assistant(f"re: {text}").attributed("response"),
    ]


def tool_exchange(text: str, call_id: str, calls: int = 1) -> list[Message]:
    """A turn with tool calls: input, assistant calls, one result per call, final answer."""
    parts = [
        ToolCallPart(f"{call_id}-{i}", "lookup", json.dumps({"q": text})) for i in range(calls)
    ]
    return [
        Message.user(text).attributed("input"),
        Message.assistant("", parts).attributed("response"),
        *(Message.tool_result(p.id, f"result {p.id}").attributed("tool", "tools") for p in parts),
        Message.assistant(f"re: {text}").attributed("response"),
    ]


HistoryFactory = Callable[..., HistoryProvider]


# -- a turn through the real engine ------------------------------------------------------------
def lookup(q: str) -> str:
    return f"found {q}"


LOOKUP = Tool(
    "lookup",
    "Look something up",
    lookup,
    {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]},
)


class Contributor(ContextProvider):
    """Adds fixed context messages, instructions and tools to every turn; may fail on demand."""

    def __init__(
        self,
        source_id: str,
        *,
        messages: Sequence[str] = (),
        instructions: Sequence[str] = (),
        tools: Sequence[Tool] = (),
    ) -> None:
        super().__init__(source_id, env=ProviderEnv(data_dir=Path("/nonexistent")))
        self.messages = list(messages)
        self.instructions = list(instructions)
        self.tools = list(tools)
        self.fail_with: str | None = None

    async def before_run(
        self, *, agent: Any, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        if self.fail_with is not None:
            raise RuntimeError(self.fail_with)
        if self.messages:
            context.extend_messages(self.source_id, [Message.user(t) for t in self.messages])
        if self.instructions:
            context.extend_instructions(self.source_id, self.instructions)
        if self.tools:
            context.extend_tools(self.source_id, self.tools)


def make_agent(settings: ModelSettings, *providers: ContextProvider) -> Agent:
    """An agent with exactly these providers: no fallback history is put in front, so what
    the model is shown comes from them alone."""
    return Agent(model=OpenAIChatModel(settings), providers=providers, fallback_history=None)


def scripted_agent(model: ScriptedModel, *providers: ContextProvider) -> Agent:
    """`make_agent` on a scripted model: for tests of the engine and the providers, which
    need no model server (see `ctxchat.testing`)."""
    return Agent(model=model, providers=providers, fallback_history=None)


def failing(message: str) -> Callable[[ModelRequest], str]:
    """A scripted reply that is the endpoint failing with `message`."""

    def fail(request: ModelRequest) -> str:
        raise ModelError(message)

    return fail


def turn(agent: Agent, session: Session, text: str) -> RunContext:
    return asyncio.run(agent.run(session, text))


def shown(server: FakeOpenAI, index: int = -1) -> list[dict[str, Any]]:
    """What the model was shown in a request, without the system message."""
    return [m for m in server.chat_requests()[index].messages if m["role"] != "system"]


def shown_to(model: ScriptedModel, index: int = -1) -> list[dict[str, Any]]:
    """`shown` for a scripted model: its request as the wire would carry it."""
    messages = to_openai_messages(model.requests[index].messages)
    return [m for m in messages if m["role"] != "system"]


def texts(messages: Sequence[Message]) -> list[tuple[str, str]]:
    return [(m.role, m.text) for m in messages]


def stored(provider: HistoryProvider, session: Session) -> list[Message]:
    state = session.provider_state(provider.source_id)
    return asyncio.run(provider.all_messages(session.id, state=state))
