"""What the user-memory provider costs a turn with 10,000 stored facts.

A SQLite memory store is filled with 10,000 facts; then the same scripted turns run through
an agent with the memory provider (rules extractor) and through one without it, in the same
run, with a scripted model (no network). Printed: the median turn each way, what memory
adds, and the ratio. About one turn in four tells the memory something new, so the figure
includes writes as well as recall.

    python bench/memory.py [--facts 10000] [--turns 200]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from ctxchat.core.agent import Agent
from ctxchat.core.messages import Message
from ctxchat.core.provider import ProviderEnv
from ctxchat.core.session import Session
from ctxchat.providers.history.in_memory import InMemoryHistoryProvider
from ctxchat.providers.memory import Fact, FactSet
from ctxchat.providers.memory.provider import UserMemoryProvider
from ctxchat.testing import ScriptedModel

TOPICS = ["hiking", "chess", "jazz", "sushi", "tennis", "painting", "rust", "opera", "kayaks"]
SAYINGS = [
    "What should I cook tonight?",
    "I love {topic} number {n}.",
    "Can you explain how tides work?",
    "Summarise the plot of Hamlet in two lines.",
]


def fill(provider: UserMemoryProvider, count: int) -> None:
    start = datetime(2025, 1, 1, tzinfo=UTC)

    def add_all(facts: FactSet) -> None:
        for n in range(count):
            moment = start + timedelta(minutes=n)
            value = f"{TOPICS[n % len(TOPICS)]} club {n}"
            facts.add(Fact(f"F{n:08d}", "likes", value, moment, moment))

    provider._sql.change(add_all)


def turns(count: int) -> list[str]:
    return [
        SAYINGS[n % len(SAYINGS)].format(topic=TOPICS[n % len(TOPICS)], n=n) for n in range(count)
    ]


async def timed(agent: Agent, texts: list[str]) -> list[float]:
    session = Session()
    spent = []
    for text in texts:
        message = Message.user(text, origin="typed")
        begin = time.perf_counter()
        await agent.run(session, [message])
        spent.append(time.perf_counter() - begin)
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=10_000)
    parser.add_argument("--turns", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        env = ProviderEnv(data_dir=Path(folder))
        memory = UserMemoryProvider("memory", UserMemoryProvider.Options(user="bench"), env=env)
        fill(memory, args.facts)
        with_memory = Agent(model=ScriptedModel(), providers=[InMemoryHistoryProvider("h"), memory])
        without = Agent(model=ScriptedModel(), providers=[InMemoryHistoryProvider("h")])
        texts = turns(args.turns)
        asyncio.run(timed(with_memory, texts[:5]))  # warm: the cache and the index are built
        plain = statistics.median(asyncio.run(timed(without, texts)))
        remembered = statistics.median(asyncio.run(timed(with_memory, texts)))
        memory.close()
    added = (remembered - plain) * 1000
    print(f"facts stored            {args.facts:,}")
    print(f"turn without memory     {plain * 1000:.2f} ms (median of {args.turns})")
    print(f"turn with memory        {remembered * 1000:.2f} ms")
    print(f"memory adds             {added:.2f} ms a turn (target: under 10 ms)")
    print(f"ratio                   {remembered / plain:.2f}x the turn without memory")


if __name__ == "__main__":
    main()
