"""Per-turn pipeline cost of the SQL history as the history grows.

    python bench/history_scaling.py [--turns 40] [--sizes 100,10000,100000]

A scripted conversation runs through the full pipeline (Agent, SqlHistoryProvider, the
OpenAI client against tests/fakeopenai.py's server started in this process) with 100,
10,000 and 100,000 messages already in the history, bulk-inserted first. Each turn's time
minus the time spent inside the model call (the client and the fake server) is the pipeline
time: loading the window, assembling the request, storing the turn. The median per turn is
printed with its ratio to the 100-message case; the target is <= 1.2 at 100,000.

Two windows are measured: the default `max_messages = 100`, and a token budget
(`max_tokens`, no message cap), which reads the history backwards in batches.
Runs on SQLite, and on PostgreSQL too when CTXCHAT_TEST_POSTGRES_URL is set (in a schema
of its own, dropped afterwards).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from fakeopenai import FakeOpenAI
from history_tables import PostgresUrl, bulk_insert

from ctxchat.core.agent import Agent
from ctxchat.core.limits import ContextLimits
from ctxchat.core.messages import Message, ToolCallPart, new_id
from ctxchat.core.model_types import EventSink, ModelReply, ModelRequest
from ctxchat.core.provider import ProviderEnv
from ctxchat.core.session import Session
from ctxchat.core.settings import ModelSettings
from ctxchat.providers.history.sql import SqlHistoryProvider, message_row
from ctxchat.services.model_client import OpenAIChatModel
from ctxchat.storage.owner import Owner
from ctxchat.storage.sql.store import close_all

WINDOWS: dict[str, dict[str, Any]] = {
    "max_messages=100": {"max_messages": 100},
    "max_tokens=2000": {"max_messages": 0, "max_tokens": 2000},
}
WARMUP = 5

OWNER = Owner("bench", "bench")  # loading a window never reads owners


class TimedModel:
    """The real model client, with the time spent inside it added up."""

    def __init__(self, inner: OpenAIChatModel) -> None:
        self.inner = inner
        self.name = inner.name
        self.spent = 0.0

    async def complete(self, request: ModelRequest, on_event: EventSink) -> ModelReply:
        started = time.perf_counter()
        try:
            return await self.inner.complete(request, on_event)
        finally:
            self.spent += time.perf_counter() - started

    async def limits(self) -> ContextLimits:
        return await self.inner.limits()

    def with_model(self, name: str) -> TimedModel:
        return TimedModel(self.inner.with_model(name))

    def check(self) -> None:
        self.inner.check()


def history_rows(key: str, count: int) -> list[dict[str, Any]]:
    """About `count` stored messages: plain exchanges, every tenth turn a tool round."""
    rows: list[dict[str, Any]] = []
    now = datetime.now(UTC)
    turn = 0
    while len(rows) < count:
        turn += 1
        text = f"message {turn}: " + "lorem ipsum dolor sit amet " * (1 + turn % 7)
        if turn % 10 == 0:
            call = ToolCallPart(f"call{turn}", "lookup", '{"q": "x"}')
            messages = [
                Message.user(text).attributed("input"),
                Message.assistant("", [call]).attributed("response"),
                Message.tool_result(call.id, "found " + text).attributed("tool", "tools"),
                Message.assistant("reply " + text).attributed("response"),
            ]
        else:
            messages = [
                Message.user(text).attributed("input"),
                Message.assistant("reply " + text).attributed("response"),
            ]
        turn_id = new_id()
        for m in messages:
            rows.append({**message_row(key, turn_id, now, m, OWNER), "seq": len(rows) + 1})
    return rows  # whole turns: `count` rounded up to the end of the last one


async def measure(
    urls: dict[int, str], settings: ModelSettings, turns: int
) -> dict[tuple[int, str], float]:
    """Median pipeline seconds per (size, window). Turns go round-robin over every case, so
    drift in the machine's speed spreads over all of them instead of skewing one."""
    cases = []
    for size, url in urls.items():
        session = Session()
        bulk_insert(url, history_rows(session.id, size))
        for label, options in WINDOWS.items():
            model = TimedModel(OpenAIChatModel(settings))
            env = ProviderEnv(data_dir=Path(tempfile.gettempdir()))
            history = SqlHistoryProvider(
                "history", SqlHistoryProvider.Options(url=url, **options), env=env
            )
            cases.append(((size, label), Agent(model=model, providers=[history]), model, session))
    gc.collect()  # the bulk rows' garbage, not the turns, would pay for it otherwise
    samples: dict[tuple[int, str], list[float]] = {case[0]: [] for case in cases}
    for i in range(WARMUP + turns):
        for key, agent, model, session in cases:
            model.spent = 0.0
            started = time.perf_counter()
            await agent.run(session, f"turn {i} of the benchmark")
            pipeline = time.perf_counter() - started - model.spent
            if i >= WARMUP:
                samples[key].append(pipeline)
    for _, _, model, _ in cases:
        await model.inner.client().close()
    return {key: statistics.median(values) for key, values in samples.items()}


def run_backend(name: str, make_url: Any, sizes: list[int], turns: int) -> list[str]:
    with FakeOpenAI() as server, contextlib.ExitStack() as stack:
        settings = ModelSettings(
            model="fake-model", base_url=server.base_url, api_key="bench", retries=0
        )
        urls = {size: stack.enter_context(make_url()) for size in sizes}
        results = asyncio.run(measure(urls, settings, turns))
        close_all()
    lines = []
    for label in WINDOWS:
        base = results[(sizes[0], label)]
        for size in sizes:
            value = results[(size, label)]
            lines.append(
                f"{name:<11}{label:<18}{size:>9,}{value * 1000:>12.2f}{value / base:>9.2f}"
            )
    return lines


class SqliteUrl:
    def __enter__(self) -> str:
        self.dir = tempfile.TemporaryDirectory()
        return f"sqlite:///{self.dir.name}/history.sqlite3"

    def __exit__(self, *exc: object) -> None:
        self.dir.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=60, help="measured turns per case")
    parser.add_argument("--sizes", default="100,10000,100000")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    lines = run_backend("sqlite", SqliteUrl, sizes, args.turns)
    postgres = os.environ.get("CTXCHAT_TEST_POSTGRES_URL")
    if postgres:
        lines += run_backend("postgresql", lambda: PostgresUrl(postgres), sizes, args.turns)
    header = f"{'backend':<11}{'window':<18}{'messages':>9}{'ms/turn':>12}{'ratio':>9}"
    print(f"median pipeline time per turn (model call excluded), {args.turns} turns each")
    print(header)
    print("-" * len(header))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
