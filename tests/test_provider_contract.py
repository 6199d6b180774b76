"""The provider contract as an author meets it: only the API `ctxchat` exports, the seed's
provider patterns, and the rules the engine enforces for them."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from typing import Any

import pytest
from fakeopenai import FakeOpenAI

from ctxchat import (
    Agent,
    AgentView,
    ContextProvider,
    Event,
    HistoryProvider,
    Message,
    ProviderNotice,
    ProviderWarning,
    RunContext,
    Session,
    Tool,
    TurnFailed,
    option,
)
from ctxchat.providers.history.in_memory import InMemoryHistoryProvider
from ctxchat.testing import ScriptedModel


class UserPreferenceProvider(ContextProvider):
    """The seed's example, as written there (it reads every turn, failed ones too)."""

    def __init__(self) -> None:
        super().__init__("user-preferences")

    async def before_run(
        self, *, agent: Any, session: Any, context: RunContext, state: dict[str, Any]
    ) -> None:
        if favorite := state.get("favorite_food"):
            context.extend_instructions(self.source_id, f"User's favorite food is {favorite}.")

    async def after_run(
        self, *, agent: Any, session: Any, context: RunContext, state: dict[str, Any]
    ) -> None:
        for message in context.input_messages:
            text = message.text
            if "favorite food is" in text.lower():
                state["favorite_food"] = text.split("favorite food is", 1)[1].strip().rstrip(".")


def run(agent: Agent, session: Session, text: str, events: list[Event] | None = None) -> RunContext:
    sink = events.append if events is not None else (lambda _event: None)
    return asyncio.run(agent.run(session, text, on_event=sink))


def test_the_seeds_provider_runs_and_a_bare_agent_remembers() -> None:
    model = ScriptedModel()
    agent = Agent(model=model, providers=[UserPreferenceProvider()])
    session = Session()
    run(agent, session, "My favorite food is ramen.")
    run(agent, session, "What should I cook?")
    # No provider loads history: the engine put an in-memory one in front.
    shown = [m.text for m in model.requests[1].messages]
    assert "User's favorite food is ramen." in shown[0]
    assert shown[1:] == [
        "My favorite food is ramen.",
        "echo: My favorite food is ramen.",
        "What should I cook?",
    ]


@dataclass(frozen=True)
class Options:
    where: str = option("before", help="when to leave the set behind")


