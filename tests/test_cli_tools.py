"""Tools end to end: real `ctxchat` processes, the local test server as the model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import ctxchat, write_config
from fakeopenai import Error, FakeOpenAI, RecordedRequest, Reply, Text, ToolCalls, echo_reply
from toolkit import tool_module, write_jsonl

NOTES_TOOL = """
[[providers]]
type = "tools"
python = ["testtools:append_note"]
"""


def tool_message(request: RecordedRequest) -> dict[str, str]:
    message = request.messages[-1]
    assert message["role"] == "tool", message
    return message


def test_the_models_tool_call_runs_and_its_result_reaches_the_next_request(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    fake_openai.enqueue(ToolCalls([("calculate", {"expression": "6 * 7"})]), Text("It is 42."))
    done = ctxchat("run", "--json", "what is six times seven?", env=cli_env)

    assert done.returncode == 0, done.stderr
    first, second = fake_openai.chat_requests()
    # The default pipeline offers the safe built-ins.
    assert first.tool_names == ["current_time", "convert_time", "calculate", "search_sessions"]
    assert tool_message(second)["content"] == "42"
    record = json.loads(done.stdout)
    assert record["output"] == "It is 42."
    assert record["tools"] == [
        {
            "name": "calculate",
            "arguments": '{"expression": "6 * 7"}',
            "result": "42",
            "is_error": False,
        }
    ]


def test_a_script_refuses_a_tool_with_side_effects_and_says_which_flag_allows_it(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path, tmp_path: Path
) -> None:
    env, out = tool_module(tmp_path, cli_env)
    write_config(ctxchat_home, NOTES_TOOL)
    fake_openai.enqueue(ToolCalls([("append_note", {"text": "buy milk"})]), Text("I could not."))
    done = ctxchat("run", "note: buy milk", env=env)

    assert done.returncode == 0, done.stderr
    assert done.stdout == "I could not.\n"
    assert not (out / "notes.txt").exists()
    refusal = tool_message(fake_openai.chat_requests()[1])["content"]
    assert refusal.startswith("refused: the user did not allow 'append_note' to run")
    (line,) = done.stderr.splitlines()
    assert line == (
        "ctxchat: warning: tool 'append_note' has side effects and was refused: pass "
        "--allow-tools append_note (or --yes-tools) to let it run"
    )


@pytest.mark.parametrize(
    ("flags", "runs"),
    [
        (["--allow-tools", "append_note"], True),
        (["--allow-tools", "calculate, append_note"], True),
        (["--yes-tools"], True),
        (["--allow-tools", "calculate"], False),
    ],
)
def test_allow_tools_and_yes_tools_let_it_run_in_a_script(
    cli_env: dict[str, str],
    fake_openai: FakeOpenAI,
    ctxchat_home: Path,
    tmp_path: Path,
    flags: list[str],
    runs: bool,
) -> None:
    env, out = tool_module(tmp_path, cli_env)
    write_config(ctxchat_home, NOTES_TOOL)
    fake_openai.enqueue(ToolCalls([("append_note", {"text": "buy milk"})]), Text("Done."))
    done = ctxchat("run", *flags, "note: buy milk", env=env)

    assert done.returncode == 0, done.stderr
    assert (out / "notes.txt").exists() is runs
    result = tool_message(fake_openai.chat_requests()[1])["content"]
    assert (result == "noted") is runs
    assert ("was refused" in done.stderr) is not runs


def test_allow_tools_takes_only_tool_names(cli_env: dict[str, str]) -> None:
    done = ctxchat("run", "--allow-tools", "calc.ulate", "hi", env=cli_env)
    assert done.returncode == 2
    assert "--allow-tools: 'calc.ulate' is not a tool name" in done.stderr


def test_a_timed_out_tool_holds_up_neither_the_next_turn_nor_the_exit(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path, tmp_path: Path
) -> None:
    """Issue 9, item 9: a sync tool sleeping 100 s with a 2 s timeout."""
    env, out = tool_module(tmp_path, cli_env)
    write_config(
        ctxchat_home,
        '[[providers]]\ntype = "tools"\n'
        'python = [{ref = "testtools:nap", side_effects = false, timeout = 2}]\n',
    )
    fake_openai.enqueue(ToolCalls([("nap", {})]), Text("gave up"), Text("second turn"))
    done = ctxchat("run", "--lines", env=env, stdin="one\ntwo\n")

    assert done.returncode == 0, done.stderr
    assert done.stdout == "gave up\nsecond turn\n"
    requests = fake_openai.chat_requests()
    assert tool_message(requests[1])["content"] == "tool 'nap' timed out after 2s"
    assert requests[2].last_user_text == "two"  # the next turn went ahead
    # The process has exited, and the tool it started is still asleep: nothing waited.
    assert (out / "nap-started").exists()
    assert not (out / "nap-finished").exists()


def test_tools_list_json_is_the_catalogue(cli_env: dict[str, str], tmp_path: Path) -> None:
    done = ctxchat("tools", "list", "--json", env=cli_env)
    assert done.returncode == 0, done.stderr
    entries = json.loads(done.stdout)
    assert [e["name"] for e in entries] == [
        "current_time",
        "convert_time",
        "calculate",
        "search_sessions",
    ]
    assert entries[2] == {
        "name": "calculate",
        "source": "builtin",
        "description": entries[2]["description"],
        "side_effects": False,
    }
    assert entries[2]["description"].startswith("Evaluate an arithmetic expression")
    table = ctxchat("tools", "list", env=cli_env)
    assert table.stdout.splitlines()[0].split() == [
        "NAME",
        "SOURCE",
        "SIDE",
        "EFFECTS",
        "DESCRIPTION",
    ]


def test_tools_list_shows_side_effects_of_python_tools(
    cli_env: dict[str, str], ctxchat_home: Path, tmp_path: Path
) -> None:
    env, _ = tool_module(tmp_path, cli_env)
    write_config(ctxchat_home, NOTES_TOOL)
    entries = json.loads(ctxchat("tools", "list", "--json", env=env).stdout)
    assert entries[-1] == {
        "name": "append_note",
        "source": "python:testtools:append_note",
        "description": "Append a line to the user's notes file.",
        "side_effects": True,
    }


def ollama(request: RecordedRequest) -> Reply:
    """Ollama with a model that cannot take tools."""
    if request.tools:
        return Error(400, "registry.ollama.ai/library/gemma:2b does not support tools")
    return echo_reply(request)


def test_a_model_that_refuses_tools_is_asked_again_without_them_and_remembered(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    fake_openai.default = ollama
    done = ctxchat("run", "hello", env=cli_env)

    assert done.returncode == 0, done.stderr
    assert done.stdout == "echo: hello\n"
    with_tools, without = fake_openai.chat_requests()
    assert with_tools.tool_names
    assert not without.tools
    (line,) = done.stderr.splitlines()
    assert line.startswith("ctxchat: note: tools are off for fake-model at http://127.0.0.1")
    assert "does not support them" in line

    # Remembered for this endpoint and model: no second failed request, in a new process.
    again = ctxchat("run", "--lines", env=cli_env, stdin="one\ntwo\n")
    assert again.returncode == 0, again.stderr
    assert again.stdout == "echo: one\necho: two\n"
    later = fake_openai.chat_requests()[2:]
    assert [r.tools for r in later] == [[], []]
    assert len(again.stderr.splitlines()) == 1  # said once per process

    # Another model at the same endpoint is still offered tools.
    fake_openai.default = echo_reply
    other = ctxchat("run", "--model", "other-model", "hi", env=cli_env)
    assert other.returncode == 0, other.stderr
    assert fake_openai.chat_requests()[-1].tool_names


def test_another_400_is_still_an_error(cli_env: dict[str, str], fake_openai: FakeOpenAI) -> None:
    fake_openai.enqueue(Error(400, "messages: too long"))
    done = ctxchat("run", "hello", env=cli_env)
    assert done.returncode == 1
    assert "messages: too long" in done.stderr
    assert len(fake_openai.chat_requests()) == 1


def test_tools_eval_prints_recall_all_gold_and_mrr(cli_env: dict[str, str], tmp_path: Path) -> None:
    tools = write_jsonl(
        tmp_path / "tools.jsonl",
        [
            {"name": "get_weather", "description": "Weather forecast for a city"},
            {"name": "book_flight", "description": "Book a flight between two airports"},
            {"name": "cancel_booking", "description": "Cancel a flight booking"},
            {"name": "convert_currency", "description": "Convert an amount between currencies"},
        ],
    )
    cases = write_jsonl(
        tmp_path / "cases.jsonl",
        [
            {
                "id": "a",
                "messages": [{"role": "user", "content": "weather in Oslo?"}],
                "gold": ["get_weather"],
            },
            {
                "id": "b",
                "messages": [{"role": "user", "content": "convert 20 euros to yen"}],
                "gold": ["convert_currency"],
            },
        ],
    )
    args = ["tools", "eval", "--tools", str(tools), "--cases", str(cases)]
    result = ctxchat(*args, "--k", "1,3", "--ranker", "lexical", "--json", env=cli_env)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report == {
        "cases": 2,
        "recall": {"1": 1.0, "3": 1.0},
        "all_gold": {"1": 1.0, "3": 1.0},
        "mrr": 1.0,
    }
    assert result.stderr == ""  # no progress bar on a pipe
    text = ctxchat(*args, "--ranker", "lexical", env=cli_env)
    assert text.returncode == 0, text.stderr
    assert "recall@5" in text.stdout


def test_tools_eval_names_a_bad_cases_file(cli_env: dict[str, str], tmp_path: Path) -> None:
    tools = write_jsonl(tmp_path / "tools.jsonl", [{"name": "t", "description": "a tool"}])
    cases = tmp_path / "cases.jsonl"
    cases.write_text("{not json\n", encoding="utf-8")
    result = ctxchat("tools", "eval", "--tools", str(tools), "--cases", str(cases), env=cli_env)
    assert result.returncode == 2
    assert "cases.jsonl:1" in result.stderr
    assert "Traceback" not in result.stderr
