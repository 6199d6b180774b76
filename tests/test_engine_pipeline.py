"""The provider pipeline run end to end on a scripted model (`ctxchat.testing`): what the
engine does is the same whatever model it talks to. What depends on the model client (a
stream's usage, arguments assembled from chunks, a cut stream) is in
test_pipeline_over_http.py, against the local OpenAI-protocol server."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import pytest

from ctxchat.core.agent import Agent, TurnFailed
from ctxchat.core.context import RunContext
from ctxchat.core.errors import ConfigError, ProviderError, ToolLoopLimit
from ctxchat.core.messages import Message, ToolCallPart, ToolResultPart
from ctxchat.core.model_types import (
    ChatModel,
    Middleware,
    ModelCall,
    ModelReply,
    ModelRequest,
    ToolCall,
)
from ctxchat.core.openai_format import to_openai_messages
from ctxchat.core.provider import ContextProvider
from ctxchat.core.session import Session
from ctxchat.core.settings import AgentSettings
from ctxchat.core.tools import Tool
from ctxchat.providers.history.in_memory import InMemoryHistoryProvider
from ctxchat.testing import ScriptedModel


class Recorder(ContextProvider):
    """Adds an instruction, a context message and tools; records the hooks it saw."""

    def __init__(
        self,
        source_id: str,
        log: list[tuple[str, str]],
        *,
        instruction: str | None = None,
        message: str | None = None,
        tools: Sequence[Tool] = (),
        fail_before: bool = False,
        fail_after: bool = False,
    ) -> None:
        super().__init__(source_id)
        self.log = log
        self.instruction = instruction
        self.message = message
        self.tools = list(tools)
        self.fail_before = fail_before
        self.fail_after = fail_after
        self.seen_errors: list[BaseException | None] = []
        self.seen_response: list[Any] = []

    async def before_run(
        self, *, agent: Any, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        self.log.append(("before", self.source_id))
        state["runs"] = state.get("runs", 0) + 1
        if self.fail_before:
            raise RuntimeError("database is on fire")
        if self.instruction:
            context.extend_instructions(self.source_id, self.instruction)
        if self.message:
            context.extend_messages(self.source_id, [Message.user(self.message)])
        if self.tools:
            context.extend_tools(self.source_id, self.tools)

    async def after_run(
        self, *, agent: Any, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        self.log.append(("after", self.source_id))
        self.seen_errors.append(context.error)
        self.seen_response.append(context.response)
        if self.fail_after:
            raise RuntimeError("could not write")


def make_agent(
    model: ChatModel, providers: Sequence[ContextProvider], **agent_settings: Any
) -> Agent:
    return Agent(
        model=model,
        providers=providers,
        settings=AgentSettings(instructions="BASE INSTRUCTIONS", **agent_settings),
    )


def sent(model: ScriptedModel, index: int) -> list[dict[str, Any]]:
    """The messages of the model's request `index` as the wire carries them."""
    return to_openai_messages(model.requests[index].messages)


def raw_call(name: str, arguments: str) -> ModelReply:
    """A reply calling `name` with `arguments` exactly as written (maybe not JSON)."""
    call = ToolCallPart("call_1", name, arguments)
    return ModelReply(Message.assistant("", [call]), finish_reason="tool_calls")


def stored(session: Session, source_id: str) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = session.state.get(source_id, {}).get("messages", [])
    return messages


def test_hooks_run_in_order_forward_then_reverse() -> None:
    model = ScriptedModel()
    log: list[tuple[str, str]] = []
    agent = make_agent(model, [Recorder("a", log), Recorder("b", log), Recorder("c", log)])
    asyncio.run(agent.run(Session(), "hi"))
    assert log == [
        ("before", "a"),
        ("before", "b"),
        ("before", "c"),
        ("after", "c"),
        ("after", "b"),
        ("after", "a"),
    ]
    assert [p.source_id for p in agent.run_providers()] == ["session_history", "a", "b", "c"]


