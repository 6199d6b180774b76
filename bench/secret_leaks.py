"""After the fault run: secrets told during a conversation, and a fact forgotten in it, are
nowhere but in the user's own messages of that session's history.

`check_secret_leaks(run)` talks to the same home and database as the fault run, through
the real `ctxchat` command, with the default pipeline's memory, summary and audit and a
history window of two turns (so the summary folds what falls out). The model server is
adversarial where it can be: its summariser echoes back everything it is asked to fold.
Then it checks that no secret of `TOLD` (nor the forgotten `FORGOTTEN`, after the forget)
is in the memory store, a summary, a memory export, a log line or file, the audit's
copies of injected blocks, or any later request other than as the user's own message in
that session's history. Raises AssertionError naming the first leak; returns the counts.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from fakeopenai import RecordedRequest, Reply, Text

# Built at run time so no scanner mistakes these for leaked credentials.
TOLD = [
    ("Remember that my login is alice / Tr0ub4dor&3", "Tr0ub4dor&3"),
    ("my bank login is alice:Hunter2Pass", "Hunter2Pass"),
    ("my SSN is 078-05-1120", "078-05-1120"),
    ("Remember this key: " + "AKIA" + "IOSFODNN7EXAMPLE", "AKIA" + "IOSFODNN7EXAMPLE"),
    ("my OpenAI key is " + "sk-" + "proj-A1b2C3d4E5f6G7h8", "sk-" + "proj-A1b2C3d4E5f6G7h8"),
    ("I pay with 4111 1111 1111 1111", "4111 1111 1111 1111"),
    ("Mein Passwort ist Sommer2024!x", "Sommer2024!x"),
    ("mon mot de passe est S0leil!9", "S0leil!9"),
    ("Mi DNI es 12345678Z", "12345678Z"),
]
FORGOTTEN = "Zorblaxcorp"
CONFIG = """
[model]
retries = 0

[storage]
url = "{url}"

[[providers]]
type = "sql_history"
source_id = "history"
max_messages = 4

[[providers]]
type = "summary"

[[providers]]
type = "audit"

[[providers]]
type = "user_memory"
"""
SUMMARISER = "You keep a running summary"


def _reply(request: RecordedRequest) -> Reply:
    system = str(request.messages[0].get("content") or "") if request.messages else ""
    if system.startswith(SUMMARISER):
        return Text(request.last_user_text)  # echoes all it was asked to fold
    return Text("Noted.")


def _ctxchat(run: Any, env: dict[str, str], *args: str, stdin: str = "") -> tuple[str, str]:
    executable = Path(sys.executable).with_name("ctxchat")
    done = subprocess.run(
        [str(executable) if executable.exists() else "ctxchat", *args],
        input=stdin.encode(),
        capture_output=True,
        env=env,
    )
    if done.returncode != 0:
        raise AssertionError(f"ctxchat {' '.join(args)}: {done.stderr.decode()}")
    return done.stdout.decode(), done.stderr.decode()


def _secrets_in(text: str, secrets: list[str]) -> list[str]:
    return [s for s in secrets if s in text]


def _allowed(message: dict[str, Any], inputs: set[str]) -> bool:
    """The user's own message, as they typed it."""
    return message.get("role") == "user" and str(message.get("content")) in inputs


def _check_requests(
    requests: list[RecordedRequest], inputs: list[str], forget_at: int, second: int
) -> int:
    """Every request after each secret was told: the secret only as the user's message
    (for a fold, only in the user's transcript lines). Returns the requests checked."""
    own = set(inputs)
    told_at = {secret: inputs.index(text) for text, secret in TOLD}
    turn = -1
    for number, request in enumerate(requests):
        system = str(request.messages[0].get("content") or "") if request.messages else ""
        folding = system.startswith(SUMMARISER)
        if not folding:
            turn += 1  # one chat request a turn: no tools here
        secrets = [s for s, at in told_at.items() if at < turn or number >= second]
        # A fold is told the forgotten values that must not appear: there they may.
        if (turn > forget_at or number >= second) and not folding:
            secrets.append(FORGOTTEN)
        for message in request.messages:
            content = str(message.get("content") or "")
            if folding and message.get("role") == "user":
                lines = [
                    line
                    for line in content.splitlines()
                    if not (line.startswith("user: ") and line[6:] in own)
                ]
                content = "\n".join(lines)
            elif _allowed(message, own) and number < second:
                continue
            leaked = _secrets_in(content, secrets)
            if leaked:
                raise AssertionError(f"request {number} carries {leaked} in {message['role']}")
    return len(requests)


