"""A separate process appending turns to one SQL history, for the concurrency tests.

    python history_writer.py URL KEY TURNS TAG GO_FILE

Prints "ready", waits until GO_FILE exists (so every writer starts at once), then saves
TURNS turns of three messages through SqlHistoryProvider, texts "TAG i a|b|c".
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

from ctxchat.core.messages import Message
from ctxchat.core.provider import ProviderEnv
from ctxchat.providers.history.sql import SqlHistoryProvider


async def write(url: str, key: str, turns: int, tag: str) -> None:
    history = SqlHistoryProvider(
        "history", SqlHistoryProvider.Options(url=url), env=ProviderEnv(data_dir=Path.cwd())
    )
    state = {"history_key": key}
    for i in range(turns):
        messages = [
            Message.user(f"{tag} {i} a").attributed("input"),
            Message.assistant(f"{tag} {i} b").attributed("response"),
            Message.assistant(f"{tag} {i} c").attributed("response"),
        ]
        await history.save_messages(key, messages, state=state)
        await asyncio.sleep(0.002)  # room for the other writer, as between real turns


def main() -> None:
    url, key, turns, tag, go = sys.argv[1:6]
    # Paid before the start line, so neither writer gets a head start from importing it.
    import sqlalchemy  # noqa: F401

    print("ready", flush=True)
    deadline = time.monotonic() + 30
    while not Path(go).exists():
        if time.monotonic() > deadline:
            raise SystemExit("never told to go")
        time.sleep(0.005)
    asyncio.run(write(url, key, int(turns), tag))


if __name__ == "__main__":
    main()
