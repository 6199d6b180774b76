"""`ctxchat import`: storing imported conversations against writing the same turns as a
chat writes them, in the same run; and what the secret screen costs a message.

    python bench/import_sessions.py [--conversations 300] [--turns 5] [--postgres URL]

Makes `--conversations` ChatGPT-shaped conversations of `--turns` turns (a 40-word
question and answer each), plans their import (read, screened, counted: timed per message)
and stores them through `store_plan` into a fresh home: one transaction and one session
file per conversation. The reference, in the same run and another fresh home, stores the
same turns as a chat does: each turn its own history transaction and its own session file
save. Prints both and their ratio (import / chat writer: below 1 means an import costs less
than the chats it brings in did). PostgreSQL runs when `--postgres` (or
CTXCHAT_TEST_POSTGRES_URL) names a server; SQLite always.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import random
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from history_tables import PostgresUrl

from ctxchat.core.messages import Message, new_id
from ctxchat.services.importers import ImportedConversation, ImportedMessage

WORDS = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "python",
    "list",
    "file",
    "error",
    "token",
    "branch",
    "merge",
    "test",
]


def conversations(count: int, turns: int, seed: int = 3) -> list[ImportedConversation]:
    rng = random.Random(seed)
    start = datetime(2024, 1, 1, tzinfo=UTC)
    found = []
    for c in range(count):
        at = start + timedelta(hours=c)
        messages = []
        for t in range(turns):
            for role in ("user", "assistant"):
                text = " ".join(rng.choice(WORDS) for _ in range(40))
                messages.append(ImportedMessage(role, text, at + timedelta(minutes=t)))
        found.append(ImportedConversation("chatgpt", f"c{c}", f"Chat {c}", at, tuple(messages)))
    return found


def service_in(home: Path, url: str | None) -> Any:
    os.environ["CTXCHAT_HOME"] = str(home)
    from ctxchat.cli.common import chat_service, load_config

    config = load_config(None)
    if url is not None:
        config = dataclasses.replace(config, storage=dataclasses.replace(config.storage, url=url))
    return chat_service(config)


def run(backend: str, url: str | None, count: int, turns: int) -> None:
    from ctxchat.services import import_plan as planning
    from ctxchat.services import import_sessions as importing

    found = conversations(count, turns)
    messages = count * turns * 2
    with tempfile.TemporaryDirectory() as one, tempfile.TemporaryDirectory() as two:
        service = service_in(Path(one), url)
        history = service.history()
        began = time.perf_counter()
        plan = planning.plan_import(
            "chatgpt",
            Path("bench.json"),
            found,
            screen=planning.secret_screen([]),
            owner=planning.import_owner(history),
            exists=service.store.exists,
            history_source=history.source_id,
        )
        planned = time.perf_counter() - began
        began = time.perf_counter()
        asyncio.run(importing.store_plan(plan, service))
        imported = time.perf_counter() - began
        service.close()

        reference = service_in(Path(two), url)
        chat_history = reference.history()
        began = time.perf_counter()
        asyncio.run(_as_chats(reference, chat_history, plan))
        chats = time.perf_counter() - began
        reference.close()
    print(
        f"{backend}: {count} conversations, {messages} messages: plan {planned:.2f} s "
        f"({planned / messages * 1000:.2f} ms a message, the secret screen most of it); "
        f"import {imported:.2f} s against the chat writer {chats:.2f} s: "
        f"ratio {imported / chats:.2f}x"
    )


async def _as_chats(service: Any, history: Any, plan: Any) -> None:
    """Each turn as a chat stores it: the history's transaction, then the session file."""
    from ctxchat.core.session import Session

    for planned in plan.sessions:
        session = Session(title=planned.session.title)
        state = session.provider_state(history.source_id)
        for turn in planned.turns:
            fresh: list[Message] = [dataclasses.replace(m, id=new_id()) for m in turn.messages]
            await history.store_turn(session.id, fresh, state=state, turn_id=new_id())
            session.turns += 1
            service.store.save(session)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--conversations", type=int, default=300)
    parser.add_argument("--turns", type=int, default=5)
    parser.add_argument("--postgres", default=os.environ.get("CTXCHAT_TEST_POSTGRES_URL"))
    args = parser.parse_args()
    run("sqlite", None, args.conversations, args.turns)
    if args.postgres:
        with PostgresUrl(args.postgres) as url:
            run("postgresql", url, args.conversations, args.turns)


if __name__ == "__main__":
    main()
