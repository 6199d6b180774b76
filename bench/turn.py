"""A turn's cost with everything on: the whole default pipeline at scale, in a warm process,
against llama.cpp's own server running the tiny model (`ctxchat.services.llama_server`).

    python bench/turn.py [--turns 5] [--warmup 2] [--history 100000] [--facts 10000]
                         [--tools 1000] [--threads 2]

Scale: 100,000 history messages (1,000 other sessions, which recall searches, and this
one), 10,000 facts in the user's memory, 1,000 Python tools in the tools provider (the
selector ranks them and advertises its best), a summary in place, recall on.

Each measured turn's wall time is split into each provider's `before_run` and `after_run`
(and `after_stored_turn`), the model call, and the rest: the engine's own share. Each is
printed as a share of the model's time to first token for the same request, measured in the
same run with llama.cpp's prompt cache off (`cache_prompt: false`, no RAM cache), so that
the server reads the whole prompt as a first turn would. Target: the engine and all
providers together under 10% of it.

A turn's request differs from the next (the history grows), so each turn's request is sent
again, once, right after it, for its own time to first token.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

MODEL_ID = "smollm2"
REPLY_TOKENS = 16  # the reply's length is the model's business; a short one keeps the run short
USER = "bench"


def write_tools(folder: Path, count: int) -> list[str]:
    """A module of `count` small documented functions; their `python` references."""
    verbs = ["fetch", "archive", "convert", "schedule", "measure", "translate", "count", "sort"]
    nouns = ["invoices", "photos", "meetings", "parcels", "recipes", "tickets", "songs", "notes"]
    lines = []
    for n in range(count):
        verb, noun = verbs[n % len(verbs)], nouns[(n // len(verbs)) % len(nouns)]
        lines += [
            f"def {verb}_{noun}_{n}(query: str, limit: int = 5) -> str:",
            f'    """{verb.title()} the {noun} that match the query (batch {n})."""',
            "    return query",
            "",
        ]
    (folder / "bench_tools.py").write_text("\n".join(lines), encoding="utf-8")
    return [f"bench_tools:{verbs[n % 8]}_{nouns[(n // 8) % 8]}_{n}" for n in range(count)]


def history_rows(owner: Any, sessions: list[str], per_session: int) -> list[dict[str, Any]]:
    from ctxchat.core.messages import Message, new_id
    from ctxchat.providers.history.sql import message_row

    rows: list[dict[str, Any]] = []
    start = datetime.now(UTC) - timedelta(days=30)
    topics = ["kubernetes", "sourdough", "tax forms", "marathon", "violin", "garden", "rust"]
    for s, key in enumerate(sessions):
        for i in range(0, per_session, 2):
            topic = topics[(s + i) % len(topics)]
            when = start + timedelta(minutes=s * per_session + i)
            turn = new_id()
            for seq, message in enumerate(
                (
                    Message.user(f"question {i} about {topic}, session {s}").attributed("input"),
                    Message.assistant(f"an answer on {topic}: " + "details " * 12).attributed(
                        "response"
                    ),
                ),
                start=i + 1,
            ):
                rows.append({**message_row(key, turn, when, message, owner), "seq": seq})
    return rows


class Timed:
    """Seconds spent in each (provider, stage), without the model calls a provider makes
    itself (a summary's fold: the model's time, reported apart)."""

    def __init__(self, model: RecordingModel) -> None:
        self.model = model
        self.spent: dict[tuple[str, str], float] = defaultdict(float)

    def wrap(self, provider: Any, stage: str) -> None:
        inner = getattr(provider, stage)

        @functools.wraps(inner)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            started, in_model = time.perf_counter(), self.model.spent
            try:
                return await inner(*args, **kwargs)
            finally:
                asked = self.model.spent - in_model
                self.spent[(provider.source_id, stage)] += time.perf_counter() - started - asked

        setattr(provider, stage, timed)


class RecordingModel:
    """The real model client; the time inside it added up, the turn's request kept."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self.spent = 0.0
        self.requests: list[Any] = []

    async def complete(self, request: Any, on_event: Any) -> Any:
        self.requests.append(request)
        started = time.perf_counter()
        try:
            return await self.inner.complete(request, on_event)
        finally:
            self.spent += time.perf_counter() - started

    async def limits(self) -> Any:
        return await self.inner.limits()

    def with_model(self, name: str) -> RecordingModel:
        return RecordingModel(self.inner.with_model(name))

    def check(self) -> None:
        self.inner.check()


