"""`user_memory` with scope = "project" in the engine: facts about the work stay with
their project, facts about the person with the user, and `/memory` says which is which.
SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from ctxchat.core.agent import Agent
from ctxchat.core.messages import Message
from ctxchat.core.provider import ProviderEnv
from ctxchat.core.session import Session
from ctxchat.providers.history.in_memory import InMemoryHistoryProvider
from ctxchat.providers.memory.provider import UserMemoryProvider
from ctxchat.services.chat_commands import chat_commands
from ctxchat.services.conversations import ChatService
from ctxchat.storage.store import SessionStore
from ctxchat.testing import ScriptedModel

pytest_plugins = ["sqlfixtures"]


def test_work_facts_stay_in_their_project_and_listing_names_the_scope(
    sql_url: str, tmp_path: Path
) -> None:
    model = ScriptedModel()
    provider = UserMemoryProvider(
        "memory",
        UserMemoryProvider.Options(url=sql_url, user="ada", scope="project"),
        env=ProviderEnv(data_dir=tmp_path),
    )
    agent = Agent(model=model, providers=[InMemoryHistoryProvider("history"), provider])

    def turn(project: str | None, text: str) -> str:
        session = Session(project=project)
        asyncio.run(agent.run(session, [Message.user(text, origin="typed")]))
        # (casefolded: a writer who capitalises no names has "bazel" stored as "Bazel")
        return model.requests[-1].messages[0].text.casefold()

    turn("path:/one", "Our build uses the bazel monorepo tooling.")
    turn("path:/one", "I'm allergic to peanuts.")
    in_two = turn("path:/two", "What should I eat?")
    assert "peanuts" in in_two
    assert "bazel" not in in_two
    assert "bazel" in turn("path:/one", "How do we build?")
    assert "bazel" not in turn(None, "How do we build?")  # outside any project: the user's

    every = provider.remembered_by_scope(None, every=True)
    scopes = {(f["scope"], f.get("project")) for f in every if "bazel" in f["value"].casefold()}
    assert scopes == {("project", "path:/one")}

    service = ChatService(agent, SessionStore(tmp_path / "sessions"))
    conversation = service.new()
    conversation.session.project = "path:/one"
    registry = chat_commands(agent.run_providers())
    context = registry.context(service, conversation, "memory")
    listed = asyncio.run(registry.dispatch("/memory", context))
    (table,) = listed.blocks
    assert table.columns[:2] == ("#", "scope")  # type: ignore[union-attr]
    rows = {(row[1], row[3]) for row in table.rows}  # type: ignore[union-attr]
    assert ("project", "our build uses the bazel monorepo tooling.") in {
        (scope, str(value).casefold()) for scope, value in rows
    }
    number = next(row[0] for row in table.rows if "bazel" in str(row[3]).casefold())  # type: ignore[union-attr]
    asyncio.run(registry.dispatch(f"/memory forget {number}", context))
    assert provider.remembered_by_scope("path:/one", every=False) == []
    agent.close()


@pytest.mark.parametrize("text", ["Our build uses the bazel monorepo tooling."])
def test_the_user_scope_is_unchanged(sql_url: str, tmp_path: Path, text: str) -> None:
    model = ScriptedModel()
    provider = UserMemoryProvider(
        "memory",
        UserMemoryProvider.Options(url=sql_url, user="ada"),
        env=ProviderEnv(data_dir=tmp_path),
    )
    agent = Agent(model=model, providers=[InMemoryHistoryProvider("history"), provider])
    asyncio.run(agent.run(Session(project="path:/one"), [Message.user(text, origin="typed")]))
    asyncio.run(agent.run(Session(project="path:/two"), [Message.user("build?", origin="typed")]))
    assert "bazel" in model.requests[-1].messages[0].text.casefold()
    agent.close()
