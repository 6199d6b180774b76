"""/copy in a real pseudo-terminal: what reaches the terminal is an OSC 52 sequence
carrying the text, which works over SSH and in tmux."""

from __future__ import annotations

import base64
from collections.abc import Iterator

import pytest
from fakeopenai import FakeOpenAI, Text
from repl_support import PROMPT, Repls, quit_, seen, turn

from ctxchat.cli.clipboard import osc52

REPLY = "Two ways:\n\n```python\nprint('one')\n```\n\nor\n\n~~~sh\necho two\n~~~\n"


@pytest.fixture
def repl(cli_env: dict[str, str]) -> Iterator[Repls]:
    repls = Repls(cli_env)
    yield repls
    repls.close()


def osc(text: str) -> str:
    return "\x1b]52;c;" + base64.b64encode(text.encode()).decode() + "\x07"


def test_copy_sends_the_reply_or_a_code_block_as_osc52(
    repl: Repls, fake_openai: FakeOpenAI
) -> None:
    fake_openai.enqueue(Text(REPLY))
    # No local clipboard tool: only the terminal is asked (as over SSH).
    child = repl(extra_env={"SSH_CONNECTION": "10.0.0.1 22 10.0.0.2 22", "TMUX": ""})
    turn(child, "how do I print?")

    child.send("/copy 2\r")
    child.expect_exact("copied code block 2 (1 line, 8 characters) via OSC 52")
    child.expect_exact(PROMPT)
    child.send("/copy\r")
    child.expect_exact("copy which?")
    child.send("\r")  # the picker starts on the whole reply
    child.expect_exact("copied the last reply")
    child.expect_exact(PROMPT)
    child.send("/copy 9\r")
    child.expect_exact("/copy N copies block N (1 to 2)")

    output = seen(child)
    assert osc("echo two") in output
    assert osc(REPLY) in output
    assert quit_(child) == 0


def test_copy_with_several_code_blocks_opens_a_numbered_picker(
    repl: Repls, fake_openai: FakeOpenAI
) -> None:
    fake_openai.enqueue(Text(REPLY))
    child = repl(extra_env={"SSH_CONNECTION": "10.0.0.1 22 10.0.0.2 22", "TMUX": ""})
    turn(child, "how do I print?")

    child.send("/copy\r")
    child.expect_exact("copy which?")
    child.expect(r"1\. code block 1 \(1 line\): print\('one'\)")
    child.expect(r"2\. code block 2 \(1 line\): echo two")
    child.expect(r"3\. the last reply \(12 lines\)")
    child.send("\x1b[A")  # Up, from the whole reply to block 2
    child.send("\r")
    child.expect_exact("copied code block 2 (1 line, 8 characters) via OSC 52")
    child.expect_exact(PROMPT)

    child.send("/copy\r")
    child.expect_exact("copy which?")
    child.send("1")  # a block's number picks it
    child.send("\r")
    child.expect_exact("copied code block 1 (1 line, 12 characters) via OSC 52")
    child.expect_exact(PROMPT)

    child.send("/copy\r")
    child.expect_exact("copy which?")
    child.send("\x1b")  # Esc: nothing is copied
    child.expect_exact("nothing copied")
    child.expect_exact(PROMPT)

    output = seen(child)
    assert osc("echo two") in output
    assert osc("print('one')") in output
    assert osc(REPLY) not in output
    assert quit_(child) == 0


def test_inside_tmux_the_sequence_passes_through() -> None:
    wrapped = osc52("hi", tmux=True)
    assert wrapped == "\x1bPtmux;\x1b\x1b]52;c;aGk=\x07\x1b\\"
