"""A separate process opening a database's stores, for the concurrent-upgrade tests.

    python store_opener.py URL ORDER GO_FILE

ORDER is "history,audit" or "audit,history": the providers whose stores are opened, in
that order. Prints "ready", waits until GO_FILE exists (so every process starts at once),
then opens each provider's database (migrating its store), and prints "done".
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from ctxchat.core.provider import ProviderEnv
from ctxchat.providers.audit.provider import AuditProvider
from ctxchat.providers.history.sql import SqlHistoryProvider

PROVIDERS = {"history": SqlHistoryProvider, "audit": AuditProvider}


def main() -> None:
    url, order, go = sys.argv[1:4]
    env = ProviderEnv(data_dir=Path.cwd())
    providers = [
        PROVIDERS[name](name, PROVIDERS[name].Options(url=url), env=env)
        for name in order.split(",")
    ]
    # Paid before the start line, so no process gets a head start from importing it.
    import sqlalchemy  # noqa: F401

    print("ready", flush=True)
    deadline = time.monotonic() + 30
    while not Path(go).exists():
        if time.monotonic() > deadline:
            raise SystemExit("never told to go")
        time.sleep(0.005)
    for provider in providers:
        provider.database()
    print("done", flush=True)


if __name__ == "__main__":
    main()
