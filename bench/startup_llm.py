"""The start-up guard: one scripted turn of ctxchat with the full default pipeline against
simonw/llm doing one prompt, on the same local server with the same fixed reply.

    pip install llm   # into the venv, for this benchmark only; not a dependency
    python bench/startup_llm.py [--repeat 15]

Each is run `--repeat` times, alternating (ctxchat, llm, ctxchat, ...), so the machine's
drifting load falls on both alike; the figure is the median user+sys CPU of the child
process, which other load disturbs far less than wall time. Both keep their log as
installed (ctxchat its history, audit and memory in SQLite; llm its logs.db). The server
runs in this process, so its CPU is not counted. Target: ratio <= 1.0.

Both run from bytecode caches, as installed packages do (pip compiles a wheel's modules as
it installs them): `PYTHONDONTWRITEBYTECODE` is dropped for the runs, so the first run of
each writes whatever caches are missing. Set on this machine, it would leave an editable
checkout compiling its ~260 modules from source in every run while llm's wheel has its
caches, which measured the environment, not the program (0.12 s of CPU a run here).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from fakeopenai import FakeOpenAI, Text

REPLY = "Hello! How can I help you today?"


def cpu_ms(argv: list[str], env: dict[str, str], stdin: bytes | None) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, env=env, input=stdin, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0 or REPLY not in done.stdout.decode(errors="replace"):
        raise SystemExit(f"{argv[0]} failed: {done.stderr.decode(errors='replace')}")
    return ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    here = Path(sys.executable).parent
    llm = shutil.which("llm", path=str(here)) or shutil.which("llm")
    if llm is None:
        sys.exit("bench/startup_llm.py: llm is not installed (pip install llm)")
    ctxchat = str(here / "ctxchat")

    def fixed(_request: Any) -> Text:
        return Text(REPLY)

    with tempfile.TemporaryDirectory() as folder, FakeOpenAI() as server:
        server.default = fixed
        llm_home = Path(folder) / "llm"
        llm_home.mkdir()
        (llm_home / "extra-openai-models.yaml").write_text(
            f'- model_id: fake-model\n  model_name: fake-model\n  api_base: "{server.base_url}"\n',
            encoding="utf-8",
        )
        env = {
            **os.environ,
            "CTXCHAT_HOME": str(Path(folder) / "ctxchat"),
            "NO_COLOR": "1",
            "OPENAI_BASE_URL": server.base_url,
            "OPENAI_API_KEY": "not-needed",
            "CTXCHAT_MODEL": "fake-model",
            "LLM_USER_PATH": str(llm_home),
        }
        env.pop("CTXCHAT_CONFIG", None)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        runs = {
            "echo hi | ctxchat run (default pipeline)": ([ctxchat, "run"], b"hi\n"),
            "llm -m fake-model hi": ([llm, "-m", "fake-model", "hi"], None),
        }
        for argv, stdin in runs.values():  # first runs make the databases, as on a used install
            cpu_ms(argv, env, stdin)
        samples: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(args.repeat):
            for name, (argv, stdin) in runs.items():
                samples[name].append(cpu_ms(argv, env, stdin))
    ours, theirs = (statistics.median(s) for s in samples.values())
    print(f"median CPU time (user+sys) of {args.repeat} alternating runs each")
    for name, values in samples.items():
        print(f"  {name:<44}{statistics.median(values):8.0f} ms")
    print(f"ratio ctxchat / llm: {ours / theirs:.2f} (target <= 1.0)")


if __name__ == "__main__":
    main()
