"""Tool-selection quality on the shared data: every split, k = 1, 3, 5, 10, each ranker.

    python bench/tool_eval.py [--split dev|test|both] [--rankers lexical,embedding,hybrid]
                              [--embeddings-url http://127.0.0.1:8765/v1]
                              [--model all-MiniLM-L6-v2] [--recent 2] [--json]

The lexical ranker needs nothing. The embedding and hybrid rankers go through the real
`openai` client (`AsyncOpenAI(base_url=...).embeddings.create`) to `--embeddings-url`, e.g.
`bench/embedding_server.py` serving all-MiniLM-L6-v2 (see its docstring). Vectors are kept
in a SQLite file under /tmp (`--vector-store`, keyed by model, endpoint and text), so a
second run embeds nothing; it is a development convenience, not the selector's own cache.

MetaTool single is ranked with the embedding rankers on its first 3,000 test cases, the
subset the data README gives the model's figures for (all of it for lexical, and for dev).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import sqlite3
import struct
import sys
import time
from pathlib import Path
from typing import Any

from ctxchat.ranking.cache import ranker_identity
from ctxchat.ranking.embedding import EmbedFn, openai_embedder
from ctxchat.ranking.evaluate import evaluate, load_cases, load_tools
from ctxchat.ranking.selection import build_ranker

DATA = Path("/work/shared/data/tool-selection")
SETS = {
    "MetaTool single": ("metatool/tools.jsonl", "metatool/single-{split}.jsonl"),
    "MetaTool multi": ("metatool/tools.jsonl", "metatool/multi-{split}.jsonl"),
    "BFCL multi-turn": ("bfcl/tools.jsonl", "bfcl/multiturn-{split}.jsonl"),
}
EMBEDDING_SUBSET = {("MetaTool single", "test"): 3000}
KS = (1, 3, 5, 10)


def stored_embedder(embed: EmbedFn, identity: str, path: Path) -> tuple[EmbedFn, list[int]]:
    """`embed` behind a SQLite store of vectors by (identity, text); also counts the texts
    that really went to the endpoint."""
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE IF NOT EXISTS v (k TEXT PRIMARY KEY, d BLOB)")
    sent = [0]

    def key(text: str) -> str:
        return hashlib.sha256(f"{identity}\n{text}".encode()).hexdigest()

    async def cached(texts: list[str]) -> list[list[float]]:
        found: dict[str, list[float]] = {}
        for text in texts:
            row = db.execute("SELECT d FROM v WHERE k = ?", (key(text),)).fetchone()
            if row is not None:
                blob = row[0]
                found[text] = list(struct.unpack(f"<{len(blob) // 4}f", blob))
        missing = [t for t in dict.fromkeys(texts) if t not in found]
        for start in range(0, len(missing), 256):
            batch = missing[start : start + 256]
            vectors = await embed(batch)
            sent[0] += len(batch)
            for text, vector in zip(batch, vectors, strict=True):
                found[text] = vector
                blob = struct.pack(f"<{len(vector)}f", *vector)
                db.execute("INSERT OR REPLACE INTO v VALUES (?, ?)", (key(text), blob))
            db.commit()
        return [found[t] for t in texts]

    return cached, sent


async def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    rankers = [r.strip() for r in args.rankers.split(",") if r.strip()]
    splits = ["dev", "test"] if args.split == "both" else [args.split]
    embed: EmbedFn | None = None
    if any(r != "lexical" for r in rankers):
        import openai

        client = openai.AsyncOpenAI(base_url=args.embeddings_url, api_key="unused", timeout=600)
        identity = ranker_identity(args.model, args.embeddings_url)
        embed, _ = stored_embedder(
            openai_embedder(client, args.model), identity, Path(args.vector_store)
        )
    rows: list[dict[str, Any]] = []
    for split in splits:
        for name, (tools_file, cases_file) in SETS.items():
            tools = load_tools(DATA / tools_file)
            all_cases = load_cases(DATA / cases_file.format(split=split), [t.name for t in tools])
            for kind in rankers:
                cases = all_cases
                limit = EMBEDDING_SUBSET.get((name, split)) if kind != "lexical" else None
                if limit is not None:
                    cases = all_cases[:limit]
                ranker = await build_ranker(kind, tools, embed=embed)  # type: ignore[arg-type]
                started = time.perf_counter()
                result = await evaluate(ranker, cases, ks=KS, recent=args.recent)
                elapsed = time.perf_counter() - started
                rows.append(
                    {"split": split, "set": name, "ranker": kind, "seconds": round(elapsed, 2)}
                    | result.to_dict()
                )
                if not args.json:
                    print_row(rows[-1])
    return rows


def print_row(row: dict[str, Any]) -> None:
    recall = row["recall"]
    cells = " ".join(f"{recall[str(k)]:.3f}" for k in KS)
    print(
        f"{row['split']:<5} {row['set']:<16} {row['ranker']:<10} {row['cases']:>6}  {cells}"
        f"   {row['all_gold']['5']:.3f}  {row['mrr']:.3f}",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=["dev", "test", "both"], default="dev")
    parser.add_argument("--rankers", default="lexical")
    parser.add_argument("--embeddings-url", default="http://127.0.0.1:8765/v1")
    parser.add_argument("--model", default="all-MiniLM-L6-v2")
    parser.add_argument("--recent", type=int, default=2)
    parser.add_argument("--vector-store", default="/tmp/ctxchat-eval-vectors.sqlite")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not args.json:
        print(
            f"{'split':<5} {'set':<16} {'ranker':<10} {'cases':>6}  "
            "R@1   R@3   R@5   R@10    AG@5   MRR"
        )
    rows = asyncio.run(run(args))
    if args.json:
        json.dump(rows, sys.stdout, indent=1)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
