"""What ctxchat adds to a local model, each figure a ratio to a reference in the same run.

    python bench/local_model.py [--turns 100] [--reply 64] [--repeat 5] [--model FILE.gguf]
                                [--only first,memory,startup,threads]

The model is the tests' tiny GGUF (`tests/tinymodel.py`) unless `--model` names another,
run by the llama.cpp child server (`ctxchat.services.llama_server`) started as
`ctxchat run --model FILE` starts it (so ctxchat reads its replies as it does for a user,
`services.direct_stream`), with every reply running to `--reply` tokens (`ignore_eos`),
so both sides of a comparison generate alike.

- The first token's time and a whole reply's tokens/s through ctxchat's engine (the
  default pipeline less what is stored outside the session: a `ChatService` turn in this
  process), against a raw streamed HTTP request to the same server with the same system
  prompt and message, alternated `--repeat` times; ctxchat's share of each (target < 10%).
- Threads: a raw reply's tokens/s with two threads against one (why one is the default on
  a busy two-core machine: the threads are the cores measured free).
- Start-up: `ctxchat run --model FILE "hi"` (the server started, the model loaded, a
  one-token reply) against `ctxchat run "hi"` to an already-running server.
- Memory: ctxchat's RSS (this process, which runs the turns) and the server's after
  `--turns` turns of one conversation against after one, sampled every ten turns.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from tinymodel import cached_model

from ctxchat.config.loading import load_config
from ctxchat.core.model_types import TextDelta
from ctxchat.core.settings import DEFAULT_INSTRUCTIONS
from ctxchat.services.build import build_agent
from ctxchat.services.conversations import ChatService
from ctxchat.services.llama_server import LlamaServer, LlamaServerOptions
from ctxchat.services.local_model import start_server, stop_local_models
from ctxchat.storage.store import SessionStore

PROMPT = "Tell me about the sea."


@contextlib.contextmanager
def local_server(options: LlamaServerOptions) -> Iterator[LlamaServer]:
    """The server as `ctxchat run --model FILE` starts it (`local_model.start_server`), so
    that ctxchat's turns take the path they take for a user's local model."""
    server = start_server(options)
    try:
        yield server
    finally:
        stop_local_models()


def raw_reply(server: LlamaServer, reply: int) -> tuple[float, float, float]:
    """(seconds to the first token, to the last, to the end) of one streamed request."""
    body = {
        "model": server.options.model_id,
        "messages": [
            {"role": "system", "content": DEFAULT_INSTRUCTIONS},
            {"role": "user", "content": PROMPT},
        ],
        "max_tokens": reply,
        "stream": True,
    }
    request = urllib.request.Request(
        server.base_url + "/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    started = time.perf_counter()
    first = last = 0.0
    with urllib.request.urlopen(request, timeout=300) as answer:
        for line in answer:
            if not line.startswith(b"data: {"):
                continue
            choices = json.loads(line[6:]).get("choices") or [{}]
            if choices[0].get("delta", {}).get("content"):
                last = time.perf_counter() - started
                first = first or last
    return first, last, time.perf_counter() - started


def chat_service(home: Path, server: LlamaServer, reply: int) -> ChatService:
    environ = {"CTXCHAT_HOME": str(home), "OPENAI_BASE_URL": server.base_url}
    config = load_config(
        None,
        environ=environ,
        model_overrides={"model": server.options.model_id, "max_tokens": reply},
    )
    agent = build_agent(config, temporary=True)
    return ChatService(agent, SessionStore(home / "sessions"), model_chosen=True)


async def engine_reply(service: ChatService) -> tuple[float, float, float]:
    """(seconds to the first token, to the last, to the turn's end, stored) of one ctxchat
    turn, in a new conversation (the same prompt as the raw request's)."""
    conversation = service.new()
    seen: list[float] = []
    started = time.perf_counter()

    def on_event(event: object) -> None:
        if isinstance(event, TextDelta) and event.text:
            seen.append(time.perf_counter() - started)

    await service.send(conversation, PROMPT, on_event=on_event)
    return seen[0], seen[-1], time.perf_counter() - started


async def alternate(
    repeat: int, server: LlamaServer, service: ChatService, reply: int
) -> tuple[list[tuple[float, float, float]], list[tuple[float, float, float]]]:
    """Raw requests and ctxchat turns in turn, in one event loop as in the REPL (the
    model client is made once per loop)."""
    await asyncio.to_thread(raw_reply, server, reply)  # warm both: caches, the client
    await engine_reply(service)
    raw, ours = [], []
    for _ in range(repeat):
        raw.append(await asyncio.to_thread(raw_reply, server, reply))
        ours.append(await engine_reply(service))
    return raw, ours


async def turns(
    service: ChatService, count: int, server: LlamaServer
) -> list[tuple[int, float, float]]:
    """(turns so far, ctxchat's RSS, the server's RSS) after the first turn of one
    conversation, then every tenth, up to `count`: where memory grows, if it does."""
    conversation = service.new()
    samples = []
    for i in range(count):
        await service.send(conversation, f"{PROMPT} ({i})" if i else PROMPT)
        if i == 0 or (i + 1) % 10 == 0 or i + 1 == count:
            done, ours_mib, server_mib = i + 1, rss_mib(os.getpid()), rss_mib(server.pid)
            samples.append((done, ours_mib, server_mib))
            print(f"  after {done:3d} turns: ctxchat {ours_mib:.0f} MiB, ", end="")
            print(f"server {server_mib:.0f} MiB", flush=True)
    return samples


def median(values: list[float]) -> float:
    return statistics.median(values)


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cli_seconds(args: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(
        [str(Path(sys.executable).with_name("ctxchat")), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if done.returncode != 0:
        raise SystemExit(f"ctxchat {' '.join(args)} failed: {done.stderr}")
    return time.perf_counter() - started


PARTS = ("first", "memory", "startup", "threads")


def first_token(server: LlamaServer, service: ChatService, args: argparse.Namespace) -> None:
    raw, ours = asyncio.run(alternate(args.repeat, server, service, args.reply))
    raw_first, our_first = median([r[0] for r in raw]), median([o[0] for o in ours])
    # tokens/s while the reply streams: the tokens after the first, over their time
    raw_rate = (args.reply - 1) / median([r[1] - r[0] for r in raw])
    our_rate = (args.reply - 1) / median([o[1] - o[0] for o in ours])
    raw_turn, our_turn = median([r[2] for r in raw]), median([o[2] for o in ours])
    print(
        f"first token: ctxchat {our_first * 1000:.1f} ms, raw {raw_first * 1000:.1f} ms;"
        f" ratio {our_first / raw_first:.2f} "
        f"(ctxchat's share {(our_first - raw_first) / our_first:.0%})"
    )
    # The fastest of each: what the work itself costs, less what other processes took of
    # the cores meanwhile (on a shared machine the medians move by more than ctxchat adds).
    raw_best, our_best = min(r[0] for r in raw), min(o[0] for o in ours)
    print(
        f"  fastest first token: ctxchat {our_best * 1000:.1f} ms, raw {raw_best * 1000:.1f} ms;"
        f" ctxchat's share {(our_best - raw_best) / our_best:.0%}"
    )
    print(
        f"streaming: ctxchat {our_rate:.1f} tokens/s, raw {raw_rate:.1f} tokens/s; "
        f"ratio {our_rate / raw_rate:.2f} "
        f"(ctxchat's share {(raw_rate - our_rate) / raw_rate:.0%})"
    )
    print(
        f"whole turn of {args.reply} tokens, stored: ctxchat {our_turn * 1000:.0f} ms, "
        f"raw request {raw_turn * 1000:.0f} ms; ratio {our_turn / raw_turn:.2f}"
    )


def memory(server: LlamaServer, service: ChatService, args: argparse.Namespace) -> None:
    """One conversation, `--turns` turns; its window fills and is fitted."""
    samples = asyncio.run(turns(service, args.turns, server))
    (_, ours_one, server_one), (done, ours_all, server_all) = samples[0], samples[-1]
    print(
        f"RSS after {done} turns against after one: ctxchat {ours_all:.0f} MiB against "
        f"{ours_one:.0f} MiB, ratio {ours_all / ours_one:.2f}; server {server_all:.0f} "
        f"MiB against {server_one:.0f} MiB, ratio {server_all / server_one:.2f}"
    )


def startup(home: Path, model: Path, server: LlamaServer, args: argparse.Namespace) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "CTXCHAT_"))}
    env["CTXCHAT_HOME"] = str(home / "cli")
    (home / "cli").mkdir()
    (home / "cli" / "config.toml").write_text("[model]\nmax_tokens = 1\n")
    runs = max(1, args.repeat // 2)
    to_server = {**env, "OPENAI_BASE_URL": server.base_url}
    served = median([cli_seconds(["run", "--temp", "hi"], to_server) for _ in range(runs)])
    loaded = median(
        [cli_seconds(["run", "--temp", "--model", str(model), "hi"], env) for _ in range(runs)]
    )
    print(
        f"start-up with a local model: {loaded:.2f} s (load included) against {served:.2f} s"
        f" to a running server; ratio {loaded / served:.2f}"
    )


def threads(home: Path, model: Path, args: argparse.Namespace) -> None:
    rates = {}
    for count in (1, 2):
        threaded = LlamaServerOptions(model, alias="bench", threads=count, ignore_eos=True)
        with LlamaServer(threaded, log=home / f"llama-{count}.log") as server:
            raw_reply(server, args.reply)
            rates[count] = args.reply / median(
                [raw_reply(server, args.reply)[1] for _ in range(args.repeat)]
            )
    print(
        f"threads: 2 threads {rates[2]:.1f} tokens/s, 1 thread {rates[1]:.1f} tokens/s; "
        f"ratio {rates[2] / rates[1]:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--reply", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--model", type=Path, default=None)
    parser.add_argument(
        "--only", default=",".join(PARTS), help=f"the parts to run, of {','.join(PARTS)}"
    )
    args = parser.parse_args()
    parts = set(args.only.split(","))
    if not parts <= set(PARTS):
        raise SystemExit(f"--only takes {','.join(PARTS)}")
    model = args.model or cached_model()
    if model is None:
        raise SystemExit("no model: run python tests/tinymodel.py, or give --model FILE.gguf")

    with tempfile.TemporaryDirectory() as scratch:
        home = Path(scratch)
        options = LlamaServerOptions(model, alias="bench", ignore_eos=True, context=2048)
        with local_server(options) as server:
            service = chat_service(home, server, args.reply)
            if "first" in parts:
                first_token(server, service, args)
            if "memory" in parts:
                memory(server, service, args)
            service.close()
            if "startup" in parts:
                startup(home, model, server, args)
        if "threads" in parts:
            threads(home, model, args)


if __name__ == "__main__":
    main()
