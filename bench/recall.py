"""What automatic recall costs a turn, what embedding each turn's new messages costs, and how
fast `recall eval` ingests a conversation; on SQLite, and on PostgreSQL when a server is named.

    python bench/recall.py [--messages 100000] [--sessions 1000] [--turns 40]
                           [--postgres URL] [--embeddings-url URL --embeddings-model NAME]

A history is filled with `--messages` stored messages (generated sentences, as in
`session_search.py`) in 1,000 sessions through the history's own insert, each with a
384-dimension vector. Then, in the same run, interleaved so that drift in the machine's
speed hits all alike, the same scripted turns (a scripted model, no network) in new sessions:

- through the history alone, and through the history with the `recall` provider: the
  provider's share of a turn (words only, the default);
- the embedding of each turn's two new messages, as the recall provider's learning step
  does with `[embeddings]` set (`SqlHistoryProvider.embed_unembedded`), against the turn:
  by default with an in-process stand-in for the endpoint (the cost to ctxchat: finding the
  rows, storing the vectors), with `--embeddings-url` through a real endpoint (e.g.
  `bench/embedding_server.py`), its model's time included;
- a whole hybrid turn (recall by words and meaning, the new messages embedded after it, so
  the next turn reads the user's vectors again) against the turn by words.

Then `recall eval`'s ingestion rate (`ctxchat.services.recall_eval.evaluate` over a
generated conversation of `--turns` x 5 turns and one question: history rows, full-text
index and user memory) against a chat storing and learning from the same turns
(`Agent.run` through the same history and memory), on the same database.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from history_tables import PostgresUrl, bulk_insert
from session_search import USER, RandomEmbeddings, history_at, queries, rows, with_vectors

from ctxchat.core.agent import Agent
from ctxchat.core.model_types import Embeddings
from ctxchat.core.provider import ProviderEnv
from ctxchat.core.session import Session
from ctxchat.providers.history.sql import SqlHistoryProvider
from ctxchat.providers.memory.provider import UserMemoryProvider
from ctxchat.providers.recall.provider import RecallProvider
from ctxchat.storage.sql.store import close_all
from ctxchat.testing import ScriptedModel

assert USER  # the rows are the bench user's, whom the providers below search as


def timed_ms(work: Callable[[], object]) -> float:
    started = time.perf_counter()
    work()
    return (time.perf_counter() - started) * 1000


def endpoint(args: argparse.Namespace) -> Embeddings:
    if not args.embeddings_url:
        return RandomEmbeddings()
    from ctxchat.core.settings import EmbeddingSettings, ModelSettings
    from ctxchat.services.embeddings import OpenAIEmbeddings

    settings = EmbeddingSettings(model=args.embeddings_model, base_url=args.embeddings_url)
    return OpenAIEmbeddings(settings, ModelSettings(api_key="not-needed"))


def turns(url: str, home: Path, asked: list[str], embeddings: Embeddings) -> None:
    history = history_at(url, home)
    recall_env = ProviderEnv(home)
    embedding = SqlHistoryProvider(
        "history",
        SqlHistoryProvider.Options(url=url, user=USER),
        env=ProviderEnv(home, message_embeddings=embeddings),
    )
    replies = ["ok"] * 10_000
    plain = Agent(model=ScriptedModel(*replies), providers=[history])
    with_recall = Agent(
        model=ScriptedModel(*replies),
        providers=[history_at(url, home), RecallProvider("recall", env=recall_env)],
    )
    hybrid = Agent(
        model=ScriptedModel(*replies),
        providers=[embedding, RecallProvider("recall", env=recall_env)],
    )
    alone, recalled, embedded, mixed = Session(), Session(), Session(), Session()
    for agent, session in ((plain, alone), (with_recall, recalled), (hybrid, mixed)):
        asyncio.run(agent.run(session, "warm up"))  # the hybrid one reads the vectors once
    asyncio.run(embedding.embed_unembedded({embedded.id}))
    base, more, embed, both = [], [], [], []
    for text in asked:
        base.append(timed_ms(lambda t=text: asyncio.run(plain.run(alone, t))))
        more.append(timed_ms(lambda t=text: asyncio.run(with_recall.run(recalled, t))))
        asyncio.run(with_recall.run(embedded, text))
        embed.append(timed_ms(lambda: asyncio.run(embedding.embed_unembedded({embedded.id}))))
        both.append(timed_ms(lambda t=text: asyncio.run(hybrid.run(mixed, t))))
    b, m = statistics.median(base), statistics.median(more)
    e, h = statistics.median(embed), statistics.median(both)
    print(
        f"  recall: median turn {b:.2f} ms without, {m:.2f} ms with; recall adds "
        f"{m - b:.2f} ms ({(m - b) / m:.0%} of a turn); ratio {m / b:.2f}x"
    )
    print(
        f"  embedding a turn's 2 new messages: median {e:.2f} ms, {e / m:.0%} of a turn "
        f"with recall; ratio {e / m:.2f}x"
    )
    print(
        f"  hybrid turn (recall by words and meaning, then its messages embedded): median "
        f"{h:.2f} ms against {m:.2f} ms by words; ratio {h / m:.2f}x"
    )


def conversation_files(tmp: Path, count: int, words: list[str]) -> tuple[Path, Path]:
    """One generated conversation of `count` turns in sessions of 20, and one question."""
    import random

    rng = random.Random(3)
    sessions = []
    for number in range(1, count // 20 + 2):
        said = []
        for i in range(20):
            text = " ".join(rng.choices(words, k=rng.randint(8, 30)))
            role = "user" if i % 2 == 0 else "assistant"
            said.append({"id": f"D{number}:{i + 1}", "role": role, "speaker": role, "text": text})
        sessions.append({"number": number, "date": "2023-05-08T13:56:00", "turns": said})
    conversation = {"id": "bench", "user": "U", "assistant": "A", "sessions": sessions}
    question = {"conversation": "bench", "question": " ".join(words[:3]), "evidence": ["D1:1"]}
    conversations, questions = tmp / "conversations.jsonl", tmp / "questions.jsonl"
    conversations.write_text(json.dumps(conversation) + "\n")
    questions.write_text(json.dumps(question) + "\n")
    return conversations, questions


def ingestion(url: str, home: Path, count: int, words: list[str]) -> None:
    from ctxchat.config.loading import load_config
    from ctxchat.services.recall_eval import (
        _turn_pairs,
        evaluate,
        load_conversations,
        load_questions,
    )

    conversations, questions = conversation_files(home, count, words)
    config_file = home / "bench-config.toml"
    config_file.write_text(f"[storage]\nurl = {json.dumps(url)}\n")
    config = load_config(config_file)
    found, asked = load_conversations(conversations), load_questions(questions)
    pairs = [p for s in found[0].sessions for p in _turn_pairs(s.turns)]
    eval_ms = timed_ms(lambda: asyncio.run(evaluate(config, found, asked)))

    chat_home = home / "chat"
    chat_home.mkdir(exist_ok=True)
    env = ProviderEnv(chat_home, storage_url=url)
    history = SqlHistoryProvider("history", SqlHistoryProvider.Options(user="bench-chat"), env=env)
    memory = UserMemoryProvider("memory", UserMemoryProvider.Options(user="bench-chat"), env=env)
    replies = [reply.text if reply else "…" for _, reply in pairs]
    chat = Agent(model=ScriptedModel(*replies), providers=[history, memory])
    session = Session()
    chat_ms = timed_ms(
        lambda: [asyncio.run(chat.run(session, said.text if said else "…")) for said, _ in pairs]
    )
    stored = sum(len(s.turns) for s in found[0].sessions)
    imported, chatted = stored / eval_ms * 1000, stored / chat_ms * 1000
    print(
        f"  recall eval ingestion (history, index, memory; and one question): {imported:,.0f} "
        f"turns/s against {chatted:,.0f} turns/s for a chat storing and learning the same "
        f"turns; ratio {imported / chatted:.2f}x"
    )


def measure(label: str, url: str, home: Path, args: argparse.Namespace, data: Any) -> None:
    table_rows, middling = data
    print(f"{label}, {len(table_rows):,} stored messages with vectors:")
    bulk_insert(url, with_vectors(table_rows, url.startswith("sqlite")))
    asked = [
        " ".join(q) + " and what else did we say about it" for q in queries(middling, args.turns)
    ]
    turns(url, home, asked, endpoint(args))
    ingestion(url, home, args.turns * 5, middling)
    close_all()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--postgres", default=os.environ.get("CTXCHAT_TEST_POSTGRES_URL"))
    parser.add_argument("--embeddings-url", default=None)
    parser.add_argument("--embeddings-model", default="all-MiniLM-L6-v2")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        owner = history_at("sqlite://", home).owner
        data = rows(args.messages, args.sessions, owner)
        measure("SQLite", f"sqlite:///{tmp}/history.sqlite3", home, args, data)
        if args.postgres:
            with PostgresUrl(args.postgres) as url:
                measure("PostgreSQL", url, home, args, data)
        else:
            print("PostgreSQL: skipped (give --postgres URL)", file=sys.stderr)


if __name__ == "__main__":
    main()
