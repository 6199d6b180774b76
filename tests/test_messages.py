"""Messages: versioned dict form, exact round trip, attribution."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ctxchat.core.messages import (
    Attribution,
    ImagePart,
    Message,
    MessageFormatError,
    ReasoningPart,
    TextPart,
    ToolCallPart,
    ToolResultPart,
    Usage,
)

texts = st.text(max_size=200)  # "", NUL, astral-plane characters...
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | texts,
    lambda children: (
        st.lists(children, max_size=30) | st.dictionaries(texts, children, max_size=30)
    ),
    max_leaves=400,
)
parts = st.one_of(
    st.builds(TextPart, texts),
    st.builds(
        ToolCallPart,
        texts,
        texts,
        json_values.map(lambda v: json.dumps(v, ensure_ascii=False)) | texts,
    ),
    st.builds(ToolResultPart, texts, texts, st.booleans()),
    st.builds(ReasoningPart, texts),
    st.builds(
        ImagePart,
        st.sampled_from(["image/png", "image/jpeg"]),
        st.text("ABCabc0123+/=", max_size=40),
        texts,
        st.integers(1, 10**5),
        st.integers(1, 10**5),
    ),
)
messages = st.builds(
    Message,
    role=st.sampled_from(["system", "user", "assistant", "tool"]),
    parts=st.lists(parts, max_size=6).map(tuple),
    name=st.none() | texts,
    id=texts.filter(bool),
    created_at=st.datetimes(
        min_value=datetime(1970, 1, 2), max_value=datetime(9999, 1, 1), timezones=st.just(UTC)
    ),
    usage=st.none() | st.builds(Usage, st.integers(0, 10**9), st.integers(0, 10**9)),
    attribution=st.none()
    | st.builds(
        Attribution,
        st.sampled_from(["input", "history", "context", "tool", "response"]),
        st.none() | texts,
    ),
)


@settings(max_examples=300, deadline=None)
@given(messages)
def test_round_trip_is_exact(message: Message) -> None:
    data = message.to_dict()
    assert data["v"] == 2
    through_json = json.loads(json.dumps(data, ensure_ascii=False))
    assert Message.from_dict(through_json) == message
    assert Message.from_dict(data).to_dict() == data


def test_large_tool_arguments_round_trip() -> None:
    arguments = json.dumps({"blob": "é" * 2_000_000, "list": list(range(10_000))})
    message = Message.assistant("", [ToolCallPart("c1", "write", arguments)])
    assert Message.from_dict(json.loads(json.dumps(message.to_dict()))) == message


def test_newer_version_is_refused() -> None:
    data = Message.user("hi").to_dict()
    data["v"] = 99
    with pytest.raises(MessageFormatError, match="newer"):
        Message.from_dict(data)


@pytest.mark.parametrize(
    "broken",
    [
        {
            "v": 1,
            "role": "wizard",
            "parts": [],
            "id": "x",
            "created_at": "2026-01-01T00:00:00+00:00",
        },
        {
            "v": 1,
            "role": "user",
            "parts": [{"type": "image"}],
            "id": "x",
            "created_at": "2026-01-01T00:00:00+00:00",
        },
        {"v": 1, "role": "user", "parts": [], "id": "x"},
        {"v": 1, "role": "user", "parts": [], "id": "x", "created_at": "yesterday"},
    ],
)
def test_malformed_messages_raise_format_error(broken: dict[str, object]) -> None:
    with pytest.raises(MessageFormatError):
        Message.from_dict(broken)


def test_attributed_returns_a_stamped_copy() -> None:
    message = Message.user("hello")
    stamped = message.attributed("context", "memory")
    assert message.attribution is None
    assert stamped.attribution == Attribution("context", "memory")
    assert stamped.to_dict()["attribution"] == {"kind": "context", "source_id": "memory"}
    assert Message.from_dict(stamped.to_dict()).source_id == "memory"


def test_views() -> None:
    message = Message.assistant("a", [ToolCallPart("1", "f", "{}")])
    assert message.text == "a"
    assert [c.name for c in message.tool_calls] == ["f"]
    assert Message.tool_result("1", "out", is_error=True).tool_results[0].is_error
