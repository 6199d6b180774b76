"""Start-up cost of the `ctxchat` command against a minimal Typer app, in the same run.

    python bench/startup.py [--repeat 15]

Each command is started as a fresh process `--repeat` times; the median wall time is printed
with its ratio to the reference: a one-command Typer app, the least any Typer CLI can cost.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MINIMAL_TYPER = """
import typer
app = typer.Typer()
@app.command()
def version() -> None:
    print("0")
app()
"""


def median_runtime(argv: list[str], env: dict[str, str], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    ctxchat = str(Path(sys.executable).with_name("ctxchat"))
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "CTXCHAT_HOME": home, "NO_COLOR": "1"}
        reference = median_runtime([sys.executable, "-c", MINIMAL_TYPER], env, args.repeat)
        rows = [
            ("minimal Typer app (reference)", reference),
            ("ctxchat --version", median_runtime([ctxchat, "--version"], env, args.repeat)),
            ("ctxchat --help", median_runtime([ctxchat, "--help"], env, args.repeat)),
            (
                "ctxchat sessions list",
                median_runtime([ctxchat, "sessions", "list"], env, args.repeat),
            ),
        ]
    for name, seconds in rows:
        print(f"{name:<32}{seconds * 1000:8.1f} ms   ratio {seconds / reference:5.2f}")


if __name__ == "__main__":
    main()
