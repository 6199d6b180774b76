"""The context window: newest whole units within max_messages and max_tokens, never a tool
call without its results, never a tool result first. Same tests on every history kind."""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from historykit import HistoryFactory, exchange, scripted_agent, shown_to, tool_exchange, turn
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ctxchat.core.messages import Message
from ctxchat.core.provider import HistoryProvider
from ctxchat.core.session import Session
from ctxchat.core.tokens import count_message_tokens
from ctxchat.core.window import window_messages
from ctxchat.testing import ScriptedModel

pytest_plugins = ["sqlfixtures"]


@pytest.fixture(autouse=True)
def _forget_states() -> Iterator[None]:
    yield
    _states.clear()


# Each history key's provider state. The in-memory history keeps its messages there, so it
# must live as long as the history does, as a session's state would; providers with other
# options read the same history through it (and through the same database).
_states: dict[str, dict[str, Any]] = {}


def state_of(history: HistoryProvider, key: str) -> dict[str, Any]:
    return _states.setdefault(key, {"history_key": key})


def save(history: HistoryProvider, key: str, turns: Sequence[Sequence[Message]]) -> None:
    async def go() -> None:
        state = state_of(history, key)
        for messages in turns:
            await history.save_messages(key, messages, state=state)

    asyncio.run(go())


def window(history: HistoryProvider, key: str) -> list[Message]:
    return asyncio.run(history.get_messages(key, state=state_of(history, key)))


def labels(messages: Sequence[Message]) -> list[str]:
    """`role:text`, or `role:call-id` for tool traffic, to compare windows at a glance."""
    out = []
    for m in messages:
        ids = [c.id for c in m.tool_calls] or [r.call_id for r in m.tool_results]
        out.append(f"{m.role}:{','.join(ids) if ids else m.text}")
    return out


HISTORY = [exchange("a"), tool_exchange("b", "B", calls=2), exchange("c")]
EVERYTHING = [
    "user:a",
    "assistant:re: a",
    "user:b",
    "assistant:B-0,B-1",
    "tool:B-0",
    "tool:B-1",
    "assistant:re: b",
    "user:c",
    "assistant:re: c",
]


@pytest.mark.parametrize(
    ("max_messages", "expected"),
    [
        (1, EVERYTHING[-1:]),
        (2, EVERYTHING[-2:]),
        (3, EVERYTHING[-3:]),
        # 4 and 5 would cut into the call and its two results: the unit is left out whole.
        (4, EVERYTHING[-3:]),
        (5, EVERYTHING[-3:]),
        (6, EVERYTHING[-6:]),
        (7, EVERYTHING[-7:]),
        (100, EVERYTHING),
    ],
)
def test_max_messages_never_splits_a_tool_call_from_its_results(
    make_history: HistoryFactory, max_messages: int, expected: list[str]
) -> None:
    history = make_history(max_messages=max_messages)
    save(history, "k", HISTORY)
    assert labels(window(history, "k")) == expected


def test_max_tokens_counts_whole_units(make_history: HistoryFactory) -> None:
    sizes = [count_message_tokens(m) for t in HISTORY for m in t]
    last3 = sum(sizes[-3:])
    tool_unit = sum(sizes[3:6])
    cases = [
        (sizes[-1], EVERYTHING[-1:]),
        (last3 - 1, EVERYTHING[-2:]),
        (last3, EVERYTHING[-3:]),
        (last3 + tool_unit - 1, EVERYTHING[-3:]),
        (last3 + tool_unit, EVERYTHING[-6:]),
        (sum(sizes), EVERYTHING),
    ]
    for budget, expected in cases:
        history = make_history(max_tokens=budget, max_messages=0)
        key = f"k{budget}"
        save(history, key, HISTORY)
        assert labels(window(history, key)) == expected, budget