def first_token_seconds(base_url: str, request: Any) -> float:
    """The server's time to the first streamed token of `request`, its prompt cache off."""
    import urllib.request

    from ctxchat.core.openai_format import to_openai_messages

    body: dict[str, Any] = {
        "model": MODEL_ID,
        "messages": to_openai_messages(request.messages),
        "stream": True,
        "max_tokens": 1,
        "cache_prompt": False,
    }
    if request.tools:
        body["tools"] = [tool.spec() for tool in request.tools]
    asked = urllib.request.Request(
        f"{base_url}/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    started = time.perf_counter()
    with urllib.request.urlopen(asked, timeout=900) as response:
        for raw in response:
            line = raw.decode().strip()
            if line.startswith("data: ") and line != "data: [DONE]":
                choices = json.loads(line[6:]).get("choices") or [{}]
                delta = choices[0].get("delta") or {}
                if any(delta.get(k) for k in ("content", "reasoning_content", "tool_calls")):
                    return time.perf_counter() - started
    return time.perf_counter() - started


async def run(args: argparse.Namespace, home: Path, base_url: str) -> None:
    from history_tables import bulk_insert

    from ctxchat.config.defaults import DEFAULT_PIPELINE
    from ctxchat.config.loading import config_from_dict
    from ctxchat.core.paths import data_dir
    from ctxchat.core.session import Session
    from ctxchat.providers.memory.facts import Fact
    from ctxchat.services.build import build_agent
    from ctxchat.services.model_client import OpenAIChatModel
    from ctxchat.storage.owner import Owner, home_id

    sys.path.insert(0, str(home))
    refs = write_tools(home, args.tools)
    providers = []
    for type_name, source_id, options in DEFAULT_PIPELINE:
        options = dict(options)
        if type_name == "tools":
            options["python"] = refs
        if type_name == "user_memory":
            options["user"] = USER
        providers.append({"type": type_name, "source_id": source_id, **options})
    data = {
        "model": {
            "model": MODEL_ID,
            "base_url": base_url,
            "api_key": "none",
            "max_tokens": REPLY_TOKENS,
            "retries": 0,
            "timeout": 900,
            "read_timeout": 900,
        },
        "providers": providers,
    }
    config = config_from_dict(data, path=None, environ=os.environ, model_overrides={})
    model = RecordingModel(OpenAIChatModel(config.model))
    agent = build_agent(config, model=model)

    # The data, written straight into the stores.
    session = Session()
    others = [Session().id for _ in range(1000)]
    url = f"sqlite:///{data_dir() / 'history.sqlite3'}"
    owner = Owner(home_id(data_dir()), USER)
    per_session = max(2, (args.history - 200) // len(others))
    own = history_rows(owner, [session.id], 200)
    bulk_insert(url, history_rows(owner, others, per_session) + own)
    # The summary stands in for what fell out of the window (max_messages = 100): folded
    # through the message before it, so a turn reads it and no turn folds again.
    folded_through = json.loads(own[-101]["message"])["id"]
    memory = agent.provider("memory") if hasattr(agent, "provider") else None
    memory = memory or next(p for p in agent.run_providers() if p.source_id == "memory")
    start = datetime(2025, 1, 1, tzinfo=UTC)

    def add_all(facts: Any) -> None:
        for n in range(args.facts):
            moment = start + timedelta(minutes=n)
            facts.add(Fact(f"F{n:08d}", "likes", f"club number {n} of kayaks", moment, moment))

    memory._sql.change(add_all)
    session.state["summary"] = {
        "summary": "The user asked about sourdough, marathons and tax forms; "
        "they prefer short answers. " * 8,
        "messages": 100,
        "through": folded_through,
    }

    timed = Timed(model)
    stages = ("before_run", "after_run", "after_stored_turn")
    for provider in agent.run_providers():
        for stage in stages:
            if hasattr(provider, stage):
                timed.wrap(provider, stage)

    rows: dict[str, list[float]] = defaultdict(list)
    ttft: list[float] = []
    words = ["kubernetes", "sourdough", "tax forms", "the marathon", "violin lessons"]
    for i in range(args.warmup + args.turns):
        timed.spent.clear()
        model.spent = 0.0
        model.requests.clear()
        started = time.perf_counter()
        await agent.run(session, f"what did we say about {words[i % len(words)]} last time?")
        total = time.perf_counter() - started
        if i < args.warmup:
            continue
        chat_request = model.requests[0]
        ttft.append(first_token_seconds(base_url, chat_request))
        rows["prompt characters"].append(sum(len(m.text) for m in chat_request.messages) / 1000)
        in_providers = sum(timed.spent.values())
        for (source, stage), seconds in timed.spent.items():
            rows[f"{source}.{stage}"].append(seconds)
        rows["engine (the rest)"].append(total - model.spent - in_providers)
        rows["engine + providers"].append(total - model.spent)
        rows["model calls (the reply; a summary's fold)"].append(model.spent)
        rows["model calls made"].append(len(model.requests))
    agent.close()

    reference = statistics.median(ttft)
    print(
        f"{args.turns} turns; history {args.history:,} messages, {args.facts:,} facts, "
        f"{args.tools:,} tools, summary and recall on"
    )
    print(f"model time to first token, prompt cache off (median): {reference * 1000:.0f} ms")
    print(f"{'part of the turn':<36}{'median ms':>11}{'share of TTFT':>15}")
    chars = statistics.median(rows.pop("prompt characters")) * 1000
    calls = statistics.median(rows.pop("model calls made"))
    print(f"request: {chars:,.0f} characters of messages (median); {calls:.0f} model calls a turn")
    for name in sorted(rows, key=lambda n: (n.startswith(("engine", "model")), n)):
        value = statistics.median(rows[name])
        print(f"{name:<36}{value * 1000:>11.1f}{value / reference:>14.1%}")
    share = statistics.median(rows["engine + providers"]) / reference
    print(f"engine + providers: {share:.1%} of the time to first token (target < 10%)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=2, help="turns run first, not measured")
    parser.add_argument("--history", type=int, default=100_000)
    parser.add_argument("--facts", type=int, default=10_000)
    parser.add_argument("--tools", type=int, default=1000)
    parser.add_argument("--threads", type=int, default=2, help="llama.cpp's threads")
    args = parser.parse_args()

    from tinymodel import cached_model

    from ctxchat.services.llama_server import LlamaServer, LlamaServerOptions

    found = cached_model()
    if found is None:
        sys.exit("bench/turn.py: the tiny model is missing (python tests/tinymodel.py)")
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder) / "home"
        home.mkdir()
        os.environ["CTXCHAT_HOME"] = str(home)
        os.environ["CTXCHAT_USER"] = USER
        options = LlamaServerOptions(
            found, alias=MODEL_ID, context=8192, prompt_cache_mib=0, threads=args.threads
        )
        with LlamaServer(options, log=Path(folder) / "llama.log") as server:
            asyncio.run(run(args, home, server.base_url))


if __name__ == "__main__":
    main()
