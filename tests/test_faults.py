"""The fault run of `bench/faults.py`, small: random kills, a stopped or read-only database,
a read-only sessions directory, server errors and cut streams across a scripted
conversation, on SQLite and on PostgreSQL (a cluster of its own), and then every check
that nothing reported saved was lost and nothing reported failed was kept. The full run
(200 faults per backend) is `python bench/faults.py`."""

from __future__ import annotations

import os
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
    done = subprocess.run(
        [sys.executable, str(BENCH), "--faults", "16", "--backends", backend],
        capture_output=True,
        text=True,
        env=cli_env,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "every check held" in done.stdout
    assert "16 faults" in done.stdout
