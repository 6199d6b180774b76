"""A history backend implements one store, `store_turn` (a turn under its id); `save_messages`
is that store under a new id, never a second implementation looping back to the first
(issue 24, item 3). A backend written to the old API, with `save_messages` only, still
stores its turns."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from ctxchat import Agent, HistoryProvider, Message, Session
from ctxchat.core.agent import TurnFailed
from ctxchat.providers.history.in_memory import InMemoryHistoryProvider
from ctxchat.providers.history.sql import SqlHistoryProvider
from ctxchat.testing import ScriptedModel


class TurnsById(HistoryProvider):
    """The new API: only `get_messages` and `store_turn`."""

    def setup(self) -> None:
        super().setup()
        self.turns: list[tuple[str, list[str]]] = []  # a test's spy, not per-session data

    async def get_messages(self, session_id: str, *, state: dict[str, Any]) -> list[Message]:
        return []

    async def store_turn(
        self, session_id: str, messages: Sequence[Message], *, state: dict[str, Any], turn_id: str
    ) -> None:
        self.turns.append((turn_id, [m.text for m in messages]))


class OldApi(HistoryProvider):
    """A backend written before: `save_messages` only."""

    def setup(self) -> None:
        super().setup()
        self.saved: list[list[str]] = []

    async def get_messages(self, session_id: str, *, state: dict[str, Any]) -> list[Message]:
        return []

    async def save_messages(
        self, session_id: str, messages: Sequence[Message], *, state: dict[str, Any]
    ) -> None:
        self.saved.append([m.text for m in messages])


class NoStore(HistoryProvider):
    async def get_messages(self, session_id: str, *, state: dict[str, Any]) -> list[Message]:
        return []


def test_a_backend_with_store_turn_alone_stores_turns_and_saved_messages() -> None:
    history = TurnsById("history")
    context = asyncio.run(
        Agent(model=ScriptedModel("Hi."), providers=[history]).run(Session(), "hello")
    )
    asyncio.run(history.save_messages("s", [Message.user("later")], state={}))

    (turn_id, turn), (other_id, saved) = history.turns
    assert (turn_id, turn) == (context.turn_id, ["hello", "Hi."])
    assert saved == ["later"]
    assert other_id not in ("", turn_id)


def test_a_backend_of_the_old_api_still_stores_its_turns() -> None:
    history = OldApi("history")
    asyncio.run(Agent(model=ScriptedModel("Hi."), providers=[history]).run(Session(), "hello"))
    assert history.saved == [["hello", "Hi."]]


def test_a_backend_with_no_store_fails_the_turn_naming_itself() -> None:
    agent = Agent(model=ScriptedModel("Hi."), providers=[NoStore("history")])
    with pytest.raises(TurnFailed) as failed:
        asyncio.run(agent.run(Session(), "hello"))
    assert "NoStore does not implement store_turn" in str(failed.value)


@pytest.mark.parametrize("backend", [InMemoryHistoryProvider, SqlHistoryProvider])
def test_the_built_in_histories_implement_store_turn_only(backend: type[Any]) -> None:
    assert "store_turn" in vars(backend)
    assert "save_messages" not in vars(backend)


def test_undo_on_a_history_that_cannot_take_a_turn_back_says_so(tmp_path: Path) -> None:
    """Undo is a capability (`UndoesTurns`), not a base method raising by default."""
    from ctxchat.core.provider import HistoryUnsupported
    from ctxchat.services.conversations import ChatService
    from ctxchat.storage.store import SessionStore

    history = TurnsById("history")
    service = ChatService(
        Agent(model=ScriptedModel("Hi."), providers=[history]), SessionStore(tmp_path)
    )
    conversation = service.new()
    asyncio.run(service.send(conversation, "hello"))
    with pytest.raises(HistoryUnsupported, match="history provider 'history' cannot undo a turn"):
        asyncio.run(service.undo(conversation))
    assert "remove_last_turn" not in vars(HistoryProvider)