def test_the_tighter_of_both_limits_wins(make_history: HistoryFactory) -> None:
    sizes = [count_message_tokens(m) for t in HISTORY for m in t]
    history = make_history(max_messages=7, max_tokens=sum(sizes[-3:]))
    save(history, "tokens", HISTORY)
    assert labels(window(history, "tokens")) == EVERYTHING[-3:]
    history = make_history(max_messages=2, max_tokens=sum(sizes))
    save(history, "count", HISTORY)
    assert labels(window(history, "count")) == EVERYTHING[-2:]


def test_a_window_never_starts_on_an_orphan_tool_result(make_history: HistoryFactory) -> None:
    # A history that begins with a tool result whose call is not in it (imported, or cut by
    # an older tool): kept in the store, never shown first.
    orphan = Message.tool_result("gone", "stale result").attributed("tool", "tools")
    history = make_history(max_messages=100)
    save(history, "k", [[orphan], exchange("a")])
    assert labels(window(history, "k")) == ["user:a", "assistant:re: a"]
    assert len(asyncio.run(history.all_messages("k", state=state_of(history, "k")))) == 3


def test_the_model_is_shown_exactly_the_window(make_history: HistoryFactory) -> None:
    model = ScriptedModel()
    history = make_history(max_messages=5)
    session = Session()
    _states[session.id] = session.provider_state("history")
    save(history, session.id, HISTORY)
    turn(scripted_agent(model, history), session, "d")

    replay = shown_to(model)
    assert [m["role"] for m in replay] == ["assistant", "user", "assistant", "user"]
    assert [m["content"] for m in replay] == ["re: b", "c", "re: c", "d"]


# -- against the reference: the window over the whole history ----------------------------------
turns = st.lists(
    st.one_of(
        st.builds(exchange, st.text(alphabet="xyz ", min_size=0, max_size=60)),
        st.builds(
            tool_exchange,
            st.text(alphabet="xyz ", max_size=30),
            st.just("T"),
            st.integers(min_value=1, max_value=3),
        ),
    ),
    max_size=50,
)
limits = st.tuples(
    st.integers(min_value=0, max_value=150),  # 0 = no limit
    st.one_of(st.none(), st.integers(min_value=1, max_value=3000)),
)
_keys = itertools.count()


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(history_turns=turns, limit=limits)
def test_loading_only_the_newest_rows_gives_the_whole_history_window(
    make_history: HistoryFactory,
    history_turns: list[list[Message]],
    limit: tuple[int, int | None],
) -> None:
    max_messages, max_tokens = limit
    history = make_history(max_messages=max_messages, max_tokens=max_tokens)
    key = f"prop{next(_keys)}"
    save(history, key, history_turns)
    everything = [m for t in history_turns for m in t]
    expected = window_messages(
        everything,
        tokens_of=count_message_tokens,
        max_messages=max_messages or None,
        max_tokens=max_tokens,
    )
    assert [m.id for m in window(history, key)] == [m.id for m in expected]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_long_histories_read_backwards_in_batches_match_the_reference(
    make_history: HistoryFactory, seed: int
) -> None:
    # Hundreds of messages: a token budget spans several of the batches the SQL history
    # reads newest-first, and the limits land on every kind of unit boundary.
    rng = random.Random(seed)
    history_turns = [
        exchange("w" * rng.randrange(0, 400))
        if rng.random() < 0.6
        else tool_exchange("v" * rng.randrange(0, 100), f"T{i}", calls=rng.randrange(1, 4))
        for i in range(150)
    ]
    everything = [m for t in history_turns for m in t]
    total = sum(count_message_tokens(m) for m in everything)
    limits = [(0, b) for b in (1, 50, 700, 2500, total // 2, total - 1, total)]
    limits += [(n, None) for n in (1, 63, 64, 65, 200, len(everything))]
    limits += [(70, total // 3), (300, 900)]
    save(make_history(), "long", history_turns)
    for max_messages, max_tokens in limits:
        history = make_history(max_messages=max_messages, max_tokens=max_tokens)
        expected = window_messages(
            everything,
            tokens_of=count_message_tokens,
            max_messages=max_messages or None,
            max_tokens=max_tokens,
        )
        got = window(history, "long")
        assert [m.id for m in got] == [m.id for m in expected], (max_messages, max_tokens)
