"""The recall block: style first, then relevant, then recent; bounded; deterministic."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from ctxchat.providers.memory.facts import Fact
from ctxchat.providers.memory.rank import word_overlap
from ctxchat.providers.memory.recall import FOOTNOTE, HEADER, order_facts, render_recall

T0 = datetime(2025, 1, 1, tzinfo=UTC)


def fact(n: int, slot: str | None, value: str, status: str = "active") -> Fact:
    at = T0 + timedelta(minutes=n)
    return Fact(f"F{n:03d}", slot, value, at, at, status=status)  # type: ignore[arg-type]


FACTS = [
    fact(1, "location", "Lisbon"),
    fact(2, "allergies", "peanuts"),
    fact(3, "reply_length", "short"),
    fact(4, "likes", "bluegrass music"),
    fact(5, "pets", "dog Biscuit"),
    fact(6, "likes", "old value", status="superseded"),
]


def test_nothing_remembered_injects_nothing() -> None:
    assert render_recall([]) == ""
    assert render_recall([fact(1, "name", "x", status="superseded")]) == ""


def test_style_first_then_relevant_then_newest() -> None:
    ordered = [f.value for f in order_facts(FACTS, "any peanut-free snacks?")]
    assert ordered == ["short", "peanuts", "dog Biscuit", "bluegrass music", "Lisbon"]
    assert [f.value for f in order_facts(FACTS, "")][:2] == ["short", "dog Biscuit"]


def test_block_has_header_footnote_and_no_retired_facts() -> None:
    text = render_recall(FACTS, "")
    assert text.startswith(HEADER)
    assert text.endswith(FOOTNOTE)
    assert "out of date" in text
    assert "old value" not in text


def test_max_facts_and_max_chars_bound_the_block() -> None:
    many = [fact(n, "likes", f"thing {n}") for n in range(200)]
    assert render_recall(many, max_facts=5).count("\n- ") == 5
    text = render_recall(many, max_chars=300)
    assert len(text) <= 300
    assert render_recall(many, max_chars=10) == ""
    assert render_recall(many, max_facts=0) == ""


def test_render_is_deterministic_and_takes_an_injected_ranker() -> None:
    assert render_recall(FACTS, "dog") == render_recall(list(reversed(FACTS)), "dog")

    def prefer_lisbon(query: str, docs: list[str]) -> list[float]:
        return [1.0 if "Lisbon" in d else 0.0 for d in docs]

    ordered = [f.value for f in order_facts(FACTS, "anything", prefer_lisbon)]
    assert ordered[:2] == ["short", "Lisbon"]


def test_word_overlap_ignores_stop_words_and_plurals() -> None:
    assert word_overlap("what about the dogs", ["dog Rex", "cat Tom"]) == [1.0, 0.0]
    assert word_overlap("the a of", ["the cat"]) == [0.0]
