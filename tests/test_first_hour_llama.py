"""The first-hour items about how ctxchat talks to llama.cpp's real server (the tiny
model, a 1,024-token window): a reply bounded where the server bounds none, and tools its
chat template cannot take neither sent nor paid for. Nothing depends on the model's words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import ctxchat
from llamakit import WINDOW, server_json

from ctxchat.services.llama_server import LlamaServer

pytestmark = pytest.mark.slow

REPLY_ROOM = WINDOW // 8  # what the budget keeps for a reply: an eighth of the window


def test_with_max_tokens_unset_a_reply_stops_at_the_room_kept_for_it(
    llama_env: dict[str, str], ctxchat_home: Path, llama_server: LlamaServer
) -> None:
    props = server_json(llama_server, "/props")
    assert props["default_generation_settings"]["params"]["n_predict"] == -1  # no cap
    (ctxchat_home / "config.toml").write_text("", "utf-8")  # max_tokens unset
    story = "Tell me a very long story about a lighthouse keeper, with many chapters."
    done = ctxchat("run", "--json", "--no-memory", story, env=llama_env, timeout=300)
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    told = len(server_json(llama_server, "/tokenize", {"content": record["output"]})["tokens"])
    assert told <= REPLY_ROOM + 2  # a token or two of the end of turn, at most
    if record["finish_reason"] == "length":
        assert f"the {REPLY_ROOM} tokens kept for a reply" in done.stderr
        assert "go on" in done.stderr


def test_tools_the_chat_template_cannot_take_are_not_sent_nor_counted_and_said_once(
    llama_env: dict[str, str], ctxchat_home: Path, llama_server: LlamaServer
) -> None:
    assert server_json(llama_server, "/props")["chat_template_caps"]["supports_tools"] is False
    questions = "What time is it in Tokyo?\nAnd what is 17 times 23?\n"
    done = ctxchat("run", "--lines", "--json", "--no-memory", stdin=questions, env=llama_env)
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("tools are off for smollm2") == 1, done.stderr  # one dim line
    session = json.loads(done.stdout.splitlines()[0])["session"]
    exported = ctxchat("sessions", "export", session, "--audit", "-f", "jsonl", env=llama_env)
    trail = [json.loads(line) for line in exported.stdout.splitlines()]
    assert len(trail) == 2
    for record in trail:
        assert record["tools"] == {}  # none offered
        spent = record["budget"]["by_source"]
        assert sum(spent.values()) == record["budget"]["request_tokens"], spent  # on nothing else
        assert set(spent) <= {"system", "history", "input"}, spent
