"""The LLM memory extractor against the real llama.cpp server (slow, the real-server tier).

The tiny model's words vary and are mostly useless as memory: what is asserted is the path.
The extraction request is deterministic (temperature 0), capped and shaped by the
operations' JSON schema, its reply is parsed, and whatever is stored is backed by the
user's own message.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from llamakit import llama_server_in, server_json

from ctxchat.core.agent import Agent
from ctxchat.core.messages import Message
from ctxchat.core.provider import ProviderEnv
from ctxchat.core.session import Session
from ctxchat.core.settings import ModelSettings
from ctxchat.providers.memory.normalize import words
from ctxchat.providers.memory.provider import UserMemoryProvider
from ctxchat.services.llama_server import LlamaServer
from ctxchat.services.model_client import OpenAIChatModel

pytestmark = pytest.mark.slow

MESSAGE = "I live in Lisbon and I work as a baker."


def test_the_llm_extractor_asks_for_the_schema_and_keeps_only_what_the_message_backs(
    tmp_path: Path,
) -> None:
    # A window of its own: the extraction prompt and its reply cap need more than the
    # shared server's small one.
    with llama_server_in(tmp_path, context=2048) as server:
        check_the_extraction_path(server, tmp_path)


def check_the_extraction_path(llama_server: LlamaServer, tmp_path: Path) -> None:
    env = ProviderEnv(data_dir=tmp_path)
    provider = UserMemoryProvider(
        "user_memory",
        UserMemoryProvider.Options(
            extractor="llm", scope="session", url=f"sqlite:///{tmp_path / 'm.db'}"
        ),
        env=env,
    )
    model = OpenAIChatModel(
        ModelSettings(
            base_url=llama_server.base_url, model="smollm2", api_key="none", max_tokens=16
        )
    )
    agent = Agent(model=model, providers=[provider])
    session = Session()
    events: list[object] = []
    asyncio.run(agent.run(session, Message.user(MESSAGE, origin="typed"), on_event=events.append))

    # The last request the server handled was the extraction: deterministic and capped.
    params = server_json(llama_server, "/slots")[0]["params"]
    assert params["temperature"] == 0
    assert 0 < params["n_predict"] <= 768
    # Its reply was parsed: a reply that was no JSON would have been a warning.
    warnings = [e for e in events if "not valid JSON" in str(e) or "no operations" in str(e)]
    assert warnings == []
    # Whatever was stored is the user's: every word of every value is in the message.
    said = set(words(MESSAGE))
    for fact in session.state["user_memory"].get("facts", []):
        assert {w for w in words(fact["value"]) if len(w) > 2} <= said, fact
