"""Tool selection at scale: index build, cached-index load and per-turn ranking time.

    python bench/tool_selection.py [--tools 10000] [--turns 200] [--dim 384]

Synthetic catalogue of `--tools` tools (snake_case names, a sentence of description, two
parameters) and a deterministic fake embed function (hashed words, `--dim` dimensions), so
no server is needed; what is timed is ctxchat's own work, not a model's.

Prints:
- lexical index build time;
- embedding index build with an empty cache (embedding every tool: its text and its name)
  and then a cold load of the cached index by a fresh cache object, as after a restart,
  with the number of texts each sent to the embed function (the restart must send none);
- per-turn selection time, median over `--turns` turns of a conversation (recent window 2,
  top 10), for the lexical, embedding and hybrid rankers, each also as a ratio to a numpy
  matrix-vector product of the same shape (tools x dim) measured in the same run.
Target: under 5 ms a turn at 10,000 tools with a warm index. Figures only, nothing asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import numpy as np

from ctxchat.ranking import ToolDoc, build_ranker, rank_turn
from ctxchat.ranking.cache import VectorCache, ranker_identity
from ctxchat.ranking.selection import build_tool_index, tool_documents

WORDS = [
    "file",
    "folder",
    "user",
    "account",
    "message",
    "email",
    "flight",
    "hotel",
    "booking",
    "order",
    "stock",
    "price",
    "weather",
    "city",
    "image",
    "video",
    "audio",
    "text",
    "document",
    "report",
    "invoice",
    "payment",
    "card",
    "balance",
    "ticket",
    "issue",
    "calendar",
    "event",
    "meeting",
    "task",
    "note",
    "contact",
    "phone",
    "address",
    "map",
    "route",
    "car",
    "engine",
    "tire",
    "fuel",
    "temperature",
    "forecast",
    "news",
    "article",
    "search",
    "query",
    "database",
    "table",
    "row",
    "column",
    "chart",
    "graph",
    "translate",
    "language",
    "summary",
    "review",
    "rating",
    "product",
    "cart",
    "checkout",
    "shipment",
    "package",
    "track",
    "create",
    "delete",
    "update",
    "list",
    "get",
    "send",
    "read",
    "write",
    "move",
    "copy",
    "rename",
    "sort",
    "filter",
    "find",
    "count",
]
VERBS = [
    "get",
    "list",
    "create",
    "delete",
    "update",
    "send",
    "read",
    "find",
    "search",
    "compute",
    "check",
    "set",
]


def synthetic_tools(count: int, seed: int = 7) -> list[ToolDoc]:
    rng = random.Random(seed)
    tools = []
    for index in range(count):
        name = f"{rng.choice(VERBS)}_{rng.choice(WORDS)}_{rng.choice(WORDS)}_{index}"
        description = " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 20))) + "."
        parameters = {
            "type": "object",
            "properties": {
                f"{rng.choice(WORDS)}_id": {"type": "string", "description": "Which one."},
                "limit": {"type": "integer", "description": "How many at most."},
            },
        }
        tools.append(ToolDoc(name, description.capitalize(), parameters))
    return tools


def conversation(turns: int, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    return [
        "please " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 12)))
        for _ in range(turns)
    ]


class FakeEmbed:
    """Hashed bag of words: deterministic, numpy-fast, counts the texts it is sent."""

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self.texts = 0
        self._rows: dict[str, np.ndarray[Any, Any]] = {}

    def _word(self, word: str) -> np.ndarray[Any, Any]:
        row = self._rows.get(word)
        if row is None:
            seed = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=8).digest(), "little")
            row = np.random.default_rng(seed).standard_normal(self.dim).astype(np.float32)
            self._rows[word] = row
        return row

    async def __call__(self, texts: list[str]) -> list[list[float]]:
        self.texts += len(texts)
        out = []
        for text in texts:
            vector = np.zeros(self.dim, dtype=np.float32)
            for word in text.lower().split():
                vector += self._word(word)
            out.append(vector.tolist())
        return out


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000.0


async def timed(make: Callable[[], Coroutine[Any, Any, Any]]) -> tuple[Any, float]:
    started = time.perf_counter()
    result = await make()
    return result, time.perf_counter() - started


async def run(args: argparse.Namespace) -> None:
    tools = synthetic_tools(args.tools)
    texts = conversation(args.turns)
    identity = ranker_identity("fake-embed", "http://127.0.0.1/v1")

    _, lexical_build = await timed(lambda: build_ranker("lexical", tools))
    print(f"tools: {len(tools)}, dim: {args.dim}, turns: {args.turns}")
    print(f"lexical index build:               {lexical_build * 1000:9.1f} ms")

    with tempfile.TemporaryDirectory() as tmp:
        cache_dir = Path(tmp) / "vectors"
        documents = tool_documents(tools)
        embed = FakeEmbed(args.dim)
        _, cold_build = await timed(
            lambda: build_tool_index(documents, embed, cache=VectorCache(cache_dir, identity))
        )
        print(
            f"embedding index build, empty cache: {cold_build * 1000:9.1f} ms"
            f"   texts embedded: {embed.texts}"
        )
        restart = FakeEmbed(args.dim)
        _, cold_load = await timed(
            lambda: build_tool_index(documents, restart, cache=VectorCache(cache_dir, identity))
        )
        print(
            f"cold load of the cached index:      {cold_load * 1000:9.1f} ms"
            f"   texts embedded: {restart.texts}"
        )

        # The numpy floor: one matrix-vector product of the same shape.
        rng = np.random.default_rng(3)
        matrix = rng.standard_normal((len(tools), args.dim)).astype(np.float32)
        vector = rng.standard_normal(args.dim).astype(np.float32)
        floor = []
        for _ in range(args.turns):
            started = time.perf_counter()
            matrix @ vector
            floor.append(time.perf_counter() - started)
        floor_ms = median_ms(floor)
        print(f"numpy matrix-vector ({len(tools)}x{args.dim}):   {floor_ms:9.3f} ms (median)")

        for kind in ("lexical", "embedding", "hybrid"):
            embed_turns = FakeEmbed(args.dim)
            ranker = await build_ranker(
                kind,  # type: ignore[arg-type]
                tools,
                embed=embed_turns,
                identity=identity,
                cache_dir=cache_dir,
            )
            history: list[tuple[str, str]] = []
            samples = []
            for text in texts:
                started = time.perf_counter()
                await rank_turn(ranker, history, text, recent=2, k=10)
                samples.append(time.perf_counter() - started)
                history.append(("user", text))
            turn_ms = median_ms(samples)
            print(
                f"per-turn selection, {kind:<9}       {turn_ms:9.3f} ms (median)"
                f"   ratio to matrix-vector: {turn_ms / floor_ms:7.1f}"
                f"   texts embedded: {embed_turns.texts}"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=10_000)
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--dim", type=int, default=384)
    args = parser.parse_args(argv)
    asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
