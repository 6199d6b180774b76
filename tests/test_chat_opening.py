"""Opening a chat: which conversation, and which model it and the run's later ones talk to.

A resumed session goes on with its own model; nothing it chose may reach a later `/new`
in the same process, which starts on the model the run is configured for (the config's,
or the endpoint's only one when the config names none)."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from fakeopenai import FakeOpenAI

from ctxchat.core.agent import Agent
from ctxchat.core.paths import model_lists_path, sessions_dir
from ctxchat.core.settings import ModelSettings
from ctxchat.services.chat_commands import chat_commands
from ctxchat.services.chat_opening import open_chat
from ctxchat.services.conversations import ChatService, Conversation
from ctxchat.services.model_client import OpenAIChatModel
from ctxchat.services.model_discovery import endpoint_models
from ctxchat.storage.store import SessionStore


def _service(settings: ModelSettings) -> ChatService:
    return ChatService(
        Agent(model=OpenAIChatModel(settings)),
        SessionStore(sessions_dir()),
        models=endpoint_models(settings, model_lists_path()),
    )


def _command(service: ChatService, conversation: Conversation, line: str) -> Conversation:
    registry = chat_commands(service.agent.run_providers())
    context = registry.context(service, conversation, line.lstrip("/").split()[0])
    result = asyncio.run(registry.dispatch(line, context))
    assert result.conversation is not None
    return result.conversation


@pytest.mark.parametrize("configured", ["B", None], ids=["config-names-B", "endpoint-serves-B"])
def test_new_after_resuming_a_session_on_another_model_starts_on_the_runs_model(
    fake_openai: FakeOpenAI, model_settings: ModelSettings, configured: str | None
) -> None:
    fake_openai.models = ["A", "B"] if configured else ["B"]
    earlier = _service(replace(model_settings, model="A"))
    had = earlier.new()
    asyncio.run(earlier.send(had, "on A"))
    earlier.close()

    run_settings = replace(model_settings, model=configured)
    service = _service(run_settings)
    resumed = asyncio.run(open_chat(service, session=had.session.id)).conversation
    asyncio.run(service.send(resumed, "still on A"))
    fresh = _command(service, resumed, "/new")
    asyncio.run(service.send(fresh, "on the run's model"))
    service.close()

    assert [r.model for r in fake_openai.chat_requests()] == ["A", "A", "B"]


def test_new_goes_on_with_the_model_it_follows_when_the_run_can_settle_none(
    fake_openai: FakeOpenAI, model_settings: ModelSettings
) -> None:
    fake_openai.models = ["A", "B"]  # no model named and two served: no run's model to take
    earlier = _service(replace(model_settings, model="B"))
    had = earlier.new()
    asyncio.run(earlier.send(had, "on B"))
    earlier.close()

    service = _service(replace(model_settings, model=None))
    resumed = asyncio.run(open_chat(service, latest=True)).conversation
    fresh = _command(service, resumed, "/new")
    asyncio.run(service.send(fresh, "still on B"))
    service.close()

    assert fresh.model.name == "B"
    assert [r.model for r in fake_openai.chat_requests()] == ["B", "B"]


def test_a_new_chat_with_no_model_named_settles_on_the_endpoints_only_one_and_says_so(
    fake_openai: FakeOpenAI, model_settings: ModelSettings
) -> None:
    fake_openai.models = ["only"]
    service = _service(replace(model_settings, model=None))
    opened = asyncio.run(open_chat(service, title="first"))
    asyncio.run(service.send(opened.conversation, "hello"))
    service.close()

    assert [(n.kind, n.endpoint_model) for n in opened.notes] == [("note", "only")]
    assert opened.conversation.session.model == "only"
    assert opened.conversation.session.title == "first"
    assert service.agent.model.name == ""  # the shared agent holds no settled model
    assert [r.model for r in fake_openai.chat_requests()] == ["only"]
