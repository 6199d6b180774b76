"""The memory cases typed as people type: does the reader hear the same sentence however
it is typed?

    python bench/memory_typed.py [CASES.jsonl ...]

Each case's turns are retyped four ways, and the cases scored as `memory eval` scores them:
in lower case; without apostrophes; without full stops or exclamation marks (so sentences
run on); and all three at once. A retyped case that failed as written and passes is
counted too. dev.jsonl and dev2.jsonl are scored on their tuned part only (the set-aside
quarter, sha256(id) ending in 0-3, is `bench/memory_eval.py`'s to report). Only counts are
printed, so `bench/memory_untuned.jsonl` may be measured here as well.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
from collections.abc import Callable
from pathlib import Path

from memory_eval import set_aside  # the split of bench/memory_eval.py, beside this file

from ctxchat.providers.memory.evaluate import Case, evaluate, load_cases

PROBES = Path(__file__).resolve().parents[1] / "tests" / "data" / "memory_probe.jsonl"


def _no_apostrophes(text: str) -> str:
    return re.sub(r"['’]", "", text)


def _no_stops(text: str) -> str:
    return re.sub(r"[.!]+(\s|$)", r"\1", text)


RETYPINGS: dict[str, Callable[[str], str]] = {
    "lower case": str.lower,
    "no apostrophes": _no_apostrophes,
    "no stops": _no_stops,
    "all three": lambda text: _no_stops(_no_apostrophes(text.lower())),
}


def _tuned_part(path: Path, cases: list[Case]) -> list[Case]:
    if path.name not in ("dev.jsonl", "dev2.jsonl"):
        return cases
    return [c for c in cases if not set_aside(c)]


def report(path: Path) -> None:
    cases = _tuned_part(path, load_cases(path))
    as_written = {r.case.id for r in evaluate(cases).results if r.passed}
    print(f"{path.name}: {len(as_written)}/{len(cases)} pass as written")
    for name, retype in RETYPINGS.items():
        retyped = [dataclasses.replace(c, turns=tuple(map(retype, c.turns))) for c in cases]
        results = evaluate(retyped).results
        passed = {r.case.id for r in results if r.passed}
        false = sum(not r.passed for r in results if "negative" in r.case.tags)
        print(
            f"  {name:15} {len(passed)}/{len(cases)}  lost {len(as_written - passed)}, "
            f"gained {len(passed - as_written)}, negatives false {false}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("cases", nargs="*", type=Path, default=[PROBES])
    for path in parser.parse_args().cases:
        report(path)


if __name__ == "__main__":
    main()