def test_state_is_namespaced_by_source_id() -> None:
    model = ScriptedModel()
    log: list[tuple[str, str]] = []
    agent = make_agent(model, [Recorder("a", log), Recorder("b", log)])
    session = Session(state={"b": {"runs": 10}, "unrelated": {"x": 1}})
    asyncio.run(agent.run(session, "hi"))
    assert session.state["a"] == {"runs": 1}
    assert session.state["b"] == {"runs": 11}
    assert session.state["unrelated"] == {"x": 1}
    # The provider object itself kept nothing of the session.
    assert not hasattr(agent.providers[0], "runs")


def test_model_sees_instructions_by_source_then_history_context_input() -> None:
    model = ScriptedModel()
    log: list[tuple[str, str]] = []
    memory = Recorder("memory", log, instruction="User is vegetarian.", message="MEMO")
    rag = Recorder("rag", log, instruction="Docs say X.", message="DOC")
    history = InMemoryHistoryProvider("history")
    agent = make_agent(model, [memory, history, rag])
    session = Session()
    asyncio.run(agent.run(session, "first"))
    asyncio.run(agent.run(session, "second"))

    request = sent(model, -1)
    system = request[0]
    assert system["role"] == "system"
    assert system["content"].startswith("BASE INSTRUCTIONS")
    assert '<context source="memory">\nUser is vegetarian.\n</context>' in system["content"]
    assert system["content"].index("memory") < system["content"].index("rag")
    contents = [m["content"] for m in request[1:]]
    # History first (even though 'history' is configured after 'memory'), then context
    # messages in provider order, then the input.
    assert contents == ["first", "echo: first", "MEMO", "DOC", "second"]


def test_advertised_tools_reach_the_model_and_run() -> None:
    model = ScriptedModel()
    calls: list[dict[str, Any]] = []

    def add(a: int, b: int) -> int:
        calls.append({"a": a, "b": b})
        return a + b

    adder = Tool(
        "add",
        "Add two integers",
        add,
        {
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
            "required": ["a", "b"],
        },
    )
    log: list[tuple[str, str]] = []
    provider = Recorder("calc", log, tools=[adder])
    agent = make_agent(model, [provider])
    model.script += [ScriptedModel.calls(("add", {"a": 2, "b": 40})), "It is 42."]
    session = Session()
    context = asyncio.run(agent.run(session, "what is 2+40?"))

    first, second = model.requests
    assert [t.name for t in first.tools] == ["add"]
    assert calls == [{"a": 2, "b": 40}]
    tool_message = to_openai_messages(second.messages)[-1]
    assert tool_message["role"] == "tool"
    assert tool_message["content"] == "42"
    assert context.response is not None
    assert context.response.text == "It is 42."
    kinds = [(m.role, m.kind, m.source_id) for m in context.response.messages]
    assert kinds == [
        ("assistant", "response", None),
        ("tool", "tool", "calc"),
        ("assistant", "response", None),
    ]
    # after_run got every message of the turn: call, result and answer are all stored.
    roles = [m["role"] for m in stored(session, "session_history")]
    assert roles == ["user", "assistant", "tool", "assistant"]


def test_tool_that_raises_becomes_an_error_result() -> None:
    model = ScriptedModel()

    def broken() -> str:
        raise ValueError("disk not found")

    provider = Recorder("t", [], tools=[Tool("broken", "always fails", broken)])
    agent = make_agent(model, [provider])
    model.script += [ScriptedModel.calls(("broken", {})), "Sorry."]
    context = asyncio.run(agent.run(Session(), "go"))
    result = sent(model, 1)[-1]
    assert result["content"] == "ValueError: disk not found"
    assert context.response is not None
    assert context.response.messages[1].tool_results[0].is_error


