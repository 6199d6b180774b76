"""The benchmarks still run (tiny sizes, no timing asserted): a benchmark that rots silently
is worse than none."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

BENCH = Path(__file__).resolve().parent.parent / "bench"


@pytest.mark.parametrize(
    "argv",
    [
        ["startup.py", "--repeat", "1"],
        ["session_listing.py", "--sessions", "30", "--repeat", "1"],
        ["history_scaling.py", "--turns", "2", "--sizes", "10,50"],
        ["memory.py", "--facts", "50", "--turns", "8"],
        ["summary.py", "--turns", "12", "--window", "4"],
        ["session_search.py", "--messages", "200", "--sessions", "4", "--queries", "2"],
        ["recall.py", "--messages", "200", "--sessions", "4", "--turns", "2"],
        ["usage.py", "--turns", "200", "--sessions", "5", "--repeat", "1"],
        ["import_sessions.py", "--conversations", "4", "--turns", "2"],
        ["attachment_storage.py", "--turns", "2", "--kib", "4"],
    ],
)
def test_benchmark_runs_and_prints_ratios(argv: list[str], cli_env: dict[str, str]) -> None:
    env = {k: v for k, v in cli_env.items() if k != "CTXCHAT_TEST_POSTGRES_URL"}
    done = subprocess.run(
        [sys.executable, str(BENCH / argv[0]), *argv[1:]],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "ratio" in done.stdout
