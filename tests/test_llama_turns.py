"""Turns against a real llama.cpp server (the tiny model): a scripted turn and a REPL turn
stream a reply and store it, the window comes from `/props` and tokens are counted by
`/tokenize`, a conversation longer than the window never sends a request too long for it,
and Ctrl-C mid-reply leaves nothing of the turn. Nothing here depends on the model's words,
which vary from run to run: only that a reply came, what was counted, and that nothing
was refused."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_support import ctxchat, only_session, session_documents, stored_texts
from llamakit import REPLY_TOKENS, WINDOW, chat_env, llama_server_in, server_json
from repl_support import PROMPT, Repls, quit_, seen

from ctxchat.core.tokens import MESSAGE_OVERHEAD, count_text_tokens
from ctxchat.services.llama_server import LlamaServer

pytestmark = pytest.mark.slow

WAIT_SECONDS = 30.0
# A message whose words the model's tokenizer and the 4-characters estimate count apart.
COUNTED = "Antidisestablishmentarianism and floccinaucinihilipilification, briefly?"


def audit(env: dict[str, str], session_id: str) -> list[dict[str, Any]]:
    result = ctxchat("sessions", "export", session_id, "--audit", "--format", "jsonl", env=env)
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def tokenized(server: LlamaServer, text: str) -> int:
    return len(server_json(server, "/tokenize", {"content": text})["tokens"])


# The one warning the tier expects: a reply that reached the cap the tests set.
CAPPED = "the reply was cut short (max_tokens reached"


def no_warning(stderr: str) -> None:
    """Nothing refused or failed on the way: no warning (but a capped reply's), no error."""
    lines = [line for line in stderr.splitlines() if CAPPED not in line]
    assert not [line for line in lines if "warning" in line or "error" in line], stderr
    assert "Traceback" not in stderr


def test_a_scripted_turn_streams_a_reply_and_stores_it(
    llama_env: dict[str, str], ctxchat_home: Path
) -> None:
    result = ctxchat("run", "--json", "Say hello to me.", env=llama_env)
    assert result.returncode == 0, result.stderr
    no_warning(result.stderr)
    (record,) = [json.loads(line) for line in result.stdout.splitlines()]
    assert record["model"] == "smollm2"  # the server's only model, found by ctxchat
    assert record["output"].strip()
    assert record["usage"]["input_tokens"] > 0
    assert 0 < record["usage"]["output_tokens"] <= REPLY_TOKENS
    session = only_session(ctxchat_home)
    assert stored_texts(llama_env, session["id"]) == [
        ("user", "Say hello to me."),
        ("assistant", record["output"]),
    ]


def test_the_window_comes_from_props_and_tokens_from_tokenize(
    llama_env: dict[str, str], ctxchat_home: Path, llama_server: LlamaServer
) -> None:
    result = ctxchat("run", COUNTED, env=llama_env)
    assert result.returncode == 0, result.stderr
    (record,) = audit(llama_env, only_session(ctxchat_home)["id"])
    budget = record["budget"]
    assert (budget["window"], budget["window_source"]) == (WINDOW, "endpoint")
    assert budget["reserve"] == REPLY_TOKENS
    assert budget["exact"] is True
    exact = tokenized(llama_server, COUNTED)
    assert exact != int(count_text_tokens(COUNTED) * 1.2 + 0.999)  # an estimate would differ
    # And what the chat template adds to a message beyond the flat overhead, as measured
    # by rendering two conversations (`/apply-template`): SmolLM2's adds 2.
    (endpoint,) = json.loads(next(ctxchat_home.rglob("endpoints.json")).read_text()).values()
    extra = endpoint["template"]["message"] - MESSAGE_OVERHEAD
    assert extra > 0
    assert budget["by_source"]["input"] == exact + MESSAGE_OVERHEAD + extra
    assert budget["request_tokens"] == sum(budget["by_source"].values())


# Four turns and the summary's folds, each prompt read at some 200 tokens/s on one thread:
# up to a minute on a machine busy with other work, so more room than the suite's default.
@pytest.mark.timeout(300)
def test_a_conversation_longer_than_the_window_never_overflows_it(
    llama_env: dict[str, str], ctxchat_home: Path, llama_server: LlamaServer
) -> None:
    lines = [
        f"Note {n}: " + " ".join(f"the {n}th river crosses valley {k} at dawn," for k in range(26))
        for n in range(4)
    ]
    # The messages alone, without the replies, the system prompt or the tools, overflow it.
    assert sum(tokenized(llama_server, line) for line in lines) > WINDOW
    script = "\n".join(lines) + "\n"
    result = ctxchat("run", "--lines", "--json", stdin=script, env=llama_env, timeout=240)
    assert result.returncode == 0, result.stderr
    no_warning(result.stderr)  # no refused request, no failed summary fold
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["input"] for r in records] == lines
    for record in records:
        assert record["usage"]["output_tokens"] > 0  # a reply came
        assert record["usage"]["input_tokens"] + REPLY_TOKENS <= WINDOW
    trail = audit(llama_env, only_session(ctxchat_home)["id"])
    assert len(trail) == len(lines)
    assert all(r["budget"]["request_tokens"] + REPLY_TOKENS <= WINDOW for r in trail)
    assert any(r["budget"]["trimmed"].get("history") for r in trail)  # it did overflow
    assert len(stored_texts(llama_env, records[0]["session"])) == 2 * len(lines)


