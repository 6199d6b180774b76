"""The deterministic update step: replace, accumulate, negate, correct, forget."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from itertools import count

from ctxchat.providers.memory.facts import Provenance
from ctxchat.providers.memory.factset import InMemoryFactSet
from ctxchat.providers.memory.ops import Op
from ctxchat.providers.memory.update import apply_ops

T0 = datetime(2025, 1, 1, tzinfo=UTC)


def add(slot: str | None, value: str) -> Op:
    return Op("add", slot, value, value)


def ids() -> Callable[[], str]:
    numbers = count(1)
    return lambda: f"F{next(numbers)}"


def run(facts: InMemoryFactSet, *ops: Op, minute: int = 0) -> list[str]:
    changes = apply_ops(
        facts,
        ops,
        now=T0 + timedelta(minutes=minute),
        provenance=Provenance("s1", f"m{minute}"),
    )
    return [f"{c.kind}:{c.fact.slot}={c.fact.value}" for c in changes]


def active(facts: InMemoryFactSet) -> dict[str | None, list[str]]:
    out: dict[str | None, list[str]] = {}
    for fact in facts.active():
        out.setdefault(fact.slot, []).append(fact.value)
    return out


def test_single_valued_slot_replaces_and_keeps_history() -> None:
    facts = InMemoryFactSet()
    assert run(facts, add("location", "Paris")) == ["added:location=Paris"]
    assert run(facts, add("location", "Berlin"), minute=5) == ["changed:location=Berlin"]
    [fact] = facts.all()
    assert fact.value == "Berlin"
    assert fact.active
    assert [p.value for p in fact.history] == ["Paris"]
    assert fact.history[0].replaced_at == T0 + timedelta(minutes=5)
    assert fact.provenance == Provenance("s1", "m5")
    assert fact.history[0].provenance == Provenance("s1", "m0")


def test_repeating_a_value_changes_nothing_but_last_seen() -> None:
    facts = InMemoryFactSet()
    run(facts, add("location", "Paris"))
    assert run(facts, add("location", "paris "), minute=3) == []
    [fact] = facts.all()
    assert fact.last_seen == T0 + timedelta(minutes=3)
    assert fact.history == ()


def test_list_slot_accumulates_without_duplicates() -> None:
    facts = InMemoryFactSet()
    run(facts, add("allergies", "peanuts"), add("allergies", "Shellfish"))
    assert run(facts, add("allergies", "Peanut"), add("allergies", "the peanuts")) == []
    assert active(facts) == {"allergies": ["peanuts", "Shellfish"]}


def test_opposite_list_slots_retire_each_other() -> None:
    facts = InMemoryFactSet()
    run(facts, add("likes", "sushi"))
    assert run(facts, add("dislikes", "Sushi"), minute=1) == [
        "retired:likes=sushi",
        "added:dislikes=Sushi",
    ]
    assert active(facts) == {"dislikes": ["Sushi"]}
    run(facts, add("likes", "sushi"), minute=2)  # changed their mind back
    assert active(facts) == {"likes": ["sushi"]}


def test_retract_retires_but_keeps_the_fact() -> None:
    facts = InMemoryFactSet()
    run(facts, add("eats", "meat"), add("diet", "low-carb"))
    run(facts, Op("retract", "eats", "meat", "no meat"), Op("retract", "diet", "", "off it"))
    assert active(facts) == {}
    assert {f.status for f in facts.all()} == {"superseded"}


def test_retract_without_slot_matches_any_fact_containing_the_words() -> None:
    facts = InMemoryFactSet()
    run(facts, add("vehicle", "Toyota Corolla"), add("likes", "corollas of the sun"))
    run(facts, Op("retract", None, "the Corolla", "sold the Corolla"))
    assert active(facts) == {}


def test_correction_replaces_the_old_value_wherever_it_is() -> None:
    facts = InMemoryFactSet()
    run(facts, add("name", "Elena"), add("pets", "dog Rex"))
    run(facts, Op("update", None, "Elina", "it's Elina, not Elena", replaces="Elena"))
    run(facts, Op("update", None, "Rax", "Rax, not Rex", replaces="Rex"))
    assert active(facts) == {"name": ["Elina"], "pets": ["dog Rax"]}
    assert run(facts, Op("update", None, "X", "X not Y", replaces="nothing stored")) == []


def test_forget_deletes_fact_and_history_for_real() -> None:
    facts = InMemoryFactSet()
    run(facts, add("location", "Paris"))
    run(facts, add("location", "Berlin"), add("name", "Ana"))
    assert run(facts, Op("forget", "location", "", "forget where I live")) == [
        "forgotten:location=Berlin"
    ]
    dump = str([f.to_dict() for f in facts.all()])
    assert "Paris" not in dump
    assert "Berlin" not in dump
    assert active(facts) == {"name": ["Ana"]}


def test_forget_also_deletes_retired_facts() -> None:
    facts = InMemoryFactSet()
    run(facts, add("likes", "jazz"), add("dislikes", "jazz"))
    run(facts, Op("forget", None, "jazz", "forget jazz"))
    assert facts.all() == []


def test_forget_by_category_by_value_and_everything() -> None:
    facts = InMemoryFactSet()
    run(
        facts,
        add("health", "asthma"),
        add("allergies", "cats"),
        add("pets", "dog Bruno"),
        add("pets", "cat Mochi"),
        add("family", "wife Ingrid"),
    )
    run(facts, Op("forget", "category:health", "", "forget my health info"))
    assert active(facts) == {"pets": ["dog Bruno", "cat Mochi"], "family": ["wife Ingrid"]}
    run(facts, Op("forget", "pets", "dog", "forget my dog"))
    assert active(facts) == {"pets": ["cat Mochi"], "family": ["wife Ingrid"]}
    run(facts, Op("forget", "*", "", "forget everything"))
    assert facts.all() == []


def test_ids_and_times_make_the_step_deterministic() -> None:
    def replay() -> list[dict[str, object]]:
        facts = InMemoryFactSet()
        make = ids()
        for minute, op in enumerate([add("name", "Ana"), add("likes", "tea"), add("name", "Bo")]):
            apply_ops(facts, [op], now=T0 + timedelta(minutes=minute), make_id=make)
        return [f.to_dict() for f in facts.all()]

    assert replay() == replay()


def test_a_list_item_about_the_same_thing_replaces_the_earlier_one() -> None:
    facts = InMemoryFactSet()
    run(facts, add("tech", "I use Windows at home"))
    run(facts, add("tech", "Went full Linux on my home PC"), minute=1)
    assert active(facts) == {"tech": ["Went full Linux on my home PC"]}
    [retired] = [f for f in facts.all() if not f.active]
    assert retired.value == "I use Windows at home"  # kept, with its status


def test_list_items_of_one_kind_about_different_things_accumulate() -> None:
    facts = InMemoryFactSet()
    run(facts, add("pets", "My cat is called Tom"))
    run(facts, add("pets", "My dog is called Rex"), minute=1)
    run(facts, add("pets", "My other dog sleeps on my bed"), minute=2)
    assert active(facts) == {
        "pets": ["My cat is called Tom", "My dog is called Rex", "My other dog sleeps on my bed"]
    }
