"""What a new user meets in the first hour against a local model server (the first-hour
issue): each behaviour through the real `ctxchat` command and the local test server."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
from cli_support import assert_clean_error, ctxchat, write_config
from fakeopenai import FakeOpenAI

from ctxchat.core.errors import ModelNotConfigured
from ctxchat.core.messages import Message, Usage
from ctxchat.core.settings import ModelSettings
from ctxchat.services.model_client import OpenAIChatModel

EXAMPLE = Path(__file__).resolve().parent.parent / "config.example.toml"
DOWN = "http://127.0.0.1:9/v1"  # the discard port: nothing listens there

AUDITED = """
[[providers]]
type = "sql_history"

[[providers]]
type = "audit"
"""


def test_usage_the_endpoint_did_not_report_is_unknown_not_zero(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    write_config(ctxchat_home, AUDITED)
    fake_openai.report_usage = False  # llama.cpp's server sends none in streams
    done = ctxchat("run", "--json", "hello", env=cli_env)
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["usage"] == {"input_tokens": None, "output_tokens": None}
    shown = ctxchat("sessions", "show", record["session"], "--audit", env=cli_env)
    assert "usage: unknown" in shown.stdout
    assert "0 in" not in shown.stdout
    exported = ctxchat(
        "sessions", "export", record["session"], "--audit", "-f", "json", env=cli_env
    )
    (turn,) = json.loads(exported.stdout)["audit"]["audit"]
    assert turn["usage"] is None

    fake_openai.report_usage = True
    done = ctxchat("run", "--json", "-c", "again", env=cli_env)
    usage = json.loads(done.stdout)["usage"]
    assert usage["input_tokens"] > 0
    exported = ctxchat(
        "sessions", "export", record["session"], "--audit", "-f", "json", env=cli_env
    )
    second = json.loads(exported.stdout)["audit"]["audit"][1]
    assert set(second["usage"]) == {"input_tokens", "output_tokens"}  # one naming everywhere


def test_messages_stored_with_the_old_usage_keys_still_read() -> None:
    old = Message.assistant("hi", usage=Usage(3, 4)).to_dict()
    old["v"] = 1
    old["usage"] = {"input": 3, "output": 4}
    assert Message.from_dict(old).usage == Usage(3, 4)


def stored_parts(env: dict[str, str], session_id: str) -> list[list[tuple[str, str | None]]]:
    """(text, origin) of each part of each stored user message."""
    done = ctxchat("sessions", "export", session_id, "--format", "json", env=env)
    assert done.returncode == 0, done.stderr
    return [
        [(p["text"], p.get("origin")) for p in m["parts"]]
        for m in json.loads(done.stdout)["messages"]
        if m["role"] == "user"
    ]


def test_piped_stdin_is_one_turn_and_lines_asks_for_one_per_line(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    document = "".join(f"line {i} of a long document\n" for i in range(300))
    done = ctxchat("run", "--json", env=cli_env, stdin=document)
    assert done.returncode == 0, done.stderr
    (request,) = fake_openai.chat_requests()
    assert request.last_user_text == document.strip("\n")
    session_id = json.loads(done.stdout)["session"]
    assert stored_parts(cli_env, session_id) == [[(document.strip("\n"), "stdin")]]

    fake_openai.clear()
    assert ctxchat("run", "--lines", env=cli_env, stdin="one\ntwo\n").returncode == 0
    assert [r.last_user_text for r in fake_openai.chat_requests()] == ["one", "two"]


def test_a_prompt_with_piped_stdin_keeps_the_document_apart(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    done = ctxchat("run", "--json", "summarise this", env=cli_env, stdin="the document\n")
    session_id = json.loads(done.stdout)["session"]
    assert stored_parts(cli_env, session_id) == [
        [("summarise this", "argument"), ("the document", "document")]
    ]
    titles = ctxchat("sessions", "list", "--json", env=cli_env)
    assert json.loads(titles.stdout)[0]["title"] == "summarise this"


def test_the_default_pipeline_keeps_an_audit_so_show_audit_works_on_a_fresh_install(
    cli_env: dict[str, str], ctxchat_home: Path
) -> None:
    assert not (ctxchat_home / "config.toml").exists()
    done = ctxchat("run", "--json", "hello", env=cli_env)
    assert done.returncode == 0, done.stderr
    session_id = json.loads(done.stdout)["session"]
    shown = ctxchat("sessions", "show", session_id, "--audit", env=cli_env)
    assert shown.returncode == 0, shown.stderr
    assert "audit by 'audit': 1 turn" in shown.stdout
    assert "echo: hello" in shown.stdout


def test_a_host_that_does_not_resolve_is_said_so_and_embedding_model_is_gone(
    cli_env: dict[str, str],
) -> None:
    env = {**cli_env, "OPENAI_BASE_URL": "http://ctxchat-test.invalid/v1"}
    done = ctxchat("run", "hello", env=env)
    assert_clean_error(done, 1, "'ctxchat-test.invalid' could not be resolved")
    shown = ctxchat("config", "show", env=cli_env)
    assert shown.returncode == 0, shown.stderr
    assert "embedding_model" not in shown.stdout  # [embeddings] took its place


def test_config_is_a_global_option_every_command_honours(
    cli_env: dict[str, str], tmp_path: Path
) -> None:
    path = tmp_path / "work.toml"
    path.write_text(
        '[[providers]]\ntype = "sql_history"\n\n[[providers]]\ntype = "audit"\n'
        'source_id = "trail"\n'
    )
    done = ctxchat("--config", str(path), "run", "--json", "hello", env=cli_env)
    assert done.returncode == 0, done.stderr
    session_id = json.loads(done.stdout)["session"]
    shown = ctxchat("--config", str(path), "sessions", "show", session_id, "--audit", env=cli_env)
    assert shown.returncode == 0, shown.stderr
    assert "audit by 'trail'" in shown.stdout
    for args in (["sessions", "list"], ["providers"], ["config", "validate"]):
        done = ctxchat("--config", str(path), *args, env=cli_env)
        assert done.returncode == 0, (args, done.stderr)
        done = ctxchat(*args, "--config", str(path), env=cli_env)  # after the name too
        assert done.returncode == 0, (args, done.stderr)
    assert ctxchat("--config", str(path), "config", "path", env=cli_env).stdout == f"{path}\n"
    # The command's own --config is nearer than the global one; CTXCHAT_CONFIG still works.
    other = tmp_path / "other.toml"
    nearer = ctxchat("--config", str(path), "config", "path", "--config", str(other), env=cli_env)
    assert nearer.stdout == f"{other}\n"
    from_env = ctxchat("config", "path", env={**cli_env, "CTXCHAT_CONFIG": str(path)})
    assert from_env.stdout == f"{path}\n"
    missing = ctxchat("--config", str(other), "sessions", "show", session_id, env=cli_env)
    assert_clean_error(missing, 2, f"config file {other} does not exist")


def test_config_init_writes_provider_tables_a_later_table_can_join(
    cli_env: dict[str, str], ctxchat_home: Path
) -> None:
    assert ctxchat("config", "init", env=cli_env).returncode == 0
    path = ctxchat_home / "config.toml"
    text = path.read_text()
    assert "[[providers]]" in text
    assert "providers = [" not in text  # an inline array cannot take another table
    lines = text.splitlines()
    for number, line in enumerate(lines):
        if line and not line.startswith("#") and "=" in line:
            assert lines[number - 1].startswith("# "), f"no comment above {line!r}"
    assert "\nmodel =" not in text  # left unset, commented

    # Appending a provider as the README shows it keeps the file valid.
    path.write_text(text + '\n[[providers]]\ntype = "in_memory_history"\nload_messages = false\n')
    checked = ctxchat("config", "validate", env=cli_env)
    assert checked.returncode == 0, checked.stderr
    done = ctxchat("run", "hello", env=cli_env)
    assert done.returncode == 0, done.stderr


def test_config_validate_reports_every_error_a_line_each(
    cli_env: dict[str, str], ctxchat_home: Path
) -> None:
    path = write_config(
        ctxchat_home,
        """
