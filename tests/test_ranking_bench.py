"""The ranking benchmarks still run (tiny sizes, nothing timed is asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # benchmarks, each in a process of its own

BENCH = Path(__file__).resolve().parent.parent / "bench"


def test_tool_selection_benchmark_runs_and_a_restart_embeds_nothing() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / "tool_selection.py"), "--tools", "300", "--turns", "5"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "ratio" in done.stdout
    lines = done.stdout.splitlines()
    (empty,) = [line for line in lines if line.startswith("embedding index build")]
    (restart,) = [line for line in lines if line.startswith("cold load")]
    assert empty.endswith("texts embedded: 600")  # each tool's text and name
    assert restart.endswith("texts embedded: 0")