class LeavesASet(ContextProvider[Options]):
    async def before_run(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        if self.options.where == "before":
            state["seen"] = {"a", "b"}

    async def after_stored_turn(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        state["count"] = 1
        if self.options.where == "after":
            state["seen"] = {"a"}


def test_non_json_state_is_blamed_on_its_provider() -> None:
    agent = Agent(model=ScriptedModel(), providers=[LeavesASet("sets")])
    with pytest.raises(TurnFailed) as failed:
        run(agent, Session(), "hi")
    assert failed.value.message == (
        "provider 'sets' failed in before_run: its session state holds a set at "
        "state['seen']: only JSON values can be saved"
    )

    # In after_run: the turn stands, the provider's changes are undone, the user is told.
    agent = Agent(
        model=ScriptedModel(), providers=[LeavesASet("sets", LeavesASet.Options(where="after"))]
    )
    session = Session()
    events: list[Event] = []
    run(agent, session, "hi", events)
    assert session.state["sets"] == {}
    warnings = [e for e in events if isinstance(e, ProviderWarning)]
    assert [w.source_id for w in warnings] == ["sets"]
    assert "holds a set at state['seen']" in warnings[0].message
    assert session.turns == 0  # counting turns is the conversation service's job
    assert len(session.state["session_history"]["messages"]) == 2  # the turn was stored


def test_a_session_from_a_dict_shares_nothing_with_it() -> None:
    session = Session(state={"p": {"items": [1]}})
    copy = Session.from_dict(session.to_dict())
    copy.provider_state("p")["items"].append(2)
    assert session.state == {"p": {"items": [1]}}


class Document(ContextProvider):
    """Adds a document as a context message."""

    async def before_run(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        context.extend_messages(self.source_id, [Message.user("DOC")])


def test_an_audit_style_history_stores_what_the_model_saw_in_its_order() -> None:
    # The seed's audit pattern, with the document provider before the history in config.
    model = ScriptedModel("reply 1", "reply 2")
    audit = InMemoryHistoryProvider(
        "audit", InMemoryHistoryProvider.Options(load_messages=False, store_context_messages=True)
    )
    history = InMemoryHistoryProvider("history")
    agent = Agent(model=model, providers=[Document("doc"), history, audit])
    session = Session()
    run(agent, session, "q1")
    run(agent, session, "q2")
    seen = [m.text for m in model.requests[1].messages[1:]]
    assert seen == ["q1", "reply 1", "DOC", "q2"]
    stored = [entry["parts"][0]["text"] for entry in session.state["audit"]["messages"]]
    assert stored[-5:] == [*seen, "reply 2"]


class Relay(ContextProvider):
    """Passes on another provider's messages under its own name."""

    async def before_run(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        context.extend_messages(self.source_id, context.get_messages(sources=["doc"]))


def test_a_passed_on_message_keeps_its_origin() -> None:
    agent = Agent(model=ScriptedModel(), providers=[Document("doc"), Relay("relay")])
    context = run(agent, Session(), "hi")
    (relayed,) = context.context_messages["relay"]
    assert (relayed.kind, relayed.source_id, relayed.origin) == ("context", "relay", "doc")
    (original,) = context.context_messages["doc"]
    assert (original.source_id, original.origin) == ("doc", "doc")
    round_trip = Message.from_dict(relayed.to_dict())
    assert round_trip.origin == "doc"


class Advertiser(ContextProvider):
    def __init__(self, source_id: str, *tools: Tool) -> None:
        super().__init__(source_id)
        self.tools = tools

    async def before_run(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        context.extend_tools(self.source_id, self.tools)
        context.extend_tools(self.source_id, self.tools)  # twice from one provider: once


def test_two_providers_may_not_advertise_one_tool_name() -> None:
    clock = Tool("now", "the time", lambda: "noon")
    other = Tool("now", "another time", lambda: "midnight")
    agent = Agent(model=ScriptedModel(), providers=[Advertiser("a", clock), Advertiser("b", other)])
    with pytest.raises(TurnFailed, match="providers 'a' and 'b' both advertise a tool named 'now'"):
        run(agent, Session(), "what time is it?")
    model = ScriptedModel(ScriptedModel.calls(("now", {})), "It is noon.")
    context = run(Agent(model=model, providers=[Advertiser("a", clock)]), Session(), "time?")
    assert [t.name for t in model.requests[0].tools] == ["now"]
    assert context.response is not None
    assert context.response.text == "It is noon."


class Learner(ContextProvider):
    """Learns from stored turns; tells the user; reads what an earlier provider left."""

    def __init__(self, source_id: str, log: list[str]) -> None:
        super().__init__(source_id)
        self.log = log

    async def before_run(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        context.metadata["learner saw"] = True

    async def after_run(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        history = session.state.get("history", {}).get("messages", [])
        self.log.append(f"after_run stored={context.stored} history={len(history)}")
        await super().after_run(agent=agent, session=session, context=context, state=state)

    async def after_stored_turn(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        state["learnt"] = state.get("learnt", 0) + 1
        context.notify(self.source_id, "remembered: something")


class BrokenHistory(InMemoryHistoryProvider):
    async def store_turn(self, session_id: str, messages: Any, *, state: Any, turn_id: str) -> None:
        raise OSError("disk full")


@pytest.mark.parametrize("history_cls", [InMemoryHistoryProvider, BrokenHistory])
def test_histories_store_before_providers_learn_whatever_the_order(
    history_cls: type[HistoryProvider[Any]],
) -> None:
    log: list[str] = []
    # The learner comes after the history in the config: in plain reverse order it would
    # run before the history stored the turn.
    providers = [history_cls("history"), Learner("learner", log)]
    agent = Agent(model=ScriptedModel("ok"), providers=providers)
    session = Session()
    events: list[Event] = []
    if history_cls is BrokenHistory:
        with pytest.raises(TurnFailed, match="the reply was shown but not saved: history "):
            run(agent, session, "hi", events)
        assert log == ["after_run stored=False history=0"]
        assert "learner" not in session.state or session.state["learner"] == {}
        return
    context = run(agent, session, "hi", events)
    assert log == ["after_run stored=True history=2"]
    assert session.state["learner"] == {"learnt": 1}
    assert context.metadata == {"learner saw": True}
    assert [e for e in events if isinstance(e, ProviderNotice)] == [
        ProviderNotice("learner", "remembered: something")
    ]


class SlowLearner(ContextProvider):
    async def after_stored_turn(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        state["started"] = True
        await asyncio.Event().wait()  # an extraction that never ends
        state["finished"] = True


def test_ctrl_c_while_providers_learn_leaves_the_turn_standing() -> None:
    agent = Agent(model=ScriptedModel("ok"), providers=[SlowLearner("slow")])
    session = Session()
    events: list[Event] = []

    async def scenario() -> RunContext:
        task = asyncio.create_task(agent.run(session, "hi", on_event=events.append))
        while not session.state.get("slow", {}).get("started"):
            await asyncio.sleep(0)
        task.cancel()  # what Ctrl-C does
        return await task

    context = asyncio.run(scenario())
    assert context.error is None
    assert context.stored
    assert session.state["slow"] == {"started": True}
    assert context.learning_interrupted
    # No warning event: the caller says it in its one line (a script exits 130 saying so).
    assert [e for e in events if isinstance(e, ProviderWarning)] == []


class Recorder(ContextProvider):
    """Notes the stage each hook ran in, in the order they ran."""

    def __init__(self, source_id: str, log: list[str]) -> None:
        super().__init__(source_id)
        self.log = log

    async def record_turn(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        self.log.append(f"record {self.source_id} stored={context.stored}")

    async def after_run(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        self.log.append(f"learn {self.source_id}")


@pytest.mark.parametrize("fails", [False, True])
def test_the_record_stage_runs_for_every_turn_in_config_order_before_any_learner(
    fails: bool,
) -> None:
    """Issue 21, item 3: settled first (history, session file), recorded, then learnt."""
    log: list[str] = []
    model = ScriptedModel(_boom if fails else "ok")
    providers = [Recorder("a", log), Recorder("b", log), Recorder("c", log)]
    agent = Agent(model=model, providers=providers)

    async def commit(context: RunContext) -> None:
        log.append("session file saved")

    try:
        asyncio.run(agent.run(Session(), "hi", on_stored=commit))
    except TurnFailed:
        assert fails
    settled = [] if fails else ["session file saved"]
    stored = not fails
    assert log == [
        *settled,
        f"record a stored={stored}",
        f"record b stored={stored}",
        f"record c stored={stored}",
        "learn c",
        "learn b",
        "learn a",
    ]


def _boom(request: object) -> str:
    raise RuntimeError("the model fell over")


@pytest.mark.slow  # starts Python processes: the slow tier's
def test_turns_under_separate_event_loops_leave_no_noise(fake_openai: FakeOpenAI) -> None:
    script = textwrap.dedent(
        f"""
        import asyncio, gc
        from ctxchat import Agent, OpenAIChatModel, Session

        session = Session()
        for text in ("one", "two", "three"):
            model = OpenAIChatModel("fake-model", base_url="{fake_openai.base_url}", api_key="x")
            agent = Agent(model=model)
            asyncio.run(agent.run(session, text))
        gc.collect()
        print("done")
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "done\n"
    assert done.stderr == ""
    assert len(fake_openai.chat_requests()) == 3
