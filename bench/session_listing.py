"""Listing sessions: the indexed store against reading every session file, at 10,000 sessions.

    python bench/session_listing.py [--sessions 10000] [--repeat 5]

Prints the median time of `SessionStore.list(limit=20)` with a warm index, of the first
listing that builds the index, and of the naive approach (parse every file, sort), and the
ratios; then the CPU time of the whole `ctxchat sessions list` command over those sessions
against a minimal Typer app's `--help`. Absolute times on shared machines are noise; the ratios
are the figures to read.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from ctxchat.core.session import Session
from ctxchat.storage.store import SessionStore

sys.path.insert(0, str(Path(__file__).resolve().parent))
from startup import MINIMAL_TYPER, median_cpu_ms


def populate(root: Path, count: int) -> None:
    """Write session files directly (no fsync): setting up is not what is measured."""
    root.mkdir(parents=True)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    history = [
        {"role": "user", "parts": [{"type": "text", "text": "question " * 40}]},
        {"role": "assistant", "parts": [{"type": "text", "text": "answer " * 120}]},
    ] * 10
    for i in range(count):
        session = Session(
            title=f"session {i}",
            model="gpt-4o-mini",
            turns=10,
            updated_at=start + timedelta(minutes=i),
            state={"history": {"messages": history}},
        )
        (root / f"{session.id}.json").write_text(json.dumps(session.to_dict()))


def naive_list(root: Path, limit: int) -> list[str]:
    sessions = [Session.from_dict(json.loads(p.read_text())) for p in root.glob("*.json")]
    sessions.sort(key=lambda s: s.updated_at, reverse=True)
    return [s.id for s in sessions[:limit]]


def timed(fn: object, repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()  # type: ignore[operator]
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "sessions"  # CTXCHAT_HOME=tmp puts sessions exactly here
        populate(root, args.sessions)
        store = SessionStore(root)
        started = time.perf_counter()
        first = store.list(limit=20)
        cold = time.perf_counter() - started
        warm = timed(lambda: store.list(limit=20), args.repeat)
        naive = timed(lambda: naive_list(root, 20), args.repeat)
        assert [s.id for s in first] == naive_list(root, 20)
        env = {**os.environ, "CTXCHAT_HOME": tmp, "NO_COLOR": "1"}
        ctxchat = str(Path(sys.executable).with_name("ctxchat"))
        command = median_cpu_ms([ctxchat, "sessions", "list", "--limit", "20"], env, args.repeat)
        typer_app = median_cpu_ms([sys.executable, "-c", MINIMAL_TYPER, "--help"], env, args.repeat)
    print(f"sessions: {args.sessions:,}")
    print(f"{'indexed list (warm)':<28}{warm * 1000:10.1f} ms")
    print(f"{'first list (builds index)':<28}{cold * 1000:10.1f} ms")
    print(f"{'naive: parse every file':<28}{naive * 1000:10.1f} ms  (reference)")
    print(f"ratio indexed/naive: {warm / naive:.3f}")
    print(f"{'ctxchat sessions list':<28}{command:10.1f} ms CPU")
    print(f"{'minimal Typer app --help':<28}{typer_app:10.1f} ms CPU  (reference)")
    print(f"ratio command/minimal Typer app: {command / typer_app:.2f}")


if __name__ == "__main__":
    main()
