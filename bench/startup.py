"""Start-up cost of the `ctxchat` command against the floor of the tools it is built on.

    python bench/startup.py [--repeat 15]

Every command runs as a fresh process `--repeat` times; the figure is the median CPU time
(user + sys) of the child, which the machine's other load disturbs far less than wall time.
Two comparisons, each against a reference measured in the same run:

- `ctxchat --help` against a minimal Typer app with two commands and a sub-group (`--help`):
  the framework's own floor. Target: ratio <= 0.5 (half of a bare Typer app).
- One scripted turn, `echo hi | ctxchat run` (default pipeline: SQL history on SQLite),
  against a minimal Typer script that imports openai and makes one streamed request to the
  same local server. Target: ratio <= 1.1 (what llm pays for one prompt).

The local OpenAI-protocol server runs in this process, so its CPU is not counted.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from fakeopenai import FakeOpenAI

MINIMAL_TYPER = """
import typer

app = typer.Typer()
group = typer.Typer()
app.add_typer(group, name="things")


@app.command()
def hello(name: str = "world") -> None:
    print(f"hello {name}")


@app.command()
def bye() -> None:
    print("bye")


@group.command("list")
def list_things() -> None:
    print("none")


app()
"""

MINIMAL_TURN = """
import sys

import openai
import typer


def main(prompt: str, base_url: str) -> None:
    client = openai.OpenAI(base_url=base_url, api_key="not-needed")
    stream = client.chat.completions.create(
        model="fake-model", messages=[{"role": "user", "content": prompt}], stream=True
    )
    for chunk in stream:
        if chunk.choices and chunk.choices[0].delta.content:
            sys.stdout.write(chunk.choices[0].delta.content)
    sys.stdout.write("\\n")


typer.run(main)
"""


def median_cpu_ms(
    argv: list[str], env: dict[str, str], repeat: int, stdin: bytes | None = None
) -> float:
    """Median user+sys CPU of `argv` as a child process, in milliseconds."""
    samples = []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(
            argv, env=env, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            raise SystemExit(f"{argv} failed: {done.stderr.decode(errors='replace')}")
        used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        samples.append(used * 1000)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    ctxchat = str(Path(sys.executable).with_name("ctxchat"))
    python = sys.executable
    with tempfile.TemporaryDirectory() as home, FakeOpenAI() as server:
        env = {
            **os.environ,
            "CTXCHAT_HOME": home,
            "NO_COLOR": "1",
            "OPENAI_BASE_URL": server.base_url,
            "OPENAI_API_KEY": "not-needed",
            "CTXCHAT_MODEL": "fake-model",
        }
        env.pop("CTXCHAT_CONFIG", None)
        # One turn first: the history database and its schema exist, as on a used install.
        median_cpu_ms([ctxchat, "run"], env, 1, stdin=b"hi\n")
        rows = [
            ("help", "minimal Typer app --help", [python, "-c", MINIMAL_TYPER, "--help"], None),
            ("help", "ctxchat --help", [ctxchat, "--help"], None),
            ("help", "ctxchat --version", [ctxchat, "--version"], None),
            ("help", "ctxchat sessions list", [ctxchat, "sessions", "list"], None),
            (
                "turn",
                "minimal typer+openai streamed request",
                [python, "-c", MINIMAL_TURN, "hi", server.base_url],
                None,
            ),
            ("turn", "echo hi | ctxchat run", [ctxchat, "run"], b"hi\n"),
        ]
        measured = [
            (group, name, median_cpu_ms(argv, env, args.repeat, stdin))
            for group, name, argv, stdin in rows
        ]
    references = {"help": measured[0][2], "turn": measured[4][2]}
    targets = {"help": 0.5, "turn": 1.1}
    print(f"median CPU time (user+sys) of {args.repeat} runs each")
    for group, name, ms in measured:
        ratio = ms / references[group]
        is_reference = ms == references[group]
        note = "reference" if is_reference else f"ratio {ratio:4.2f}"
        if name in ("ctxchat --help", "echo hi | ctxchat run"):
            note += f" (target <= {targets[group]})"
        print(f"  {name:<40}{ms:8.1f} ms   {note}")


if __name__ == "__main__":
    main()
