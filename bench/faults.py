"""Random faults across a scripted conversation, then a check that nothing was lost or
leaked into the wrong state.

    python bench/faults.py [--faults 200] [--backends sqlite,postgresql] [--seed N]

For each backend, `ctxchat run --lines --json` is run again and again on one session (the
real command, against tests/fakeopenai.py's server started in this process), each time with
a few turns and one fault in one of them, chosen at random:

- kill -9 while the reply streams (the server holds it mid-reply), as the reply ends and
  the turn is being stored (the server has sent it all, then a random 0-40 ms), or the
  moment the history holds the turn (its rows seen in the database), before or as the
  session file counts it;
- the database stopped while the reply streams (PostgreSQL: the cluster of this run, made
  with tests/pgcluster.py), or read-only (SQLite: history.sqlite3 mounted read-only for the
  process; needs `unshare -m`);
- the sessions directory read-only (needs `unshare -m`);
- a server error (400, 429, 500 or 503, its message echoing the API key), or a reply
  stream cut mid-way;
- six processes telling one user's memory six cities at once (`memory-writers`): the
  memory's change counter must grow by one per process that succeeded;
- a Python tool raising SystemExit (`tool-exit`), and a runaway calculation beside a tool
  that holds the GIL past its timeout (`runaway-tool`): the turn must complete, exit 0;
- Ctrl-C or kill -9 while the `llm` memory extractor's call is held (`sigint-learning`,
  `kill-learning`): the turn must be kept and audited, Ctrl-C exits 130;
- a NUL in the piped message and a NUL and a lone surrogate in the reply
  (`nul-surrogate`): kept as U+FFFD, never a failed turn.

A turn is *reported saved* when its `--json` line was written (that happens once the
session file counts it), *reported failed* when the process exited non-zero before writing
it; a turn killed under way is *unknown*. Afterwards every session is opened once (which
puts right a turn a killed process left half-stored) and these must hold: every turn
reported saved is in the history; no turn reported failed, or never sent, is; each session
counts exactly the turns its history holds; the audit records as ok only turns the history
kept (and every turn reported saved); no row or file holds the API key; SQLite's
integrity_check is ok. The counts are printed; the exit status is 0 when every check held.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from fakeopenai import Cut, Error, FakeOpenAI, RecordedRequest, Reply, Text, ToolCalls  # noqa: E402
from pgcluster import PgCluster, available  # noqa: E402
from secret_leaks import check_secret_leaks  # noqa: E402

from ctxchat.core.storable import storable  # noqa: E402

API_KEY = "sk-faults-SECRET-9f8e7d6c5b4a"
CONFIG = """
[model]
retries = 0
timeout = 30

[storage]
url = "{url}"

[[providers]]
type = "sql_history"
source_id = "history"

[[providers]]
type = "audit"
"""
# The extra providers some fault kinds need, each a config file of its own beside the
# plain one (CTXCHAT_CONFIG), so the other kinds' request counts stay as they are.
MEMORY = '\n[[providers]]\ntype = "user_memory"\nsource_id = "memory"\nextractor = "{extractor}"\n'
TOOLS = """
[[providers]]
type = "tools"
builtins = ["calculate"]
python = [
    { ref = "faulty_tools:quits", side_effects = false },
    { ref = "faulty_tools:hog", side_effects = false, timeout = 1 },
]
"""
TOOL_MODULE = """
import sys


def quits(code: int = 3) -> str:
    \"\"\"Ends its process.\"\"\"
    sys.exit(code)


def hog() -> str:
    \"\"\"Holds the GIL in one C call for hours.\"\"\"
    return str(sum(range(10**14)))