colour = "blue"

[model]
temprature = 0.5
retries = -1

[agent]
max_tool_rounds = "eight"

[[providers]]
type = "sql_history"
source_id = "history"
max_mesages = 10

[[providers]]
type = "no_such_provider"

[[providers]]
type = "audit"
source_id = "history"

[[providers]]
type = "in_memory_history"
store_inputs = "yes"
""",
    )
    done = ctxchat("config", "validate", env=cli_env)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert all(line.startswith(f"ctxchat: error: {path}: ") for line in lines), lines
    expected = [
        "colour: unknown setting",
        "model.temprature: unknown option (did you mean 'temperature'?)",
        "model.retries: must be 0 or more",
        "agent.max_tool_rounds: expected an integer",
        "providers[0] and providers[2] share source_id 'history'",
        "providers[0].max_mesages: unknown option (did you mean 'max_messages'?)",
        "providers[1].type: unknown provider type 'no_such_provider'",
        "providers[3].store_inputs: expected a boolean",
    ]
    for fragment in expected:
        assert sum(fragment in line for line in lines) == 1, (fragment, lines)
    assert len(lines) == len(expected), lines
    # A run stops at the same problems, each on its line too.
    run = ctxchat("run", "hello", env=cli_env)
    assert run.returncode == 2
    assert run.stderr.splitlines() == lines


def unnamed(env: dict[str, str]) -> dict[str, str]:
    """The environment with no model named anywhere."""
    return {k: v for k, v in env.items() if k != "CTXCHAT_MODEL"}


def test_no_model_named_uses_the_one_the_endpoint_serves(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    fake_openai.models = ["the-only-model"]
    env = unnamed(cli_env)
    done = ctxchat("run", "--json", "hello", env=env)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # the choice is said on a terminal only
    assert fake_openai.chat_requests()[0].model == "the-only-model"
    assert json.loads(done.stdout)["model"] == "the-only-model"
    # Asked for its models, and (as vLLM reports it there) the model's context size.
    asked = len(fake_openai.model_list_requests())
    assert 1 <= asked <= 2

    # Asked once: the list is kept per endpoint, privately, written whole.
    cache = ctxchat_home / "models.json"
    assert stat.S_IMODE(cache.stat().st_mode) == 0o600
    assert json.loads(cache.read_text())["endpoints"][fake_openai.base_url]["models"] == [
        "the-only-model"
    ]
    again = ctxchat("run", "-c", "again", env=env)
    assert again.returncode == 0, again.stderr
    assert fake_openai.chat_requests()[1].model == "the-only-model"
    assert len(fake_openai.model_list_requests()) == asked  # both answers were kept


def test_several_models_and_none_named_is_one_line_listing_them(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    fake_openai.models = ["llama-3.2-3b", "qwen2.5-7b"]
    done = ctxchat("run", "hello", env=unnamed(cli_env))
    assert_clean_error(
        done, 2, "no model named", "serves 2: llama-3.2-3b, qwen2.5-7b", "--model NAME"
    )
    assert fake_openai.chat_requests() == []

    # Named once, a session goes on with its model without naming it again.
    first = ctxchat("run", "--json", "--model", "qwen2.5-7b", "hi", env=unnamed(cli_env))
    assert first.returncode == 0, first.stderr
    resumed = ctxchat("run", "-c", "and again", env=unnamed(cli_env))
    assert resumed.returncode == 0, resumed.stderr
    assert [r.model for r in fake_openai.chat_requests()] == ["qwen2.5-7b", "qwen2.5-7b"]


def test_a_model_the_endpoint_does_not_list_is_warned_of_with_close_matches(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    fake_openai.models = ["llama-3.2-3b-instruct", "qwen2.5-7b"]
    done = ctxchat("run", "hello", env={**cli_env, "CTXCHAT_MODEL": "llama-3.2-3b"})
    assert done.returncode == 0, done.stderr
    assert done.stderr == (
        f"ctxchat: warning: model 'llama-3.2-3b' is not listed by {fake_openai.base_url} "
        "(close: llama-3.2-3b-instruct); sending it anyway\n"
    )
    assert fake_openai.chat_requests()[0].model == "llama-3.2-3b"  # some servers take any name
    listed = ctxchat("run", "hello", env={**cli_env, "CTXCHAT_MODEL": "qwen2.5-7b"})
    assert listed.stderr == ""


def test_no_model_named_and_no_list_to_ask_says_what_to_do(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    fake_openai.list_models = False
    done = ctxchat("run", "hello", env=unnamed(cli_env))
    assert_clean_error(done, 2, "does not list its models (HTTP 404)", "--model NAME")
    down = ctxchat("run", "hello", env={**unnamed(cli_env), "OPENAI_BASE_URL": DOWN})
    assert_clean_error(down, 1, "cannot reach", "is the server running?")


def test_gpt_4o_mini_is_the_default_on_openai_only() -> None:
    assert ModelSettings().model is None
    assert OpenAIChatModel(ModelSettings(api_key="sk-x")).name == "gpt-4o-mini"
    on_openai = ModelSettings(base_url="https://api.openai.com/v1", api_key="sk-x")
    assert OpenAIChatModel(on_openai).name == "gpt-4o-mini"
    local = OpenAIChatModel(ModelSettings(base_url="http://127.0.0.1:8080/v1"))
    assert local.name == ""
    with pytest.raises(ModelNotConfigured, match="no model named"):
        local.check()
    assert "\nmodel =" not in EXAMPLE.read_text()  # the example leaves it commented too