def check_secret_leaks(run: Any) -> dict[str, int]:
    home: Path = run.home
    config = run.root / "secrets.toml"
    config.write_text(CONFIG.format(url=run.url))
    env = {**run.env, "CTXCHAT_CONFIG": str(config)}
    server = run.server
    previous = server.default
    server.default = _reply
    inputs = [text for text, _ in TOLD]
    inputs += [f"I work at {FORGOTTEN}.", "I live in Leeds.", "What is a good lunch?"]
    forget_at = len(inputs)
    inputs += ["Forget where I work.", "Tell me a joke.", "One more?", "And another?"]
    before = len(server.chat_requests())
    try:
        _, err1 = _ctxchat(
            run,
            env,
            "run",
            "--lines",
            "--title",
            "secrets",
            stdin="".join(f"{i}\n" for i in inputs),
        )
        second = len(server.chat_requests()) - before
        _, err2 = _ctxchat(run, env, "run", "--title", "secrets-2", "What do you know of me?")
        exports = [_ctxchat(run, env, "memory", "export", "--format", f)[0] for f in ("json", "md")]
        listed, err3 = _ctxchat(run, env, "memory", "list", "--json")
    finally:
        server.default = previous
    everything = [s for _, s in TOLD]
    forgotten_too = [*everything, FORGOTTEN]
    requests = server.chat_requests()[before:]
    checked = _check_requests(requests, inputs, forget_at, second)

    def clean(where: str, text: str, secrets: list[str] = forgotten_too) -> None:
        leaked = _secrets_in(text, secrets)
        if leaked:
            raise AssertionError(f"{leaked} reached {where}")

    for table in ("ctxchat_memory", "ctxchat_memory_forgotten", "ctxchat_memory_forgotten_from"):
        clean(f"the memory store ({table})", str(run.rows(f"SELECT * FROM {table}")))
    if "Leeds" not in exports[0] or "Leeds" not in listed:
        raise AssertionError("the memory learnt nothing: the check would prove nothing")
    for export in (*exports, listed):
        clean("a memory export", export)
    # The chat's own stderr says "remembered: ..." and "forgot: ..." to the user, as it
    # happens: no secret there; the forgotten value only in those lines of that run.
    clean("a log line (stderr)", err1, everything)
    for err in (err2, err3):
        clean("a log line (stderr)", err)
    files = [p for p in home.rglob("*") if p.is_file() and not p.name.startswith("history.sqlite3")]
    summaries = 0
    for path in files:
        text = path.read_text(errors="replace")
        clean(f"a file ({path.relative_to(home)})", text)
        if path.suffix == ".json" and '"summary"' in text:
            summaries += text.count('"summary": "') + text.count('"summary":"')
    audit = run.rows("SELECT record FROM ctxchat_audit")
    for (record,) in audit:
        data = json.loads(record)
        clean("the audit's copies of injected blocks", json.dumps(data["instructions"]))
        for messages in data["context"].values():
            injected = [
                m for m in messages if (m.get("attribution") or {}).get("kind") != "history"
            ]
            clean("the audit's injected messages", json.dumps(injected))
    if not summaries:
        raise AssertionError("no summary was written: the check would prove nothing")
    return {"secret-leak requests checked": checked, "secret-leak audit rows checked": len(audit)}