def test_a_tool_calling_sys_exit_is_an_error_result_and_the_turn_is_kept() -> None:
    """Issue 21, item 2: the turn completes, is stored, and every after_run sees it."""
    model = ScriptedModel()

    def quits() -> str:
        raise SystemExit(0)

    provider = Recorder("t", [], tools=[Tool("quits", "ends the process", quits)])
    agent = make_agent(model, [provider])
    model.script += [ScriptedModel.calls(("quits", {})), "It tried to quit."]
    session = Session()
    context = asyncio.run(agent.run(session, "go"))
    result = sent(model, 1)[-1]
    assert result["content"] == "SystemExit: tool 'quits' tried to end the process (exit status 0)"
    assert context.error is None
    assert context.stored
    assert provider.seen_errors == [None]
    assert [m["role"] for m in stored(session, "session_history")][-1] == "assistant"


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ('{"a": "two"}', "invalid arguments for 'need_int': a: 'two' is not of type 'integer'"),
        ("{not json", "arguments are not valid JSON"),
    ],
)
def test_bad_tool_arguments_are_reported_to_the_model(arguments: str, expected: str) -> None:
    model = ScriptedModel()
    seen: list[int] = []
    tool = Tool(
        "need_int",
        "needs an int",
        lambda a: seen.append(a),
        {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
    )
    agent = make_agent(model, [Recorder("t", [], tools=[tool])])
    model.script += [raw_call("need_int", arguments), "ok"]
    asyncio.run(agent.run(Session(), "go"))
    assert sent(model, 1)[-1]["content"].startswith(expected)
    assert seen == []


def test_slow_tool_times_out() -> None:
    model = ScriptedModel()

    async def slow() -> str:
        await asyncio.sleep(5)
        return "never"

    tool = Tool("slow", "sleeps", slow, timeout=0.2)
    agent = make_agent(model, [Recorder("t", [], tools=[tool])])
    model.script += [ScriptedModel.calls(("slow", {})), "ok"]
    asyncio.run(agent.run(Session(), "go"))
    assert sent(model, 1)[-1]["content"] == ("tool 'slow' timed out after 0.2s")


def test_unadvertised_tool_call_is_an_error_result() -> None:
    model = ScriptedModel()
    agent = make_agent(model, [])
    model.script += [ScriptedModel.calls(("rm_rf", {})), "ok"]
    asyncio.run(agent.run(Session(), "go"))
    assert sent(model, 1)[-1]["content"] == "unknown tool 'rm_rf'"


def test_tool_loop_is_bounded_and_stores_nothing() -> None:
    model = ScriptedModel()
    tool = Tool("again", "loops", lambda: "more")
    agent = make_agent(model, [Recorder("t", [], tools=[tool])], max_tool_rounds=3)
    model.script += [ScriptedModel.calls(("again", {}))] * 3
    session = Session()
    with pytest.raises(TurnFailed) as failure:
        asyncio.run(agent.run(session, "loop forever"))
    assert isinstance(failure.value.cause, ToolLoopLimit)
    assert "3 tool rounds" in str(failure.value)
    assert len(model.requests) == 3
    assert stored(session, "session_history") == []
    assert failure.value.input_text == "loop forever"


def test_provider_failing_before_run_aborts_naming_it() -> None:
    model = ScriptedModel()
    log: list[tuple[str, str]] = []
    after = Recorder("after", log)
    agent = make_agent(model, [Recorder("boom", log, fail_before=True), after])
    session = Session()
    with pytest.raises(TurnFailed) as failure:
        asyncio.run(agent.run(session, "hi"))
    assert isinstance(failure.value.cause, ProviderError)
    assert str(failure.value) == "provider 'boom' failed in before_run: database is on fire"
    assert model.requests == []
    assert ("before", "after") not in log
    assert isinstance(after.seen_errors[0], ProviderError)
    assert stored(session, "session_history") == []


def test_provider_failing_after_run_is_reported_and_others_still_run() -> None:
    model = ScriptedModel()
    log: list[tuple[str, str]] = []
    agent = make_agent(model, [Recorder("first", log), Recorder("bad", log, fail_after=True)])
    session = Session()
    warnings: list[Any] = []
    asyncio.run(agent.run(session, "hi", on_event=warnings.append))
    assert ("after", "first") in log
    problems = [w for w in warnings if type(w).__name__ == "ProviderWarning"]
    assert [(w.source_id, w.message) for w in problems] == [
        ("bad", "after_run failed: could not write")
    ]
    assert len(stored(session, "session_history")) == 2


def test_extending_context_copies_and_stamps_never_mutates() -> None:
    original = Message.user("from the caller")
    context = RunContext(session_id="s", input_messages=[original])
    context.extend_messages("rag", [original])
    stamped = context.context_messages["rag"][0]
    assert original.attribution is None
    assert stamped is not original
    assert (stamped.kind, stamped.source_id) == ("context", "rag")
    assert stamped.id == original.id
    assert stamped.text == original.text
    assert context.input_messages[0].kind == "input"
    assert original.attribution is None


def test_get_messages_filters_by_source() -> None:
    context = RunContext(session_id="s", input_messages=[Message.user("in")])
    context.extend_messages("a", [Message.user("A")])
    context.extend_messages("b", [Message.user("B")])
    context.extend_messages("c", [Message.user("C")])
    texts = lambda messages: [m.text for m in messages]  # noqa: E731
    assert texts(context.get_messages()) == ["A", "B", "C"]
    assert texts(context.get_messages(sources={"a", "c"})) == ["A", "C"]
    assert texts(context.get_messages(exclude_sources={"b"})) == ["A", "C"]
    assert texts(context.get_messages(sources={"b"}, include_input=True)) == ["B", "in"]


def test_duplicate_source_ids_are_rejected() -> None:
    model = ScriptedModel()
    with pytest.raises(ConfigError, match=r"providers\[0\] and providers\[2\] share source_id 'x'"):
        make_agent(model, [Recorder("x", []), Recorder("y", []), Recorder("x", [])])


def test_two_loading_histories_are_rejected() -> None:
    model = ScriptedModel()
    with pytest.raises(ConfigError, match=r"providers\[0\] \('h1'\), providers\[1\] \('h2'\)"):
        make_agent(model, [InMemoryHistoryProvider("h1"), InMemoryHistoryProvider("h2")])
    # One loading and one audit-style history is the documented pattern.
    make_agent(
        model,
        [
            InMemoryHistoryProvider("h1"),
            InMemoryHistoryProvider(
                "audit",
                InMemoryHistoryProvider.Options(load_messages=False, store_context_messages=True),
            ),
        ],
    )


def test_fallback_history_is_added_per_run_without_mutating_providers() -> None:
    model = ScriptedModel()
    providers = [Recorder("a", [])]
    agent = make_agent(model, providers)
    assert agent.history_provider is None
    assert agent.fallback_history is not None
    session = Session()
    asyncio.run(agent.run(session, "one"))
    asyncio.run(agent.run(session, "two"))
    assert [p.source_id for p in agent.providers] == ["a"]
    assert [m["content"] for m in sent(model, -1)[1:]] == [
        "one",
        "echo: one",
        "two",
    ]

    with_history = make_agent(model, [InMemoryHistoryProvider("h")])
    assert with_history.fallback_history is None


def test_audit_style_history_stores_context_from_other_providers() -> None:
    model = ScriptedModel()
    audit = InMemoryHistoryProvider(
        "audit",
        InMemoryHistoryProvider.Options(
            load_messages=False, store_context_messages=True, store_context_from=["rag"]
        ),
    )
    agent = make_agent(
        model,
        [
            InMemoryHistoryProvider("history"),
            Recorder("rag", [], message="DOC"),
            Recorder("noise", [], message="NOISE"),
            audit,
        ],
    )
    session = Session()
    asyncio.run(agent.run(session, "q1"))
    asyncio.run(agent.run(session, "q2"))
    texts = [m["parts"][0]["text"] for m in stored(session, "audit")]
    assert texts == ["DOC", "q1", "echo: q1", "DOC", "q2", "echo: q2"]
    kinds = [
        (m["attribution"]["kind"], m["attribution"].get("source_id"))
        for m in stored(session, "audit")
    ]
    assert kinds[0] == ("context", "rag")
    assert kinds[1] == ("input", None)
    assert kinds[2] == ("response", None)


class Tagger(Middleware):
    def __init__(self, tag: str, log: list[str]) -> None:
        self.tag = tag
        self.log = log

    async def on_model_call(self, request: ModelRequest, call_next: ModelCall) -> ModelReply:
        self.log.append(f"{self.tag}>")
        extra = Message.system(f"[{self.tag}]")
        reply = await call_next(ModelRequest((*request.messages, extra), request.tools))
        self.log.append(f"<{self.tag}")
        return reply

    async def on_tool_call(
        self, tool: Tool | None, call: ToolCallPart, call_next: ToolCall
    ) -> ToolResultPart:
        result = await call_next(tool, call)
        return ToolResultPart(result.call_id, f"{self.tag}({result.content})", result.is_error)


class MiddlewareProvider(ContextProvider):
    def __init__(self, source_id: str, layer: Middleware, *, tools: Sequence[Tool] = ()) -> None:
        super().__init__(source_id)
        self.layer = layer
        self.tools = tools

    async def before_run(
        self, *, agent: Any, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        context.extend_middleware(self.source_id, self.layer)
        context.extend_tools(self.source_id, self.tools)


def test_middleware_wraps_model_and_tool_calls_in_provider_order() -> None:
    model = ScriptedModel()
    log: list[str] = []
    echo = Tool("echo", "echo", lambda: "v")
    agent = make_agent(
        model,
        [
            MiddlewareProvider("outer", Tagger("outer", log)),
            MiddlewareProvider("inner", Tagger("inner", log), tools=[echo]),
        ],
    )
    model.script += [ScriptedModel.calls(("echo", {})), "done"]
    asyncio.run(agent.run(Session(), "go"))
    assert log == ["outer>", "inner>", "<inner", "<outer"] * 2
    second = sent(model, 1)
    assert [m["content"] for m in second[-2:]] == ["[outer]", "[inner]"]
    assert second[-3]["content"] == "outer(inner(v))"


class SlowStore(ContextProvider):
    """An after_run that takes a while, like a store on a busy database."""

    @property
    def stores_turn(self) -> bool:
        return True  # keeps the conversation: its after_run runs in the first stage

    async def after_run(
        self, *, agent: Any, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        state["started"] = True
        await asyncio.sleep(0.5)
        state["finished"] = True


def test_a_second_cancel_does_not_cut_after_run_off() -> None:
    model = ScriptedModel()
    agent = make_agent(model, [SlowStore("slow")])
    session = Session()

    async def scenario() -> RunContext:
        task = asyncio.create_task(agent.run(session, "hi"))
        while not session.state.get("slow", {}).get("started"):
            await asyncio.sleep(0.01)
        task.cancel()  # lands while after_run is storing
        return await task

    context = asyncio.run(scenario())
    assert context.error is None
    assert session.state["slow"] == {"started": True, "finished": True}
    # The turn itself had completed before the cancel: its history was stored whole.
    assert [m["role"] for m in stored(session, "session_history")] == ["user", "assistant"]


def test_a_source_id_with_other_characters_is_refused() -> None:
    for source_id in ("my history", 'x"y', "a/b"):
        with pytest.raises(ConfigError, match="may hold only letters, digits"):
            InMemoryHistoryProvider(source_id)
    assert InMemoryHistoryProvider("notes.v2-a_b").source_id == "notes.v2-a_b"


def test_after_run_reads_the_turn_with_include_response() -> None:
    model = ScriptedModel()
    seen: list[list[str]] = []

    class Reader(ContextProvider):
        async def after_run(
            self, *, agent: Any, session: Session, context: RunContext, state: dict[str, Any]
        ) -> None:
            messages = context.get_messages(
                sources={"rag"}, include_input=True, include_response=True
            )
            seen.append([m.text for m in messages])

    agent = make_agent(model, [Recorder("rag", [], message="DOC"), Reader("reader")])
    model.script += ["answer"]
    asyncio.run(agent.run(Session(), "question"))
    assert seen == [["DOC", "question", "answer"]]
