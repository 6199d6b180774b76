"""The user-memory extractor against its evaluation cases: pass rates, by tag, failures.

    python bench/memory_eval.py [CASES.jsonl] [--verbose] [--speed]

The cases are split once, by a hash of the case id, into a tuning part and a set-aside fifth
(`sha256(id) % 5 == 0`); the split was fixed before any failure was looked at. The set-aside
part is the honest estimate of how the rules do on sentences they were not tuned on.

`--speed` also measures one turn (extraction + update + recall render) against a store of
10,000 facts: the median over a few hundred turns, printed as a figure, never asserted.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from ctxchat.providers.memory.evaluate import Case, EvalResult, evaluate, load_cases
from ctxchat.providers.memory.facts import Fact
from ctxchat.providers.memory.factset import InMemoryFactSet
from ctxchat.providers.memory.recall import render_recall
from ctxchat.providers.memory.statements import extract_rules
from ctxchat.providers.memory.update import apply_ops

DEFAULT_CASES = Path(__file__).resolve().parents[2] / "shared" / "data" / "memory" / "dev.jsonl"


def set_aside(case: Case) -> bool:
    return int(hashlib.sha256(case.id.encode()).hexdigest(), 16) % 5 == 0


def show(title: str, result: EvalResult, verbose: bool) -> None:
    print(f"{title}: pass rate {result.pass_rate:.3f} ({len(result.results)} cases)")
    for tag, rate in result.by_tag.items():
        print(f"  {tag:14} {rate:.3f}")
    print(f"  failed: {', '.join(result.failed) or '-'}")
    if verbose:
        for r in result.results:
            if not r.passed:
                print(f"  -- {r.case.id} {list(r.case.turns)}")
                print(f"     missing {list(r.missing)} unwanted {list(r.unwanted)}")
                print("     " + r.injected.replace("\n", "\n     "))


def speed(facts_count: int = 10_000, turns: int = 300) -> float:
    """Median milliseconds for extract + update + render with `facts_count` stored facts."""
    now = datetime(2025, 1, 1, tzinfo=UTC)
    facts = InMemoryFactSet(
        [
            Fact(
                f"F{i:06d}",
                "likes" if i % 3 else None,
                f"thing number {i} of kind {i % 97}",
                now,
                now + timedelta(seconds=i),
            )
            for i in range(facts_count)
        ]
    )
    messages = [
        "I'm allergic to peanuts and I live in Berlin.",
        "What's a good recipe for dinner tonight?",
        "My favourite colour is green now, and I hate cilantro.",
        "Please keep answers short.",
    ]
    times = []
    for i in range(turns):
        message = messages[i % len(messages)]
        start = time.perf_counter()
        ops = extract_rules(message).ops
        apply_ops(facts, ops, now=now + timedelta(days=1, seconds=i))
        render_recall(facts.active(), message)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="?", default=str(DEFAULT_CASES))
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--speed", action="store_true")
    parser.add_argument("--facts", type=int, default=10_000, help="stored facts for --speed")
    parser.add_argument("--turns", type=int, default=300, help="turns timed for --speed")
    args = parser.parse_args(argv)
    cases = load_cases(args.cases)
    tuning = [c for c in cases if not set_aside(c)]
    aside = [c for c in cases if set_aside(c)]
    show("all", evaluate(cases), False)
    if tuning:
        show("tuning part", evaluate(tuning), args.verbose)
    if aside:
        show("set-aside part", evaluate(aside), False)  # never shown case by case
    if args.speed:
        ms = speed(args.facts, args.turns)
        print(f"one turn with {args.facts:,} facts: median {ms:.2f} ms (extract + update + render)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
