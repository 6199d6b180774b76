"""Concurrent processes changing one user's memory lose nothing, on SQLite and PostgreSQL
(issue 21, item 1: PostgreSQL read the version without a lock and lost updates)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from historykit import raw_query

pytest_plugins = ["sqlfixtures"]

WRITER = Path(__file__).with_name("memory_writer.py")
CITIES = ["Lisbon", "Oslo", "Quito", "Hanoi", "Dakar", "Lima"]


def _seed(url: str, data_dir: Path) -> None:
    sys.path.insert(0, str(WRITER.parent))
    try:
        import memory_writer
    finally:
        sys.path.remove(str(WRITER.parent))
    from ctxchat.core.provider import ProviderEnv
    from ctxchat.providers.memory.provider import UserMemoryProvider

    provider = UserMemoryProvider(
        "memory", UserMemoryProvider.Options(url=url, user="ada"), env=ProviderEnv(data_dir)
    )
    provider.memory({}).change(memory_writer.move_to("Paris"))
    provider.close()


@pytest.mark.slow
def test_six_processes_moving_one_user_at_once_keep_every_city(
    sql_url: str, tmp_path: Path
) -> None:
    data_dir = tmp_path / "data"
    _seed(sql_url, data_dir)
    go = tmp_path / "go"
    readies = [tmp_path / f"ready-{i}" for i in range(len(CITIES))]
    writers = [
        subprocess.Popen(
            [sys.executable, str(WRITER), sql_url, str(data_dir), str(ready), str(go), city],
            stderr=subprocess.PIPE,
            text=True,
        )
        for ready, city in zip(readies, CITIES, strict=True)
    ]
    try:
        while not all(r.exists() for r in readies):
            assert all(w.poll() is None for w in writers), [w.stderr for w in writers]
            time.sleep(0.01)
        go.write_text("go")
        failures = [w.stderr.read() for w in writers if w.wait(120) != 0 and w.stderr]
    finally:
        for writer in writers:
            writer.kill()
    assert failures == []
    (row,) = raw_query(sql_url, "SELECT fact FROM ctxchat_memory")
    fact = json.loads(row[0])
    past = [p["value"] for p in fact["history"]]
    assert sorted([fact["value"], *past]) == sorted(["Paris", *CITIES])
    (version,) = raw_query(sql_url, "SELECT version FROM ctxchat_memory_version")
    assert version[0] == 1 + len(CITIES)
