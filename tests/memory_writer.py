"""One process changing one user's memory, for the concurrent-writer tests.

`python memory_writer.py URL DATA_DIR READY_FILE GO_FILE CITY`: builds the user memory of
user "ada", writes READY_FILE, waits for GO_FILE, then in one change moves the user to
CITY (the old city into the fact's history), the read-modify-write that concurrent
processes must not lose.
"""

from __future__ import annotations

import dataclasses
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from ctxchat.core.provider import ProviderEnv
from ctxchat.providers.memory.facts import Fact, PastValue
from ctxchat.providers.memory.factset import FactSet
from ctxchat.providers.memory.provider import UserMemoryProvider

FACT_ID = "city"


def move_to(city: str) -> object:
    def work(facts: FactSet) -> None:
        now = datetime.now(UTC)
        found = [f for f in facts.in_slot("lives_in") if f.id == FACT_ID]
        if not found:
            facts.add(Fact(FACT_ID, "lives_in", city, now, now))
            return
        old = found[0]
        past = PastValue(old.value, old.first_seen, old.last_seen, now, old.provenance)
        moved = dataclasses.replace(old, value=city, last_seen=now, history=(*old.history, past))
        facts.replace(moved)

    return work


def main() -> None:
    url, data_dir, ready, go, city = sys.argv[1:6]
    provider = UserMemoryProvider(
        "memory", UserMemoryProvider.Options(url=url, user="ada"), env=ProviderEnv(Path(data_dir))
    )
    memory = provider.memory({})
    memory.facts()  # connected and cached before the start, as in a running chat
    Path(ready).write_text("ready")
    while not Path(go).exists():
        time.sleep(0.005)
    memory.change(move_to(city))  # type: ignore[arg-type]
    provider.close()


if __name__ == "__main__":
    main()
