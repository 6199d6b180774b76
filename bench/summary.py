"""What the summary provider costs a long conversation.

The same scripted conversation runs through the default history (SQL, a SQLite file, a
window of 100 messages) with the summary provider and without it, in the same run, with a
scripted model (no network: a fold's model call costs nothing here, so the times are the
provider's own work). Printed: the median turn each way and the ratio; then the model cost
of folding: how many fold calls the conversation needed and the tokens they sent, against
the tokens of the chat requests themselves.

    python bench/summary.py [--turns 400] [--window 100]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from ctxchat.core.agent import Agent
from ctxchat.core.messages import Message
from ctxchat.core.model_types import ModelRequest
from ctxchat.core.provider import ProviderEnv
from ctxchat.core.session import Session
from ctxchat.core.tokens import count_message_tokens
from ctxchat.providers.history.sql import SqlHistoryProvider
from ctxchat.providers.summary.provider import SummaryProvider
from ctxchat.testing import ScriptedModel

FOLD_MARK = "You keep a running summary"
ANSWER = "Here is a considered answer with a few sentences of detail. " * 4


def reply(request: ModelRequest) -> str:
    if request.messages[0].text.startswith(FOLD_MARK):
        return "The user asked about many things; the summary keeps the gist. " * 8
    return ANSWER


def tokens(requests: list[ModelRequest]) -> int:
    return sum(count_message_tokens(m) for r in requests for m in r.messages)


async def timed(agent: Agent, count: int) -> list[float]:
    session = Session()
    spent = []
    for n in range(count):
        message = Message.user(f"Question {n}: how would you approach problem number {n}?")
        begin = time.perf_counter()
        await agent.run(session, [message])
        spent.append(time.perf_counter() - begin)
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=400)
    parser.add_argument("--window", type=int, default=100, help="the history's max_messages")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        env = ProviderEnv(data_dir=Path(folder))

        def history(name: str) -> SqlHistoryProvider:
            url = f"sqlite:///{Path(folder) / name}"
            return SqlHistoryProvider(
                "history", SqlHistoryProvider.Options(url=url, max_messages=args.window), env=env
            )

        plain_model = ScriptedModel(*[reply] * (args.turns * 2))
        summed_model = ScriptedModel(*[reply] * (args.turns * 3))
        plain = Agent(model=plain_model, providers=[history("plain.sqlite3")])
        summed = Agent(
            model=summed_model,
            providers=[history("summed.sqlite3"), SummaryProvider("summary", env=env)],
        )
        without = statistics.median(asyncio.run(timed(plain, args.turns)))
        with_summary = statistics.median(asyncio.run(timed(summed, args.turns)))
        plain.close()
        summed.close()
    fold_requests = [r for r in summed_model.requests if r.messages[0].text.startswith(FOLD_MARK)]
    chat_requests = [r for r in summed_model.requests if r not in fold_requests]
    print(f"turns                   {args.turns} (history window {args.window} messages)")
    print(f"turn without summary    {without * 1000:.2f} ms (median)")
    print(f"turn with summary       {with_summary * 1000:.2f} ms")
    print(f"summary adds            {(with_summary - without) * 1000:.2f} ms a turn")
    print(f"ratio                   {with_summary / without:.2f}x the turn without it")
    print(f"fold calls              {len(fold_requests)} in {args.turns} turns")
    fold_tokens, chat_tokens = tokens(fold_requests), tokens(chat_requests)
    print(f"tokens sent to fold     {fold_tokens:,}")
    print(f"tokens sent to chat     {chat_tokens:,} (with the summary)")
    plain_chat = tokens(plain_model.requests)
    print(f"tokens sent, no summary {plain_chat:,}")
    total = (fold_tokens + chat_tokens) / plain_chat
    print(f"token ratio             {total:.2f}x the model input without the summary")


if __name__ == "__main__":
    main()
