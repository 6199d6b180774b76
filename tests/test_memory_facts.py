"""Facts and ops: versioned dict forms with an exact round trip; the slot table."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ctxchat.providers.memory.facts import Fact, FactFormatError, PastValue, Provenance
from ctxchat.providers.memory.ops import Op, OpFormatError
from ctxchat.providers.memory.slots import FREE_TEXT, favourite_slot, slot_info

texts = st.text(max_size=60)
times = st.datetimes(
    min_value=datetime(1970, 1, 2), max_value=datetime(9999, 1, 1), timezones=st.just(UTC)
)
provenances = st.builds(Provenance, st.none() | texts, st.none() | texts)
facts = st.builds(
    Fact,
    id=texts.filter(bool),
    slot=st.none() | texts,
    value=texts,
    first_seen=times,
    last_seen=times,
    provenance=provenances,
    status=st.sampled_from(["active", "superseded"]),
    history=st.lists(st.builds(PastValue, texts, times, times, times, provenances), max_size=4).map(
        tuple
    ),
)


@settings(max_examples=200, deadline=None)
@given(facts)
def test_fact_round_trips_exactly_through_json(fact: Fact) -> None:
    data = json.loads(json.dumps(fact.to_dict()))
    assert Fact.from_dict(data) == fact
    assert data["v"] == 1


@settings(max_examples=100, deadline=None)
@given(
    st.builds(
        Op,
        st.sampled_from(["add", "update", "forget", "retract"]),
        st.none() | texts,
        texts,
        texts,
        st.none() | texts,
    )
)
def test_op_round_trips(op: Op) -> None:
    assert Op.from_dict(json.loads(json.dumps(op.to_dict()))) == op


@pytest.mark.parametrize(
    "data",
    [
        {"v": 99, "id": "a", "slot": None, "value": "x", "first_seen": "", "last_seen": ""},
        {"id": "a", "slot": None, "value": "x"},
        {"id": "a", "slot": 3, "value": "x", "first_seen": "2025-01-01", "last_seen": "2025-01-01"},
        {
            "id": "a",
            "slot": None,
            "value": "x",
            "first_seen": "2025-01-01",
            "last_seen": "2025-01-01",
            "status": "zombie",
        },
    ],
)
def test_bad_fact_dicts_raise_one_error_type(data: dict[str, object]) -> None:
    with pytest.raises(FactFormatError):
        Fact.from_dict(data)


def test_bad_op_dicts_raise() -> None:
    with pytest.raises(OpFormatError):
        Op.from_dict({"op": "explode", "slot": None, "value": "", "evidence": ""})
    with pytest.raises(OpFormatError):
        Op.from_dict({"op": "add", "slot": None, "value": 3, "evidence": ""})


def test_naive_times_are_read_as_utc() -> None:
    fact = Fact.from_dict(
        {
            "id": "a",
            "slot": "name",
            "value": "Ana",
            "first_seen": "2025-01-01T10:00:00",
            "last_seen": "2025-01-01T10:00:00",
        }
    )
    assert fact.first_seen.tzinfo is UTC


def test_slot_table_kinds_and_categories() -> None:
    assert slot_info("location").kind == "single"
    assert slot_info("allergies").kind == "list"
    assert slot_info("likes").opposite == "dislikes"
    assert slot_info(favourite_slot("Colour")).kind == "single"
    assert slot_info(None) is FREE_TEXT
