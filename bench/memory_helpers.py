"""The helper-written memory cases of stop 41: counts on each file's tuned and set-aside parts.

    python bench/memory_helpers.py [--failed]

Six files, written by helpers who saw neither the reader nor any evaluation data, each in
`memory_eval`'s case format: `memory_helpers_a.jsonl` (corrections and names, 90),
`_b` (updates told in passing, 90), `_c` (facts in ordinary ways, inside requests, and
negatives, 100), `_d` (more updates and corrections, with negatives that only look like
one, 100), `_e` (long chatty turns with lasting facts in subordinate clauses, and turns of
the day's news that hold none, 100) and `_f` (German, French and Spanish in full, Italian,
Portuguese and Dutch mostly negatives, 100).

Each file is split by `sha256("train2-" + id)`: the quarter whose digest ends in 0-3 is set
aside (a salt of its own, so that `memory_eval.py`'s split of the same ids is not this one).
The reader was tuned on the other three quarters only; `--failed` prints their failures,
never the set-aside ones.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

from ctxchat.providers.memory.evaluate import Case, EvalResult, evaluate, load_cases

BENCH = Path(__file__).resolve().parent


def set_aside(case: Case) -> bool:
    return hashlib.sha256(f"train2-{case.id}".encode()).hexdigest()[-1] in "0123"


def _tally(result: EvalResult) -> str:
    passed = sum(r.passed for r in result.results)
    false = sum(not r.passed for r in result.results if not r.case.present)
    negatives = sum(not r.case.present for r in result.results)
    return f"{passed}/{len(result.results)} ({false}/{negatives} negatives false)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--failed", action="store_true", help="the tuned parts' failures")
    args = parser.parse_args(argv)
    for path in sorted(BENCH.glob("memory_helpers_*.jsonl")):
        cases = load_cases(path)
        tuned = evaluate([c for c in cases if not set_aside(c)])
        aside = evaluate([c for c in cases if set_aside(c)])
        print(f"{path.name}: tuned {_tally(tuned)}, set aside {_tally(aside)}")
        if args.failed:
            for r in tuned.results:
                if not r.passed:
                    print(f"  -- {r.case.id} {list(r.case.turns)}")
                    print(f"     missing {list(r.missing)} unwanted {list(r.unwanted)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