@pytest.fixture
def repls(llama_env: dict[str, str]) -> Iterator[Repls]:
    repls = Repls(llama_env)
    yield repls
    repls.close()


def test_a_repl_turn_streams_a_reply_and_stores_it(
    repls: Repls, llama_env: dict[str, str], ctxchat_home: Path
) -> None:
    child = repls()
    child.send("Say hello to me.\r")
    # The status line after the reply: the window is llama.cpp's, 1,024 tokens.
    child.expect(r"tokens \d+ in · \d+ out · context \S+/1.02k")
    child.expect_exact(PROMPT)
    assert quit_(child) == 0
    user, assistant = stored_texts(llama_env, only_session(ctxchat_home)["id"])
    assert user == ("user", "Say hello to me.")
    assert assistant[0] == "assistant"
    assert assistant[1].strip()
    # Shown on the terminal: a plain word of it (Markdown marks around one are rendered).
    words = re.findall(r"[A-Za-z]{3,}", assistant[1])
    assert not words or words[0] in seen(child)


def wait_for_slot(server: LlamaServer, wanted: Callable[[dict[str, Any]], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while not wanted(server_json(server, "/slots")[0]):
        if time.monotonic() > deadline:
            raise AssertionError(f"the server's slot never showed: {what}")
        time.sleep(0.05)


def decoding(slot: dict[str, Any]) -> bool:
    return bool(slot["is_processing"]) and slot["next_token"][0]["n_decoded"] > 0


def test_ctrl_c_mid_reply_leaves_nothing_of_the_turn(ctxchat_home: Path, tmp_path: Path) -> None:
    # Every reply runs to its cap (7,000 tokens: over a minute of generation), so the
    # interrupt surely lands mid-reply, and a server that kept generating for a reader
    # gone would still be at it when the wait below gives up.
    with llama_server_in(tmp_path, ignore_eos=True, context=8192) as server:
        env = chat_env(ctxchat_home, server, reply_tokens=7000)
        repls = Repls(env)
        try:
            child = repls()
            child.send("cancel me\r")
            wait_for_slot(server, decoding, "generating the reply")
            child.sendintr()
            child.expect_exact("nothing of this turn was saved")
            child.expect_exact("cancel me")  # handed back in the prompt
            # The server noticed the reader left and freed its only slot.
            wait_for_slot(server, lambda slot: not slot["is_processing"], "the reply stopped")
            child.sendintr()  # clear the handed-back line, so Ctrl-D leaves
            assert quit_(child) == 0
        finally:
            repls.close()
        for document in session_documents(ctxchat_home):
            assert document.get("turns", 0) == 0, document
            assert stored_texts(env, document["id"]) == []
