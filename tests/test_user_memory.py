"""The user-memory provider in the engine: what it learns from (the user's own words in a
stored turn, nothing else), what it recalls and in what bounds, scopes and users, the llm
extractor against the local server, and forgetting for real. SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from fakeopenai import Error, FakeOpenAI, Text
from historykit import raw_query

from ctxchat.core.agent import Agent, TurnFailed
from ctxchat.core.messages import Message, TextPart
from ctxchat.core.model_types import Event, ProviderNotice, ProviderWarning
from ctxchat.core.provider import ProviderEnv
from ctxchat.core.session import Session
from ctxchat.core.settings import ModelSettings
from ctxchat.providers.history.in_memory import InMemoryHistoryProvider
from ctxchat.providers.memory.provider import UserMemoryProvider
from ctxchat.services.model_client import OpenAIChatModel
from ctxchat.testing import ScriptedModel

pytest_plugins = ["sqlfixtures"]


@pytest.fixture
def env(tmp_path: Path) -> ProviderEnv:
    return ProviderEnv(data_dir=tmp_path / "data")


def memory(env: ProviderEnv, url: str, **options: Any) -> UserMemoryProvider:
    return UserMemoryProvider(
        "memory",
        UserMemoryProvider.Options(url=url, user=options.pop("user", "ada"), **options),
        env=env,
    )


def agent_with(provider: UserMemoryProvider, model: Any = None) -> Agent:
    history = InMemoryHistoryProvider("history")
    return Agent(model=model or ScriptedModel(), providers=[history, provider])


def turn(agent: Agent, session: Session, *inputs: Message | str) -> tuple[Any, list[Event]]:
    events: list[Event] = []
    messages = [Message.user(i, origin="typed") if isinstance(i, str) else i for i in inputs]
    context = asyncio.run(agent.run(session, messages, on_event=events.append))
    return context, events


def recalled(model: ScriptedModel) -> str:
    return model.requests[-1].messages[0].text


def notices(events: list[Event]) -> list[str]:
    return [e.message for e in events if isinstance(e, ProviderNotice)]


def test_a_fact_learnt_in_one_session_is_recalled_in_the_next(
    sql_url: str, env: ProviderEnv
) -> None:
    model = ScriptedModel()
    agent = agent_with(memory(env, sql_url), model)
    _, events = turn(agent, Session(), "I'm allergic to peanuts.")
    assert notices(events) == ["remembered: allergy: I'm allergic to peanuts."]
    turn(agent, Session(), "What should I cook tonight?")
    assert '<context source="memory">' in recalled(model)
    assert "peanuts" in recalled(model)


def test_only_the_users_own_words_teach_anything(sql_url: str, env: ProviderEnv) -> None:
    model = ScriptedModel("You love jazz and you live in Oslo.")
    agent = agent_with(memory(env, sql_url), model)
    pasted = Message(
        "user",
        (TextPart("Summarise:", "typed"), TextPart("I live in Rome. I love opera.", "pasted")),
    )
    document = Message(
        "user",
        (TextPart("what does this say?", "argument"), TextPart("I am vegan.", "document")),
    )
    for message in (pasted, document, Message.user("My friend loves jazz.", origin="typed")):
        _, events = turn(agent, Session(), message)
        assert notices(events) == []
    turn(agent, Session(), "Any plans for tonight?")
    shown = recalled(model)
    for never in ("Rome", "opera", "vegan", "jazz", "Oslo"):
        assert never not in shown


def test_a_failed_turn_teaches_nothing(
    sql_url: str, env: ProviderEnv, model_settings: ModelSettings, fake_openai: FakeOpenAI
) -> None:
    agent = agent_with(memory(env, sql_url), OpenAIChatModel(model_settings))
    fake_openai.enqueue(Error(500, "boom"))
    with pytest.raises(TurnFailed):
        turn(agent, Session(), "I live in Lisbon.")
    fake_openai.enqueue(Text("ok"))
    turn(agent, Session(), "hello")
    assert "Lisbon" not in fake_openai.chat_requests()[-1].messages[0]["content"]


def test_moving_replaces_the_city_and_forgetting_leaves_nothing_in_the_store(
    sql_url: str, env: ProviderEnv
) -> None:
    model = ScriptedModel()
    agent = agent_with(memory(env, sql_url), model)
    session = Session()
    turn(agent, session, "I live in Paris.")
    _, events = turn(agent, session, "I moved to Berlin last week.")
    assert notices(events) == [
        "remembered: home: I moved to Berlin last week. (was I live in Paris.)"
    ]
    turn(agent, session, "What's the weather like?")
    assert "Berlin" in recalled(model)
    assert "Paris" not in recalled(model)

    _, events = turn(agent, session, "Please forget where I live.")
    assert notices(events) == ["forgot: home: I moved to Berlin last week."]
    rows = raw_query(sql_url, "SELECT fact FROM ctxchat_memory")
    assert not any("Berlin" in r[0] or "Paris" in r[0] for r in rows), rows
    turn(agent, session, "Where do I live?")
    assert "Berlin" not in recalled(model)


def test_a_pronoun_is_read_as_the_person_the_stored_facts_name(
    sql_url: str, env: ProviderEnv
) -> None:
    """Whom "she" stands for comes from the store, across sessions."""
    model = ScriptedModel()
    agent = agent_with(memory(env, sql_url), model)
    turn(agent, Session(), "My sister lives in Paris.")
    _, events = turn(agent, Session(), "She moved to Berlin.")
    assert notices(events) == [
        "no longer remembered: family: My sister lives in Paris.",
        "remembered: family: My sister moved to Berlin.",
    ]


def test_a_name_said_again_replaces_the_stored_one(sql_url: str, env: ProviderEnv) -> None:
    """Which name "Actually I prefer Robert" replaces comes from the store, across sessions."""
    model = ScriptedModel()
    agent = agent_with(memory(env, sql_url), model)
    turn(agent, Session(), "Call me Rob.")
    _, events = turn(agent, Session(), "Actually I prefer Robert, Rob feels too casual.")
    assert notices(events) == ["remembered: name: Call me Robert. (was Call me Rob.)"]


def test_a_new_thing_of_a_stored_type_replaces_it_across_sessions(
    sql_url: str, env: ProviderEnv
) -> None:
    """Which car a new one named in passing replaces comes from the store."""
    model = ScriptedModel()
    agent = agent_with(memory(env, sql_url), model)
    turn(agent, Session(), "I drive a Toyota Corolla.")
    turn(agent, Session(), "Collected a Kia Niro on Friday!! The garage took the Corolla.")
    turn(agent, Session(), "Any tips for a road trip?")
    assert "Niro" in recalled(model)
    assert "Corolla" not in recalled(model)


def test_two_users_in_one_database_never_see_each_other(sql_url: str, env: ProviderEnv) -> None:
    ada, bob = ScriptedModel(), ScriptedModel()
    turn(agent_with(memory(env, sql_url, user="ada"), ada), Session(), "I'm a pilot.")
    turn(agent_with(memory(env, sql_url, user="bob"), bob), Session(), "I'm a nurse.")
    turn(agent_with(memory(env, sql_url, user="ada"), ada), Session(), "What's my job?")
    turn(agent_with(memory(env, sql_url, user="bob"), bob), Session(), "What's my job?")
    assert "pilot" in recalled(ada)
    assert "nurse" not in recalled(ada)
    assert "nurse" in recalled(bob)
    assert "pilot" not in recalled(bob)


def test_session_scope_keeps_facts_in_the_session(sql_url: str, env: ProviderEnv) -> None:
    model = ScriptedModel()
    agent = agent_with(memory(env, sql_url, scope="session"), model)
    first = Session()
    turn(agent, first, "I have a cat named Tom.")
    assert any("Tom" in json.dumps(f) for f in first.state["memory"]["facts"])
    turn(agent, Session(), "What pets do I have?")
    assert "Tom" not in recalled(model)
    turn(agent, first, "What pets do I have?")
    assert "Tom" in recalled(model)


def test_provenance_names_the_session_and_the_message(sql_url: str, env: ProviderEnv) -> None:
    provider = memory(env, sql_url)
    session = Session()
    context, _ = turn(agent_with(provider), session, "My name is Ada.")
    (fact,) = provider.remembered()
    assert fact["provenance"] == {
        "session_id": session.id,
        "message_id": context.input_messages[0].id,
    }


def test_recall_is_bounded_style_first_then_relevant(sql_url: str, env: ProviderEnv) -> None:
    model = ScriptedModel()
    provider = memory(env, sql_url, max_facts=3, max_chars=400)
    agent = agent_with(provider, model)
    session = Session()
    for text in (
        "Please keep answers short.",
        "I love hiking.",
        "I love chess.",
        "I love sushi.",
        "I love painting.",
        "I have a dog named Rex.",
    ):
        turn(agent, session, text)
    turn(agent, session, "Any chess openings for beginners?")
    block = recalled(model).split('<context source="memory">')[1].split("</context>")[0]
    lines = [line for line in block.splitlines() if line.startswith("- ")]
    assert len(lines) == 3
    assert "short" in lines[0]  # reply style first
    assert "chess" in lines[1]  # then what the input is about
    assert len(block) <= 400 + len("\n\n")


def test_memory_off_for_a_session(sql_url: str, env: ProviderEnv) -> None:
    model = ScriptedModel()
    agent = agent_with(memory(env, sql_url), model)
    turn(agent, Session(), "I live in Oslo.")
    quiet = Session(state={"memory": {"off": True}})
    _, events = turn(agent, quiet, "I live in Rome now.")
    assert notices(events) == []
    assert "Oslo" not in recalled(model)


LLM_OPS = json.dumps(
    {
        "operations": [
            {"op": "add", "slot": "job", "value": "nurse", "evidence": "I work as a nurse"},
            {"op": "add", "slot": "location", "value": "Mars", "evidence": "I live on Mars"},
        ]
    }
)


def test_the_llm_extractor_keeps_operations_backed_by_the_message(
    sql_url: str, env: ProviderEnv, model_settings: ModelSettings, fake_openai: FakeOpenAI
) -> None:
    provider = memory(env, sql_url, extractor="llm")
    agent = agent_with(provider, OpenAIChatModel(model_settings))
    fake_openai.enqueue(Text("Nice!"), Text(LLM_OPS))
    _, events = turn(agent, Session(), "I work as a nurse in Leeds.")
    # The extraction request saw the user's message; an op whose evidence is not in it went.
    extraction = fake_openai.chat_requests()[1]
    assert "I work as a nurse in Leeds." in extraction.last_user_text
    # Deterministic, capped and shaped: temperature 0, a reply cap, the operations' schema.
    assert extraction.body["temperature"] == 0
    assert extraction.body["max_tokens"] > 0
    schema = extraction.body["response_format"]["json_schema"]["schema"]
    assert schema["required"] == ["operations"]
    assert notices(events) == ["remembered: job: nurse"]
    assert [f["value"] for f in provider.remembered()] == ["nurse"]


@pytest.mark.parametrize(
    ("reply", "warning"),
    [
        (Text("not json at all"), "not valid JSON"),
        (Error(500, "extractor down"), "memory extractor failed"),
    ],
)
def test_the_llm_extractor_failing_never_fails_the_turn(
    sql_url: str,
    env: ProviderEnv,
    model_settings: ModelSettings,
    fake_openai: FakeOpenAI,
    reply: Any,
    warning: str,
) -> None:
    provider = memory(env, sql_url, extractor="both")
    agent = agent_with(provider, OpenAIChatModel(model_settings, retries=0))
    fake_openai.enqueue(Text("Sure."), reply)
    context, events = turn(agent, Session(), "I'm vegetarian.")
    assert context.error is None
    warnings = [e.message for e in events if isinstance(e, ProviderWarning)]
    assert len(warnings) == 1
    assert warning in warnings[0]
    # `both`: what the rules found is kept.
    assert [f["value"] for f in provider.remembered()] == ["I'm vegetarian."]


def test_secrets_are_never_stored_and_the_user_is_told(sql_url: str, env: ProviderEnv) -> None:
    provider = memory(env, sql_url)
    _, events = turn(agent_with(provider), Session(), "My password is Tr0ub4dor&3xyz")
    assert notices(events) == ["not remembered: that looked like a password, key or account number"]
    assert provider.remembered() == []
    assert "Tr0ub4dor" not in str(raw_query(sql_url, "SELECT * FROM ctxchat_memory"))


def test_a_memory_database_that_cannot_be_read_is_a_warning_not_a_failed_turn(
    tmp_path: Path, env: ProviderEnv
) -> None:
    """Issue 21, item 11: its disk full or its file broken while the history's is fine,
    every turn failed while user memory loaded its facts."""
    broken = tmp_path / "memory.sqlite3"
    broken.write_bytes(b"this is not a database" * 100)
    model = ScriptedModel("fine")
    agent = agent_with(memory(env, f"sqlite:///{broken}"), model)
    context, events = turn(agent, Session(), "hello")
    assert context.response.messages[-1].text == "fine"
    warnings = [e.message for e in events if isinstance(e, ProviderWarning)]
    assert any(w.startswith("recall skipped: ") for w in warnings), warnings
