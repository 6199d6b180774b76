"""The fault run of `bench/faults.py`, small: random kills, a stopped or read-only database,
a read-only sessions directory, server errors and cut streams across a scripted
conversation, on SQLite and on PostgreSQL (a cluster of its own), and then every check
that nothing reported saved was lost and nothing reported failed was kept. The full run
(200 faults per backend) is `python bench/faults.py`."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from pgcluster import available

pytestmark = pytest.mark.slow

BENCH = Path(__file__).resolve().parent.parent / "bench" / "faults.py"


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_random_faults_lose_and_leak_nothing(cli_env: dict[str, str], backend: str) -> None:
    if backend == "postgresql" and not available():
        if os.environ.get("CTXCHAT_REQUIRE_POSTGRES") == "1":
            pytest.fail("CTXCHAT_REQUIRE_POSTGRES=1 but no PostgreSQL server is installed")
        pytest.skip("no PostgreSQL server installed")
    # The seed is chosen here so that a failure's first line says how to run it again.
    seed = random.randrange(1 << 30)
    argv = [sys.executable, str(BENCH), "--faults", "16", "--backends", backend]
    again = f"python bench/faults.py --faults 16 --backends {backend} --seed {seed}"
    try:
        done = subprocess.run(
            [*argv, "--seed", str(seed)],
            capture_output=True,
            text=True,
            env=cli_env,
            timeout=600,
        )
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"{again}: no end after 600 s; its report so far:\n{_text(exc.stdout)}")
    report = f"{again}: exit {done.returncode}; its report:\n{done.stdout}{done.stderr}"
    assert done.returncode == 0, report
    assert "every check held" in done.stdout, report
    assert "16 faults" in done.stdout, report


def _text(output: str | bytes | None) -> str:
    return output.decode(errors="replace") if isinstance(output, bytes) else output or ""
