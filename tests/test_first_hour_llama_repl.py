"""The first-hour items about the chat against llama.cpp's real server, in a real
pseudo-terminal: the status line after a reply and `/context` speak of one request
(issue 23, item 3: they said 107 and about 660 tokens while tools the server dropped
were counted)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from repl_support import ANSI, PROMPT, Repls, quit_, seen

from ctxchat.services.llama_server import LlamaServer

pytestmark = pytest.mark.slow

STATUS = re.compile(r"tokens (~?)([\d,]+) in · ~?[\d,]+ out · context ~?\S+/1\.02k")
CONTEXT = re.compile(r"context of the last turn: ~([\d,]+) tokens")


@pytest.fixture
def repls(llama_env: dict[str, str]) -> Iterator[Repls]:
    repls = Repls(llama_env)
    yield repls
    repls.close()


def figure(pattern: re.Pattern[str], text: str, group: int = 1) -> int:
    found = pattern.findall(text)
    assert found, text
    last = found[-1]
    return int((last[group] if isinstance(last, tuple) else last).replace(",", ""))


def test_the_status_line_and_context_count_the_same_request(
    repls: Repls, llama_server: LlamaServer
) -> None:
    child = repls("--no-memory")
    child.send("What time is it in Tokyo?\r")  # the default pipeline offers tools
    child.expect(STATUS)
    child.expect_exact(PROMPT)
    status = ANSI.sub("", seen(child))
    [(estimated, _)] = STATUS.findall(status)
    assert estimated == ""  # the server's own count of what it was sent
    sent = figure(STATUS, status)
    child.send("/context\r")
    child.expect(CONTEXT)
    child.expect_exact(PROMPT)
    counted = figure(CONTEXT, ANSI.sub("", seen(child)))
    # The server counts its chat template's few tokens around each message; /context
    # counts the same messages with the server's tokenizer. Nothing else may differ.
    assert abs(sent - counted) <= max(16, sent // 10), (sent, counted)
    assert quit_(child) == 0