"""
CITIES = ["Lisbon", "Oslo", "Quito", "Hanoi", "Dakar", "Lima", "Paris", "Berlin", "Madrid"]
READ_ONLY = 'mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" "$1" && shift && exec "$@"'
TITLE = "faults"


def ctxchat_executable() -> str:
    candidate = Path(sys.executable).with_name("ctxchat")
    return str(candidate) if candidate.exists() else "ctxchat"


def can_unshare() -> bool:
    probe = tempfile.mkdtemp()
    try:
        done = subprocess.run(
            ["unshare", "-m", "sh", "-c", READ_ONLY, "sh", probe, "touch", f"{probe}/x"],
            capture_output=True,
        )
        return done.returncode != 0 and b"Read-only file system" in done.stderr
    except OSError:
        return False
    finally:
        shutil.rmtree(probe, ignore_errors=True)


@dataclass
class Tally:
    faults: Counter[str] = field(default_factory=Counter)
    saved: set[str] = field(default_factory=set)
    failed: set[str] = field(default_factory=set)
    unknown: set[str] = field(default_factory=set)
    unsent: set[str] = field(default_factory=set)
    exits: Counter[int] = field(default_factory=Counter)
    # Turns a killed process left marked under way: some in the history, not yet counted
    # (taken back by the next process to open the session), some with nothing stored.
    half_stored: set[str] = field(default_factory=set)
    marked_only: set[str] = field(default_factory=set)


class Run:
    """One backend's conversation under faults."""

    def __init__(self, backend: str, server: FakeOpenAI, rng: random.Random) -> None:
        self.backend = backend
        self.server = server
        self.rng = rng
        self.root = Path(tempfile.mkdtemp(prefix=f"ctxchat-faults-{backend}-"))
        self.home = self.root / "home"
        self.home.mkdir()
        self.pg: PgCluster | None = None
        if backend == "postgresql":
            self.pg = PgCluster()
            self.pg.start()
            url = self.pg.url
        else:
            url = f"sqlite:///{self.home / 'history.sqlite3'}"
        self.url = url
        base = CONFIG.format(url=url)
        (self.home / "config.toml").write_text(base)
        self.configs = {
            "memory": self.home / "memory.toml",
            "learning": self.home / "learning.toml",
            "tools": self.home / "tools.toml",
        }
        self.configs["memory"].write_text(base + MEMORY.format(extractor="rules"))
        self.configs["learning"].write_text(base + MEMORY.format(extractor="llm"))
        self.configs["tools"].write_text(base + TOOLS)
        tool_dir = self.root / "pylib"
        tool_dir.mkdir()
        (tool_dir / "faulty_tools.py").write_text(TOOL_MODULE)
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "CTXCHAT_"))},
            "CTXCHAT_HOME": str(self.home),
            "OPENAI_BASE_URL": server.base_url,
            "OPENAI_API_KEY": API_KEY,
            "CTXCHAT_MODEL": "fake-model",
            "NO_COLOR": "1",
            "PYTHONPATH": os.pathsep.join(
                filter(None, [str(tool_dir), os.environ.get("PYTHONPATH")])
            ),
        }
        self.tally = Tally()
        self.engine: Any = None
        self.plan: dict[str, Reply] = {}
        self.step = 0
        self.sent: set[str] = set()  # every input given to a process, as the server sees it
        # The turn whose memory extraction is held, and what it waits for.
        self.learning_target: str | None = None
        self.learning = threading.Event()
        self.memory_bumps = 0  # changes the memory writers reported saved
        self.memory_version = 0
        self.learning_killed: set[str] = set()  # turns killed while memory learnt
        self.last_err = ""  # the last process's stderr, for a failure's message
        self.log: list[str] = []  # each fault and its processes, printed on a failure
        self.extra = {
            "memory-writers": self.memory_writers,
            "tool-exit": self.tool_exit,
            "runaway-tool": self.runaway_tool,
            "sigint-learning": lambda: self.while_learning(signal.SIGINT),
            "kill-learning": lambda: self.while_learning(signal.SIGKILL),
            "nul-surrogate": self.nul_surrogate,
        }

    def close(self) -> None:
        if self.engine is not None:
            self.engine.dispose()
        if self.pg is not None:
            self.pg.remove()
        shutil.rmtree(self.root, ignore_errors=True)

    # -- the server ---------------------------------------------------------------------------
    def reply(self, request: RecordedRequest) -> Reply:
        text = request.last_user_text
        if text not in self.sent:  # not a turn: the llm memory extractor asking
            target = self.learning_target
            held = self.learning if target is not None and target in text else None
            return Text('{"operations": []}', hold=held)
        return self.plan.pop(text, None) or Text(f"reply to {text}", chunk_size=6)

    # -- one process ----------------------------------------------------------------------------
    def session_args(self) -> list[str]:
        for path in (self.home / "sessions").glob("*.json"):
            with_title = json.loads(path.read_text()).get("title") == TITLE
            if with_title:
                return ["--session", TITLE]
        return ["--title", TITLE]

    def kinds(self, unshare: bool) -> list[str]:
        kinds = ["kill-streaming", "kill-storing", "kill-stored", "server-error", "cut-stream"]
        kinds += list(self.extra)
        if self.pg is not None:
            kinds.append("database-stopped")
        elif unshare:
            kinds.append("database-read-only")
        if unshare:
            kinds.append("sessions-read-only")
        return kinds

    def look_for_half_turns(self) -> None:
        """Count what the last process left under way: a marked turn the history holds
        (killed between the two stores) is taken back by the next process to open it."""
        for path in (self.home / "sessions").glob("*.json"):
            turn_id = json.loads(path.read_text()).get("pending_turn")
            if turn_id is None:
                continue
            stored = self.rows(f"SELECT count(*) FROM ctxchat_history WHERE turn_id = '{turn_id}'")
            if stored[0][0]:
                self.tally.half_stored.add(turn_id)
            elif turn_id not in self.tally.half_stored:
                self.tally.marked_only.add(turn_id)

    def one_fault(self, kind: str) -> None:
        if kind == "database-read-only" and not (self.home / "history.sqlite3").exists():
            kind = "server-error"  # nothing to mount read-only before the first turn
        self.look_for_half_turns()
        self.step += 1
        self.log.append(f"fault {self.step}: {kind}")
        if kind in self.extra:
            self.extra[kind]()
            self.tally.faults[kind] += 1
            return
        count = self.rng.randint(1, 4)
        inputs = [f"s{self.step} t{j}" for j in range(count)]
        self.sent.update(inputs)
        at = self.rng.randrange(count)
        target = inputs[at]
        held = threading.Event()
        if kind in ("kill-streaming", "kill-storing", "kill-stored", "database-stopped"):
            self.plan[target] = Text(f"reply to {target} " * 20, chunk_size=16, hold=held)
        elif kind == "server-error":
            status = self.rng.choice([400, 429, 500, 503])
            self.plan[target] = Error(status, f"Incorrect API key provided: {API_KEY}")
        elif kind == "cut-stream":
            self.plan[target] = Cut(f"reply to {target} " * 5, after_chunks=2)
        argv = [ctxchat_executable(), "run", "--lines", "--json", *self.session_args()]
        if kind == "database-read-only":
            argv = [
                "unshare",
                "-m",
                "sh",
                "-c",
                READ_ONLY,
                "sh",
                str(self.home / "history.sqlite3"),
                *argv,
            ]
        elif kind == "sessions-read-only":
            (self.home / "sessions").mkdir(exist_ok=True)
            argv = [
                "unshare",
                "-m",
                "sh",
                "-c",
                READ_ONLY,
                "sh",
                str(self.home / "sessions"),
                *argv,
            ]
        before = len(self.server.chat_requests())
        script = self.root / "turns.txt"
        script.write_text("".join(f"{i}\n" for i in inputs))
        with script.open("rb") as stdin:
            child = subprocess.Popen(
                argv, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self.env
            )
        killed = False
        try:
            if kind.startswith("kill") or kind == "database-stopped":
                reached = self._wait_for_request(child, before + at + 1)
                if reached and kind == "kill-streaming":
                    child.send_signal(signal.SIGKILL)
                    killed = True
                elif reached and kind == "kill-storing":
                    held.set()
                    time.sleep(self.rng.uniform(0, 0.04))  # across storing and committing
                    child.send_signal(signal.SIGKILL)
                    killed = True
                elif reached and kind == "kill-stored":
                    held.set()
                    if self._wait_for_rows(child, target):
                        child.send_signal(signal.SIGKILL)
                        killed = True
                elif reached:
                    assert self.pg is not None
                    self.pg.stop()
            held.set()
            out, err = child.communicate(timeout=120)
        finally:
            held.set()
            if child.poll() is None:
                child.kill()
                child.wait()
            if self.pg is not None and not self.pg.running():
                self.pg.start()
        self.plan.pop(target, None)
        self.tally.faults[kind] += 1
        self.tally.exits[child.returncode] += 1
        self._classify(inputs, out.decode(), err.decode(), child.returncode, killed)

    # -- the fault kinds of issue 21 -------------------------------------------------------------
    def _start(
        self, inputs: list[str], config: str | None, args: list[str] | None = None
    ) -> subprocess.Popen[bytes]:
        """`ctxchat run --lines --json` sending `inputs` (raw: a NUL stays a NUL)."""
        self.sent.update(storable(i) for i in inputs)
        env = {**self.env, "CTXCHAT_CONFIG": str(self.configs[config])} if config else self.env
        script = self.root / f"turns-{self.rng.randrange(1 << 30)}.txt"
        script.write_bytes("".join(f"{i}\n" for i in inputs).encode("utf-8", "surrogatepass"))
        argv = [ctxchat_executable(), "run", "--lines", "--json", *(args or self.session_args())]
        with script.open("rb") as stdin:
            return subprocess.Popen(
                argv, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
            )

    def _finish(
        self, child: subprocess.Popen[bytes], inputs: list[str], killed: bool = False
    ) -> int:
        try:
            out, err = child.communicate(timeout=120)
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
        self.tally.exits[child.returncode] += 1
        self.last_err = err.decode()
        self._classify(
            [storable(i) for i in inputs], out.decode(), self.last_err, child.returncode, killed
        )
        return child.returncode

    def _memory_version(self) -> int:
        try:
            found = self.rows("SELECT max(version) FROM ctxchat_memory_version")
        except Exception:  # no memory table yet
            return 0
        return int(found[0][0] or 0)

    def memory_writers(self) -> None:
        """Six processes, each a session of its own, tell one user six cities at once."""
        cities = self.rng.sample(CITIES, 6)
        before = self._memory_version()
        turns = [[f"I live in {city}. (s{self.step} w{i})"] for i, city in enumerate(cities)]
        children = [
            self._start(t, "memory", ["--title", f"mem-{self.step}-{i}"])
            for i, t in enumerate(turns)
        ]
        codes = [self._finish(c, t) for c, t in zip(children, turns, strict=True)]
        grew = self._memory_version() - before
        if grew != codes.count(0):
            raise AssertionError(
                f"{codes.count(0)} memory writers succeeded, the memory's counter grew by {grew}"
            )

    def tool_exit(self) -> None:
        inputs = [f"s{self.step} t{j}" for j in range(self.rng.randint(1, 3))]
        target = self.rng.choice(inputs)
        self.plan[target] = ToolCalls([("quits", {"code": self.rng.choice([0, 2, 3])})])
        code = self._finish(self._start(inputs, "tools"), inputs)
        self.plan.pop(target, None)
        if code != 0:
            raise AssertionError(f"a tool's SystemExit ended the run, exit {code}: {self.last_err}")

    def runaway_tool(self) -> None:
        inputs = [f"s{self.step} t{j}" for j in range(self.rng.randint(1, 3))]
        target = self.rng.choice(inputs)
        bomb = self.rng.choice(["round(1, -10**9)", "round(2.5, -10**12)", "factorial(10**6)"])
        self.plan[target] = ToolCalls([("calculate", {"expression": bomb}), ("hog", {})])
        code = self._finish(self._start(inputs, "tools"), inputs)
        self.plan.pop(target, None)
        if code != 0:
            raise AssertionError(f"a runaway tool failed the run, exit {code}: {self.last_err}")

    def while_learning(self, how: signal.Signals) -> None:
        """Ctrl-C or kill -9 once the llm extractor's call for one turn is held."""
        cities = self.rng.sample(CITIES, self.rng.randint(1, 3))
        inputs = [f"I live in {city}. s{self.step} t{j}" for j, city in enumerate(cities)]
        at = self.rng.randrange(len(inputs))
        self.learning.clear()
        self.learning_target = inputs[at]
        child = self._start(inputs, "learning")
        try:
            reached = self._wait_for_extraction(child, inputs[at])
            if reached:
                child.send_signal(how)
            killed = reached and how == signal.SIGKILL
            code = self._finish(child, inputs, killed=killed)
        finally:  # held until the process is gone: the signal, not the reply, ends it
            self.learning.set()
            self.learning_target = None
        if not reached:
            raise AssertionError(f"the run ended (exit {code}) before memory learnt")
        if how == signal.SIGINT and code != 130:
            raise AssertionError(f"Ctrl-C while memory learnt exited {code}, not 130")
        if how == signal.SIGINT and inputs[at] not in self.tally.saved:
            raise AssertionError("Ctrl-C while memory learnt: the turn was not reported kept")
        if killed:
            self.learning_killed.add(inputs[at])

    def nul_surrogate(self) -> None:
        inputs = [f"s{self.step} t{j}" for j in range(self.rng.randint(1, 3))]
        at = self.rng.randrange(len(inputs))
        inputs[at] += " nul \x00 here"
        self.plan[storable(inputs[at])] = Text(f"re {storable(inputs[at])} \x00 and \ud800 x")
        code = self._finish(self._start(inputs, None), inputs)
        self.plan.pop(storable(inputs[at]), None)
        if code != 0:
            raise AssertionError(
                f"a NUL or a lone surrogate failed the run, exit {code}: {self.last_err}"
            )

    def _wait_for_extraction(self, child: subprocess.Popen[bytes], target: str) -> bool:
        """Wait until the memory extractor asks about `target` (its call is then held)."""
        while child.poll() is None:
            asked = (r.last_user_text for r in self.server.chat_requests())
            if any(target in text and text not in self.sent for text in asked):
                return True
            self.server.wait_for_requests(len(self.server.chat_requests()) + 1, timeout=0.05)
        return False

    def _wait_for_request(self, child: subprocess.Popen[bytes], count: int) -> bool:
        while not self.server.wait_for_requests(count, timeout=0.2):
            if child.poll() is not None:
                return False
        return True

    def _wait_for_rows(self, child: subprocess.Popen[bytes], text: str) -> bool:
        """Wait until the history holds the turn asked as `text`; False when the process
        ended first."""
        pattern = f'%"text":"{text}"%'
        sql = f"SELECT count(*) FROM ctxchat_history WHERE message LIKE '{pattern}'"
        while child.poll() is None:
            try:
                if self.rows(sql)[0][0]:
                    return True
            except Exception:  # the table is not there yet
                pass
            time.sleep(0.002)
        return False

    def _classify(self, inputs: list[str], out: str, err: str, code: int, killed: bool) -> None:
        self.log.append(f"  {inputs}: exit {code}{' (killed)' if killed else ''} {err.strip()!r}")
        saved = {json.loads(line)["input"] for line in out.splitlines() if line.strip()}
        if code == 0 and saved != set(inputs):
            raise AssertionError(f"exit 0 but not every turn reported saved: {inputs} {out!r}")
        if code not in (0, -signal.SIGKILL) and err.count("\n") != 1:
            raise AssertionError(f"a failure must be one line on stderr: {err!r}")
        if API_KEY in err:
            raise AssertionError(f"the API key reached stderr: {err!r}")
        sent = set(inputs[: len(saved) + 1]) if code != 0 else set(inputs)
        for text in inputs:
            if text in saved:
                self.tally.saved.add(text)
            elif text not in sent:
                self.tally.unsent.add(text)
            elif killed:
                self.tally.unknown.add(text)
            else:
                self.tally.failed.add(text)

    # -- afterwards -----------------------------------------------------------------------------
    def settle(self) -> None:
        """Open every session once, as a user would next: it puts right a turn a killed
        process left half-stored."""
        self.look_for_half_turns()
        for path in sorted((self.home / "sessions").glob("*.json")):
            done = subprocess.run(
                [ctxchat_executable(), "sessions", "show", path.stem],
                capture_output=True,
                env=self.env,
                timeout=120,
            )
            if done.returncode != 0:
                raise AssertionError(f"sessions show {path.stem}: {done.stderr.decode()}")

    def check(self) -> dict[str, int]:
        history = self.rows(
            "SELECT history_key, turn_id, role, message FROM ctxchat_history "
            "ORDER BY history_key, seq"
        )
        audit = self.rows("SELECT session_key, turn_id, ok, error, record FROM ctxchat_audit")
        turns: dict[tuple[str, str], list[tuple[str, str]]] = {}
        for key, turn_id, role, message in history:
            text = json.loads(message)["parts"][0].get("text", "")
            turns.setdefault((str(key), str(turn_id)), []).append((str(role), text))
        stored_inputs = {}
        for (key, turn_id), messages in turns.items():
            roles = [role for role, _ in messages]
            whole = roles[:2] == ["user", "assistant"] and roles[-1] == "assistant"
            if not whole or set(roles[2:-1]) - {"assistant", "tool"}:
                raise AssertionError(f"turn {turn_id} is not whole: {roles}")
            stored_inputs[messages[0][1]] = (key, turn_id)
        lost = self.tally.saved - stored_inputs.keys()
        if lost:
            raise AssertionError(f"reported saved, not in the history: {sorted(lost)}")
        wrongly = (self.tally.failed | self.tally.unsent) & stored_inputs.keys()
        if wrongly:
            raise AssertionError(f"reported failed or never sent, yet stored: {sorted(wrongly)}")
        for path in (self.home / "sessions").glob("*.json"):
            document = json.loads(path.read_text())
            if "pending_turn" in document:
                raise AssertionError(f"session {document['id']} still marks a turn under way")
            counted = sum(1 for key, _ in turns if key == document["id"])
            if document["turns"] != counted:
                raise AssertionError(
                    f"session {document['id']} counts {document['turns']} turns, "
                    f"its history holds {counted}"
                )
        ok = {(str(k), str(t)) for k, t, good, _, _ in audit if good}
        bad = {(str(k), str(t)) for k, t, good, _, _ in audit if not good}
        if not ok <= turns.keys():
            raise AssertionError(f"audit ok for turns no history kept: {ok - turns.keys()}")
        if bad & turns.keys():
            raise AssertionError(f"audit failed for turns the history kept: {bad & turns.keys()}")
        unaudited_saved = {stored_inputs[t] for t in self.tally.saved} - ok
        if unaudited_saved:
            raise AssertionError(f"reported saved without an audit row: {unaudited_saved}")
        # Killed after the session file counted a turn and before its row: recorded by
        # the next process to open the session (`settle` opens each one).
        unaudited = turns.keys() - ok
        if unaudited:
            raise AssertionError(f"kept turns without an audit row: {sorted(unaudited)}")
        # Killed while memory learnt: recorded before any learner ran, so kept and audited.
        unaudited_learning = {t for t in self.learning_killed if stored_inputs.get(t) not in ok}
        if unaudited_learning:
            raise AssertionError(
                f"killed while learning, not kept and audited: {unaudited_learning}"
            )
        leaked = [row for row in audit if API_KEY in str(row[3]) or API_KEY in str(row[4])]
        if leaked:
            raise AssertionError("the API key reached the audit")
        if self.pg is None:
            for name in ("history.sqlite3", "sessions/index.sqlite3"):
                with sqlite3.connect(self.home / name) as conn:
                    result = conn.execute("PRAGMA integrity_check").fetchall()
                conn.close()
                if result != [("ok",)]:
                    raise AssertionError(f"{name}: integrity_check says {result}")
        kept_unknown = len({t for t in self.tally.unknown if t in stored_inputs})
        recovered = [row for row in audit if '"recovered"' in str(row[4])]
        return {
            "turns kept": len(turns),
            "audited ok": len(ok),
            "audited failed": len(bad),
            "killed turns kept": kept_unknown,
            "killed turns taken back or never stored": len(self.tally.unknown) - kept_unknown,
            "audit rows recorded after a kill, by the next process": len(recovered),
            "killed while learning, kept and audited": len(self.learning_killed),
        }

    def rows(self, sql: str) -> list[Any]:
        if self.pg is None:
            with sqlite3.connect(self.home / "history.sqlite3") as conn:
                rows = conn.execute(sql).fetchall()
            conn.close()
            return rows
        import sqlalchemy as sa

        if self.engine is None:  # one engine, a connection per query: the server restarts
            self.engine = sa.create_engine(self.url, poolclass=sa.pool.NullPool)
        with self.engine.connect() as conn:
            return list(conn.execute(sa.text(sql)))


