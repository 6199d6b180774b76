"""Reasoning: what a model thinks aloud (a `<think>` block opening the content, or a
separate field in the stream) is kept apart from the reply, left out of piped output unless
asked for, and never sent back to the model."""

from __future__ import annotations

import asyncio
import json
from typing import Literal

import pytest
from cli_support import ctxchat
from fakeopenai import FakeOpenAI, RecordedRequest, Reply, Text
from hypothesis import given, settings
from hypothesis import strategies as st

from ctxchat.core.messages import Message, ReasoningPart, TextPart
from ctxchat.core.model_types import Event, ModelRequest, ReasoningDelta, TextDelta
from ctxchat.core.openai_format import to_openai_messages
from ctxchat.core.settings import ModelSettings
from ctxchat.core.think import ThinkSplitter
from ctxchat.services.model_client import OpenAIChatModel

Way = Literal["field", "think"]
THOUGHT = "The user greets me.\nA short, friendly answer will do."


def split(content: str, size: int) -> tuple[str, str]:
    splitter = ThinkSplitter()
    pieces = [content[i : i + size] for i in range(0, len(content), size)]
    out = [p for piece in pieces for p in splitter.feed(piece)] + splitter.flush()
    reasoning = "".join(t for kind, t in out if kind == "reasoning")
    return reasoning, "".join(t for kind, t in out if kind == "text")


@pytest.mark.parametrize("size", [1, 2, 3, 5, 7, 8, 13, 100])
def test_a_think_block_opening_the_content_is_split_off_however_it_is_cut(size: int) -> None:
    content = f"  \n<think>\n{THOUGHT}\n</think>\n\nHello!\n<think> stays text"
    reasoning, text = split(content, size)
    assert reasoning.strip() == THOUGHT
    assert text == "Hello!\n<think> stays text"


@pytest.mark.parametrize(
    ("content", "reasoning", "text"),
    [
        ("Hello <think>no</think>", "", "Hello <think>no</think>"),
        ("<thinking is fun", "", "<thinking is fun"),
        ("<think>cut off mid-thought", "cut off mid-thought", ""),
        ("<think>a < b </thin", "a < b </thin", ""),
        ("", "", ""),
        ("<think></think>Answer", "", "Answer"),
    ],
)
def test_think_block_edges(content: str, reasoning: str, text: str) -> None:
    for size in (1, 3, 50):
        assert split(content, size) == (reasoning, text)


@settings(max_examples=200, deadline=None)
@given(st.text(), st.text(), st.integers(1, 20))
def test_any_reasoning_and_reply_come_apart(thought: str, reply: str, size: int) -> None:
    thought = thought.replace("</think>", "")
    reasoning, text = split(f"<think>{thought}</think>{reply}", size)
    assert reasoning == thought
    assert text == reply.lstrip()


@pytest.mark.parametrize("way", ["field", "think"])
def test_the_client_keeps_reasoning_apart_whichever_way_it_streams(
    way: Way, fake_openai: FakeOpenAI, model_settings: ModelSettings
) -> None:
    fake_openai.enqueue(Text("Hello there!", chunk_size=3, reasoning=THOUGHT, reasoning_in=way))
    events: list[Event] = []
    model = OpenAIChatModel(model_settings)
    reply = asyncio.run(model.complete(ModelRequest((Message.user("hi"),)), events.append))
    assert reply.message.text == "Hello there!"
    assert reply.message.reasoning == THOUGHT
    assert isinstance(reply.message.parts[0], ReasoningPart)
    kinds = [type(e) for e in events]
    assert kinds.index(TextDelta) > max(i for i, k in enumerate(kinds) if k is ReasoningDelta)
    thought = "".join(e.text for e in events if isinstance(e, ReasoningDelta))
    assert thought.strip() == THOUGHT
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "Hello there!"


def test_reasoning_is_never_sent_to_a_model() -> None:
    reply = Message.assistant("The answer.", reasoning="private musing")
    assert reply.parts == (ReasoningPart("private musing"), TextPart("The answer."))
    assert to_openai_messages([Message.user("q"), reply]) == [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": "The answer."},
    ]
    assert Message.from_dict(json.loads(json.dumps(reply.to_dict()))) == reply


@pytest.mark.parametrize("way", ["field", "think"])
def test_piped_output_leaves_reasoning_out_unless_asked(
    way: Way, cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    def answer(_request: RecordedRequest) -> Reply:
        return Text("Hi!", reasoning=THOUGHT, reasoning_in=way)

    fake_openai.default = answer
    plain = ctxchat("run", "hello", env=cli_env)
    assert plain.returncode == 0, plain.stderr
    assert plain.stdout == "Hi!\n"

    shown = ctxchat("run", "--show-reasoning", "hello", env=cli_env)
    assert shown.stdout == f"<think>\n{THOUGHT}\n</think>\n\nHi!\n"

    record = json.loads(ctxchat("run", "--json", "hello", env=cli_env).stdout)
    assert "reasoning" not in record
    assert record["output"] == "Hi!"
    record = json.loads(ctxchat("run", "--json", "--show-reasoning", "hello", env=cli_env).stdout)
    assert record["reasoning"] == THOUGHT

    # Kept with the reply in the session, shown folded by `sessions show`, never sent back.
    session_id = record["session"]
    again = ctxchat("run", "--session", session_id, "and now?", env=cli_env)
    assert again.returncode == 0, again.stderr
    sent = fake_openai.chat_requests()[-1].messages
    assert [m["content"] for m in sent if m["role"] == "assistant"] == ["Hi!"]
    assert all(THOUGHT.split("\n")[0] not in str(m["content"]) for m in sent)
    document = ctxchat("sessions", "export", session_id, "--format", "json", env=cli_env)
    replies = [m for m in json.loads(document.stdout)["messages"] if m["role"] == "assistant"]
    assert replies[0]["parts"][0] == {"type": "reasoning", "text": THOUGHT}
    shown_session = ctxchat("sessions", "show", session_id, env=cli_env)
    assert "thought: The user greets me. A short, friendly answer will do." in shown_session.stdout
    markdown = ctxchat("sessions", "export", session_id, env=cli_env)
    assert "greets" not in markdown.stdout
