"""The LLM extractor's prompt and its strict reply parser."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from ctxchat.providers.memory.facts import Fact
from ctxchat.providers.memory.llm import build_prompt, parse_reply
from ctxchat.providers.memory.ops import Extraction, Op, merge
from ctxchat.providers.memory.statements import extract_rules

MESSAGE = "I'm Chloe and I live in Leith. Forget my phone number."


def reply(*ops: dict[str, object]) -> str:
    return json.dumps({"operations": list(ops)})


def test_prompt_carries_the_message_and_what_is_known() -> None:
    now = datetime(2025, 1, 1, tzinfo=UTC)
    prompt = build_prompt(MESSAGE, [Fact("F1", "location", "Paris", now, now)])
    assert MESSAGE in prompt.user
    assert "Paris" in prompt.user
    assert "evidence" in prompt.system
    assert "JSON" in prompt.system
    assert "reply_language" in prompt.system  # the slot names it may use


def test_valid_operations_are_kept() -> None:
    result = parse_reply(
        reply(
            {"op": "add", "slot": "name", "value": "Chloe", "evidence": "I'm Chloe"},
            {"op": "update", "slot": "location", "value": "Leith", "evidence": "I live in Leith"},
            {"op": "forget", "slot": "phone", "value": "", "evidence": "Forget my phone number"},
        ),
        MESSAGE,
    )
    assert [(o.kind, o.slot, o.value) for o in result.ops] == [
        ("add", "name", "Chloe"),
        ("update", "location", "Leith"),
        ("forget", "phone", ""),
    ]
    assert result.warning is None


def test_evidence_not_in_the_message_is_dropped() -> None:
    result = parse_reply(
        reply(
            {"op": "add", "slot": "likes", "value": "jazz", "evidence": "I love jazz"},
            {"op": "add", "slot": "name", "value": "Chloe", "evidence": "I'm Chloe"},
            {"op": "add", "slot": "name", "value": "Chloe", "evidence": "   "},
        ),
        MESSAGE,
    )
    assert [o.value for o in result.ops] == ["Chloe"]


def test_invalid_json_drops_the_whole_reply_with_one_warning() -> None:
    for bad in ["not json", '{"operations": [', "[]", '{"ops": []}']:
        result = parse_reply(bad, MESSAGE)
        assert result.ops == ()
        assert result.warning is not None
        assert "\n" not in result.warning


def test_fenced_json_unknown_slots_and_bad_items() -> None:
    body = reply(
        {"op": "add", "slot": "shoe_colour", "value": "Chloe", "evidence": "I'm Chloe"},
        {"op": "explode", "slot": None, "value": "x", "evidence": "I'm Chloe"},
        "not an object",
        {"op": "add", "slot": "name", "value": 3, "evidence": "I'm Chloe"},
    )
    result = parse_reply(f"```json\n{body}\n```", MESSAGE)
    assert [(o.slot, o.value) for o in result.ops] == [(None, "Chloe")]


def test_secrets_from_the_model_are_dropped_and_flagged() -> None:
    message = "my password is hunter2"
    result = parse_reply(
        reply({"op": "add", "slot": None, "value": "hunter2", "evidence": message}), message
    )
    assert result.ops == ()
    assert result.secret_dropped


def test_both_extractors_merge_without_duplicates() -> None:
    rules = extract_rules("I live in Leith.")
    llm = Extraction((Op("add", "location", "Leith", "I live in Leith"),), warning="w")
    both = merge(rules, llm)
    assert len(both.ops) == 1
    assert both.warning == "w"


def test_a_value_the_evidence_does_not_hold_is_dropped() -> None:
    message = "I live in Paris and I love jazz."
    body = reply(
        {"op": "add", "slot": "location", "value": "Evilville", "evidence": "I live in Paris"},
        {"op": "add", "slot": "likes", "value": "jazz", "evidence": "I love jazz"},
    )
    assert [o.value for o in parse_reply(body, message).ops] == ["jazz"]
