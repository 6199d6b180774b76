"""What automatic recall costs a turn, and how fast `recall eval` stores a conversation.

A SQLite history is filled with `--messages` stored messages (generated sentences, as in
`session_search.py`) in 1,000 sessions through the history's own insert; then the same
scripted turns (a scripted model, no network) run in a new session through the history
alone and through the history with the `recall` provider, interleaved, in the same run.
Printed: the median turn each way, the provider's share of a turn and the ratio. Then the
ingestion rate of `recall eval`'s writer (`SqlHistoryProvider.import_turn`, a turn at a
given date) against the turn writer a chat uses (`save_messages`), on the same database.

    python bench/recall.py [--messages 100000] [--sessions 1000] [--turns 40]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from history_tables import bulk_insert
from session_search import USER, history_at, queries, rows

from ctxchat.core.agent import Agent
from ctxchat.core.messages import Message
from ctxchat.core.provider import ProviderEnv
from ctxchat.core.session import Session
from ctxchat.providers.recall.provider import RecallProvider
from ctxchat.storage.sql.store import close_all
from ctxchat.testing import ScriptedModel

assert USER  # the rows are the bench user's, whom the providers below search as


def turn_ms(agent: Agent, session: Session, text: str) -> float:
    started = time.perf_counter()
    asyncio.run(agent.run(session, text))
    return (time.perf_counter() - started) * 1000


def ingest_rate(history: object, turns: int, dated: bool) -> float:
    """Turns stored a second, each under a session of its own every 20 turns."""
    started = time.perf_counter()
    key = ""
    for i in range(turns):
        if i % 20 == 0:
            key = f"ingest-{dated}-{i}"
        messages = [Message.user(f"question {i} about pottery"), Message.assistant("reply")]
        if dated:
            at = datetime(2023, 5, 8, tzinfo=UTC)
            asyncio.run(history.import_turn(key, messages, state={}, at=at))  # type: ignore[attr-defined]
        else:
            asyncio.run(history.save_messages(key, messages, state={}))  # type: ignore[attr-defined]
    return turns / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--turns", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        url = f"sqlite:///{tmp}/history.sqlite3"
        owner = history_at("sqlite://", home).owner
        table_rows, middling = rows(args.messages, args.sessions, owner)
        bulk_insert(url, table_rows)
        history = history_at(url, home)
        plain = Agent(model=ScriptedModel(*["ok"] * 10_000), providers=[history])
        with_recall = Agent(
            model=ScriptedModel(*["ok"] * 10_000),
            providers=[history_at(url, home), RecallProvider("recall", env=ProviderEnv(home))],
        )
        asked = [
            " ".join(q) + " and what else did we say about it"
            for q in queries(middling, args.turns)
        ]
        alone, recalled = Session(), Session()
        turn_ms(plain, alone, "warm up")
        turn_ms(with_recall, recalled, "warm up")
        base, more = [], []
        for text in asked:  # interleaved, so drift in the machine's speed hits both alike
            base.append(turn_ms(plain, alone, text))
            more.append(turn_ms(with_recall, recalled, text))
        b, m = statistics.median(base), statistics.median(more)
        print(
            f"recall at {len(table_rows):,} messages: median turn {b:.2f} ms without, "
            f"{m:.2f} ms with; recall adds {m - b:.2f} ms ({(m - b) / m:.0%} of a turn); "
            f"ratio {m / b:.2f}x"
        )
        chat = ingest_rate(history, args.turns * 5, dated=False)
        imported = ingest_rate(history, args.turns * 5, dated=True)
        print(
            f"recall eval ingestion: {imported:,.0f} turns/s against {chat:,.0f} turns/s "
            f"for a chat's turn writer; ratio {imported / chat:.2f}x"
        )
        close_all()


if __name__ == "__main__":
    main()
