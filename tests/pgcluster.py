"""A PostgreSQL cluster of one's own, to stop and start under a running ctxchat: the server
going away mid-turn, for the data-loss tests and `bench/faults.py`. (The suite's shared
server, CTXCHAT_TEST_POSTGRES_URL, must never be stopped: other tests use it at once.)

The cluster lives in a temp dir, listens on 127.0.0.1 on a free port and trusts local
logins; as root it runs as the `postgres` user (PostgreSQL refuses root). `available()`
says whether the server binaries are installed (`.ci/postgres.sh` installs them in CI).
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path


def bindir() -> Path | None:
    """The newest installed PostgreSQL's bin directory, or None."""
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: [int(x) if x.isdigit() else 0 for x in p.parent.parent.name.split(".")],
    )
    return found[-1].parent if found else None


def available() -> bool:
    return bindir() is not None


class PgCluster:
    """`start()` (initdb on first use), `stop()`, `start()` again; `remove()` at the end."""

    def __init__(self) -> None:
        found = bindir()
        if found is None:
            raise RuntimeError("no PostgreSQL server binaries under /usr/lib/postgresql")
        self.bin = found
        self.owner = "postgres" if os.geteuid() == 0 else pwd.getpwuid(os.geteuid()).pw_name
        self.root = Path(tempfile.mkdtemp(prefix="ctxchat-pgfault-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.initialised = False
        if os.geteuid() == 0:
            shutil.chown(self.root, user=self.owner)

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://ctxchat@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> None:
        command = [str(self.bin / args[0]), *args[1:]]
        if os.geteuid() == 0:
            command = ["runuser", "-u", self.owner, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{args[0]} failed: {done.stderr.strip() or done.stdout.strip()}")

    def start(self) -> None:
        if not self.initialised:
            self._run(
                "initdb", "-D", str(self.data), "-U", "ctxchat", "--auth=trust", "-E", "UTF8",
                "--no-locale",
            )  # fmt: skip
            self.initialised = True
        options = (
            f"-c listen_addresses=127.0.0.1 -p {self.port} -c unix_socket_directories="
            f"{self.root} -c fsync=off -c max_connections=50"
        )
        self._run(
            "pg_ctl", "-D", str(self.data), "-w", "-t", "60", "-l", str(self.root / "log"),
            "-o", options, "start",
        )  # fmt: skip

    def stop(self) -> None:
        """Stop the server, closing every connection (a database that went away)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def running(self) -> bool:
        return (self.data / "postmaster.pid").exists()

    def remove(self) -> None:
        with contextlib.suppress(RuntimeError):
            if self.running():
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)


@contextlib.contextmanager
def cluster() -> Iterator[PgCluster]:
    """A started cluster, removed afterwards whatever happened."""
    pg = PgCluster()
    try:
        pg.start()
        yield pg
    finally:
        pg.remove()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
