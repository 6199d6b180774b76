"""Unbounded sizes: a huge reply is shown whole but kept cut (with a note, and a warning to
the user), and the history window counts tokens by default, so what is kept is not sent
again with every later turn."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from cli_support import ctxchat, only_session, stored_texts, write_config
from fakeopenai import FakeOpenAI, Text

from ctxchat.core.messages import Message
from ctxchat.core.reply_limit import cap_reply
from ctxchat.core.tokens import count_text_tokens
from ctxchat.core.window import DEFAULT_WINDOW_TOKENS

AUDITED = """
[agent]
max_reply_bytes = 1000

[[providers]]
type = "sql_history"
source_id = "history"

[[providers]]
type = "audit"
"""


def test_a_cut_never_splits_a_character_and_says_so() -> None:
    message = Message.assistant("é" * 1000)  # two bytes each
    kept, size = cap_reply(message, 1001)
    assert size == 2000
    assert kept.text.startswith("é" * 500 + "\n\n[ctxchat: this reply was 2,000 bytes;")
    assert "only the first 1,001 were kept ([agent] max_reply_bytes)]" in kept.text
    assert cap_reply(message, 2000) == (message, 2000)  # a reply that fits is kept as it is


def test_a_long_reply_is_shown_whole_and_kept_cut(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    write_config(ctxchat_home, AUDITED)
    reply = "".join(f"line {i:05d}\n" for i in range(500))  # 5,500 bytes
    fake_openai.enqueue(Text(reply, chunk_size=400), Text("and then"))

    first = ctxchat("run", "--title", "t", "tell me everything", env=cli_env)
    assert first.returncode == 0, first.stderr
    assert first.stdout == reply  # shown whole...
    assert first.stderr == (
        "ctxchat: warning: the reply was 5,500 bytes: only its first 1,000 were saved "
        "(raise [agent] max_reply_bytes to keep more)\n"
    )
    second = ctxchat("run", "--session", "t", "and then?", env=cli_env)
    assert second.returncode == 0, second.stderr

    session_id = str(only_session(ctxchat_home)["id"])
    kept = stored_texts(cli_env, session_id)[1][1]  # ...kept cut, with a note
    assert kept.startswith(reply[:1000])
    assert kept.endswith("only the first 1,000 were kept ([agent] max_reply_bytes)]")
    resent = [m.get("content") for m in fake_openai.chat_requests()[1].messages]
    assert kept in resent  # the next turn sends the kept text, not the whole reply
    assert reply not in resent
    with sqlite3.connect(ctxchat_home / "history.sqlite3") as conn:
        (record,) = conn.execute("SELECT record FROM ctxchat_audit ORDER BY seq LIMIT 1")
    conn.close()
    assert json.loads(record[0])["response"][0]["parts"][0]["text"] == kept


def test_the_default_window_stops_resending_what_does_not_fit(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    # Three replies of the default cap's size: together far over the default window.
    replies = [f"reply {n}: " + " ".join(f"word{i}" for i in range(30_000)) for n in range(3)]
    fake_openai.enqueue(*(Text(r, chunk_size=50_000) for r in replies), Text("done"))
    stdin = "".join(f"question {n}\n" for n in range(4))
    # The history's own window alone: a model window that takes it all, and no summary.
    write_config(
        ctxchat_home,
        '[model]\ncontext_window = 1000000\n\n[[providers]]\ntype = "sql_history"\n',
    )

    result = ctxchat("run", "--lines", env=cli_env, stdin=stdin)

    assert result.returncode == 0, result.stderr
    last = fake_openai.chat_requests()[-1].messages
    history = [str(m.get("content") or "") for m in last[1:-1]]
    assert sum(count_text_tokens(text) for text in history) <= DEFAULT_WINDOW_TOKENS
    assert not any(text.startswith("reply 0:") for text in history)  # the oldest went first
    assert any(text.startswith("reply 2:") for text in history)