def run_backend(backend: str, faults: int, seed: int, unshare: bool) -> bool:
    rng = random.Random(f"{seed}-{backend}")
    with FakeOpenAI(api_key=API_KEY) as server:
        run = Run(backend, server, rng)
        server.default = run.reply
        started = time.monotonic()
        try:
            kinds = run.kinds(unshare)
            for _ in range(faults):
                run.one_fault(rng.choice(kinds))
            run.settle()
            counts = run.check()
            counts |= check_secret_leaks(run)  # bench/secret_leaks.py
        except Exception as exc:  # a check that failed, or a process that hung
            what = exc if isinstance(exc, AssertionError) else f"{type(exc).__name__}: {exc}"
            print(f"{backend}: FAILED after {run.step} faults (seed {seed}): {what}")
            print("\n".join(run.log))
            return False
        finally:
            run.close()
    tally = run.tally
    print(f"{backend}: {sum(tally.faults.values())} faults in {time.monotonic() - started:.0f} s")
    for kind, count in sorted(tally.faults.items()):
        print(f"  {kind:24} {count}")
    sent = len(tally.saved | tally.failed | tally.unknown)
    print(
        f"  turns sent {sent}: reported saved {len(tally.saved)}, reported failed "
        f"{len(tally.failed)}, killed under way {len(tally.unknown)}; never sent "
        f"{len(tally.unsent)}"
    )
    print(f"  exit codes {dict(sorted(tally.exits.items()))}")
    print(
        f"  left by a kill: {len(tally.half_stored)} turns stored but not counted (taken back "
        f"by the next process), {len(tally.marked_only)} marked with nothing stored"
    )
    for name, value in counts.items():
        print(f"  {name:56} {value}")
    print("  every check held: every kept turn stored and audited, failed ones not, sessions")
    print("  agree with their history, no audit ok without a stored turn, no key leaked,")
    print("  integrity_check ok" if backend == "sqlite" else "  every stored turn whole")
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--faults", type=int, default=200, help="faults per backend")
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    unshare = can_unshare()
    backends = [b for b in args.backends.split(",") if b]
    if "postgresql" in backends and not available():
        print("postgresql: skipped (no PostgreSQL server installed)")
        backends.remove("postgresql")
    print(f"seed {seed}; read-only mounts {'on' if unshare else 'off (no unshare -m)'}")
    results = [run_backend(b, args.faults, seed, unshare) for b in backends]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
