"""`ctxchat run` in scripting mode: real subprocesses against the local OpenAI-protocol server."""

from __future__ import annotations

import json
import signal
import threading
from pathlib import Path

import pytest
from cli_support import (
    assert_clean_error,
    coprocess,
    ctxchat,
    only_session,
    session_documents,
    stored_texts,
    write_config,
)
from fakeopenai import Error, FakeOpenAI, Text, ToolCalls


def test_each_line_is_a_turn_in_one_session(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    result = ctxchat("run", "--lines", env=cli_env, stdin="first line\n\n   \nsecond line\n")

    assert result.returncode == 0, result.stderr
    assert result.stdout == "echo: first line\necho: second line\n"
    assert result.stderr == ""
    requests = fake_openai.chat_requests()
    assert [r.last_user_text for r in requests] == ["first line", "second line"]
    # The second turn was shown the first: same session, history loaded.
    shown = [m.get("content") for m in requests[1].messages]
    assert "first line" in shown
    assert "echo: first line" in shown
    document = only_session(ctxchat_home)
    assert document["turns"] == 2
    assert stored_texts(cli_env, document["id"]) == [
        ("user", "first line"),
        ("assistant", "echo: first line"),
        ("user", "second line"),
        ("assistant", "echo: second line"),
    ]


def test_prompt_argument_plus_stdin_is_one_turn(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    result = ctxchat("run", "summarise this", env=cli_env, stdin="line a\nline b\n")

    assert result.returncode == 0, result.stderr
    (request,) = fake_openai.chat_requests()
    assert request.last_user_text == "summarise this\n\nline a\nline b"
    assert result.stdout == "echo: summarise this\n\nline a\nline b\n"


def test_prompt_argument_with_nothing_piped_sends_the_prompt(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    result = ctxchat("run", "just this", env=cli_env, stdin=None)

    assert result.returncode == 0, result.stderr
    assert [r.last_user_text for r in fake_openai.chat_requests()] == ["just this"]


def test_turns_separator_makes_blocks_turns(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    text = "block one\nstill one\n---\n\nblock two\n---\n---\n"
    result = ctxchat("run", "--turns-separator", "---", env=cli_env, stdin=text)

    assert result.returncode == 0, result.stderr
    sent = [r.last_user_text for r in fake_openai.chat_requests()]
    assert sent == ["block one\nstill one", "block two"]


def test_json_lines_one_object_per_turn_with_tools(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    fake_openai.enqueue(
        Text("plain answer", usage=(11, 3)),
        ToolCalls([("lookup", {"q": "x"})]),
        Text("after the tool", usage=(20, 4)),
    )
    result = ctxchat("run", "--lines", "--json", env=cli_env, stdin="one\ntwo\n")

    assert result.returncode == 0, result.stderr
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first["input"] == "one"
    assert first["output"] == "plain answer"
    assert first["usage"] == {"input_tokens": 11, "output_tokens": 3}
    assert first["tools"] == []
    assert second["session"] == first["session"]
    assert second["output"] == "after the tool"
    (tool,) = second["tools"]
    # No provider offers `lookup`: the engine answers the model with an error result.
    assert tool["name"] == "lookup"
    assert json.loads(tool["arguments"]) == {"q": "x"}
    assert tool["is_error"] is True


def test_failed_turn_stops_the_script_and_keeps_earlier_turns(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    fake_openai.enqueue(Text("first reply"), Error(400, "this request is bad"))
    result = ctxchat("run", "--lines", env=cli_env, stdin="one\ntwo\nthree\n")

    assert_clean_error(result, 1, "HTTP 400", "this request is bad")
    assert result.stdout == "first reply\n"
    assert len(fake_openai.chat_requests()) == 2  # "three" was never sent
    document = only_session(ctxchat_home)
    assert document["turns"] == 1
    assert stored_texts(cli_env, document["id"]) == [("user", "one"), ("assistant", "first reply")]


def test_unreachable_model_is_exit_1(cli_env: dict[str, str], ctxchat_home: Path) -> None:
    env = {**cli_env, "OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}
    write_config(ctxchat_home, "[model]\nretries = 0\n")
    result = ctxchat("run", env=env, stdin="hello\n")

    assert_clean_error(result, 1, "cannot reach")
    # Nothing of the turn is stored, and no session made: one exists once a turn is. The
    # default pipeline's audit kept its record of the failure, an orphan of this home.
    assert session_documents(ctxchat_home) == []
    orphans = ctxchat("sessions", "prune", "--orphans", "--dry-run", env=cli_env)
    assert "audit: 1 record" in orphans.stdout


def test_no_endpoint_configured_is_a_config_error(
    cli_env: dict[str, str], ctxchat_home: Path
) -> None:
    env = {k: v for k, v in cli_env.items() if k not in ("OPENAI_BASE_URL", "OPENAI_API_KEY")}
    env["CTXCHAT_LOCAL"] = "0"  # no local model either (test_llama_local runs that one)
    result = ctxchat("run", env=env, stdin="hello\n")

    assert_clean_error(result, 2, "no model endpoint configured")


def test_continue_and_session_resume_across_processes(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    first = ctxchat("run", "--title", "my topic", env=cli_env, stdin="remember 42\n")
    assert first.returncode == 0, first.stderr
    session_id = only_session(ctxchat_home)["id"]

    by_continue = ctxchat("run", "-c", env=cli_env, stdin="what number?\n")
    by_prefix = ctxchat("run", "--session", session_id[:20], env=cli_env, stdin="again\n")
    by_title = ctxchat("run", "--session", "my topic", "--json", env=cli_env, stdin="last\n")

    for result in (by_continue, by_prefix, by_title):
        assert result.returncode == 0, result.stderr
    assert json.loads(by_title.stdout)["session"] == session_id
    requests = fake_openai.chat_requests()
    shown_last = [m.get("content") for m in requests[-1].messages]
    for earlier in ("remember 42", "what number?", "again"):
        assert earlier in shown_last
    document = only_session(ctxchat_home)
    assert document["turns"] == 4
    assert document["title"] == "my topic"


def test_a_resumed_session_keeps_its_model_unless_one_is_chosen(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    fake_openai.models = ["alpha", "beta"]
    env = {k: v for k, v in cli_env.items() if k != "CTXCHAT_MODEL"}
    assert ctxchat("run", "--model", "alpha", env=env, stdin="one\n").returncode == 0
    assert ctxchat("run", "-c", env=env, stdin="two\n").returncode == 0
    assert ctxchat("run", "-c", "--model", "beta", env=env, stdin="three\n").returncode == 0
    # A new session with no model named: the endpoint serves two, so the user chooses...
    assert ctxchat("run", env=env, stdin="new session\n").returncode == 2
    # ...and once it serves one, that one is taken.
    fake_openai.models = ["gamma"]
    assert ctxchat("run", env=env, stdin="new session\n").returncode == 0
    models = [r.model for r in fake_openai.chat_requests()]
    assert models == ["alpha", "alpha", "beta", "gamma"]


def test_session_and_continue_together_is_a_usage_error(cli_env: dict[str, str]) -> None:
    result = ctxchat("run", "-c", "--session", "x", env=cli_env, stdin="hi\n")
    assert_clean_error(result, 2, "--session", "--continue")


def test_sigint_mid_reply_exits_130_and_keeps_completed_turns(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    fake_openai.enqueue(Text("done"), Text("slow " * 40, chunk_size=5, hold=threading.Event()))
    with coprocess("run", "--lines", env=cli_env) as child:
        child.stdin.write(b"first\nsecond\nthird\n")
        child.stdin.close()
        assert fake_openai.wait_for_requests(2, timeout=20)
        assert child.stdout.read(len("done\nslow")) == b"done\nslow"  # the reply is streaming
        child.process.send_signal(signal.SIGINT)
        code = child.process.wait(timeout=20)
        stderr = child.stderr.read().decode()

    assert code == 130, stderr
    assert "Traceback" not in stderr
    assert len(stderr.splitlines()) == 1
    assert "interrupted" in stderr
    assert len(fake_openai.chat_requests()) == 2  # "third" never went out
    document = only_session(ctxchat_home)
    assert document["turns"] == 1
    assert stored_texts(cli_env, document["id"]) == [("user", "first"), ("assistant", "done")]


def test_stdout_is_only_reply_text_even_on_a_slow_stream(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    fake_openai.enqueue(Text("# Heading\n\n**bold** and `code`", chunk_size=3, delay=0.01))
    result = ctxchat("run", env=cli_env, stdin="markdown please\n")

    assert result.returncode == 0, result.stderr
    assert result.stdout == "# Heading\n\n**bold** and `code`\n"  # not rendered, not decorated


@pytest.mark.timeout(60)
def test_each_line_is_answered_as_it_arrives(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    # A co-process: it writes the next line only after reading the reply to the last one.
    with coprocess("run", "--lines", env=cli_env) as child:
        child.stdin.write(b"ping one\n")
        child.stdin.flush()
        assert child.stdout.readline() == b"echo: ping one\n"
        child.stdin.write(b"ping two\n")
        child.stdin.flush()
        assert child.stdout.readline() == b"echo: ping two\n"
        # Blocked reading stdin now: Ctrl-C ends it at once, with what was done kept.
        child.process.send_signal(signal.SIGINT)
        assert child.process.wait(timeout=20) == 130
    assert only_session(ctxchat_home)["turns"] == 2


def test_model_endpoint_and_system_prompt_flags(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    env = {**cli_env, "OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}  # overridden by the flag
    result = ctxchat(
        "run",
        "--model",
        "flag-model",
        "--base-url",
        fake_openai.base_url,
        "--system",
        "Answer like a pirate.",
        env=env,
        stdin="hello\n",
    )
    assert result.returncode == 0, result.stderr
    (request,) = fake_openai.chat_requests()
    assert request.model == "flag-model"
    assert request.messages[0]["role"] == "system"
    assert request.messages[0]["content"].startswith("Answer like a pirate.")


def test_sigint_while_memory_learns_exits_130_saying_the_turn_was_kept(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    """Issue 21, item 3: the llm extractor's call is held; Ctrl-C then ends the script, the
    turn stays kept and audited, and the exit says so."""
    write_config(
        ctxchat_home,
        '[[providers]]\ntype = "sql_history"\nsource_id = "history"\n'
        '[[providers]]\ntype = "audit"\nsource_id = "audit"\n'
        '[[providers]]\ntype = "user_memory"\nsource_id = "memory"\nextractor = "llm"\n',
    )
    held = threading.Event()
    fake_openai.enqueue(Text("noted"), Text('{"operations": []}', hold=held))
    try:
        with coprocess("run", "--lines", env=cli_env) as child:
            child.stdin.write(b"I live in Lisbon.\nsecond\n")
            child.stdin.close()
            assert child.stdout.read(len("noted")) == b"noted"
            assert fake_openai.wait_for_requests(2, timeout=20)  # the extractor's call
            child.process.send_signal(signal.SIGINT)
            code = child.process.wait(timeout=20)
            stderr = child.stderr.read().decode()
    finally:
        held.set()
    assert code == 130, stderr
    assert "Traceback" not in stderr
    assert stderr.splitlines() == [
        "ctxchat: error: interrupted while providers learnt from the turn: the turn was kept"
    ]
    document = only_session(ctxchat_home)
    assert document["turns"] == 1
    assert len(fake_openai.chat_requests()) == 2  # "second" never went out
    shown = ctxchat("sessions", "show", document["id"], "--audit", env=cli_env)
    assert "turn 1" in shown.stdout
    assert "FAILED" not in shown.stdout
    assert "I live in Lisbon." in shown.stdout
