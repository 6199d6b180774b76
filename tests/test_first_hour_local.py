"""The second first-hour issue (a new user's first hour against a local llama.cpp server),
the items that a real `ctxchat` process and the local OpenAI-protocol server show."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
from cli_support import assert_clean_error, ctxchat, write_config
from fakeopenai import FakeOpenAI, Text

from ctxchat.core.idprefix import unique_prefixes


@pytest.mark.parametrize(
    ("where", "blamed"),
    [
        ({"OPENAI_BASE_URL": "127.0.0.1:8090/v1"}, "OPENAI_BASE_URL: "),
        ({"CTXCHAT_MODEL": "   "}, "CTXCHAT_MODEL: "),
        ({"flag": "--base-url=127.0.0.1:8090/v1"}, "--base-url: "),
    ],
)
def test_a_bad_value_is_blamed_on_the_variable_or_flag_that_set_it(
    cli_env: dict[str, str], ctxchat_home: Path, where: dict[str, str], blamed: str
) -> None:
    config = write_config(ctxchat_home, '[model]\nmodel = "fake-model"\n')
    env = {**cli_env, **{k: v for k, v in where.items() if k != "flag"}}
    flags = [where["flag"]] if "flag" in where else []
    done = ctxchat("run", *flags, "hello", env=env)
    line = assert_clean_error(done, 2, blamed)
    assert str(config) not in line
    assert "model." not in line

    if not flags:  # `config validate` says the same
        checked = ctxchat("config", "validate", env=env)
        assert_clean_error(checked, 2, blamed)


def test_memory_forget_takes_a_unique_prefix_and_an_ambiguous_one_lists_the_facts(
    cli_env: dict[str, str],
) -> None:
    said = ctxchat("run", "I live in Porto and I have a cat named Miso.", env=cli_env)
    assert said.returncode == 0, said.stderr
    facts = json.loads(ctxchat("memory", "list", "--json", env=cli_env).stdout)
    ids = sorted(f["id"] for f in facts)
    assert len(ids) == 2
    shared = next(n for n, (a, b) in enumerate(zip(*ids, strict=True)) if a != b)
    assert shared >= 6  # made in one burst
    ambiguous = ctxchat("memory", "forget", ids[0][:shared], env=cli_env)
    line = assert_clean_error(ambiguous, 2, "ambiguous", "2 facts match", ids[0], ids[1])
    assert "Porto" in line

    short = unique_prefixes(ids)
    table = ctxchat("memory", "list", env=cli_env).stdout
    assert short[ids[0]] in table
    assert ids[0] not in table  # the id is shown by its prefix
    assert len(short[ids[0]]) < len(ids[0])
    forgot = ctxchat("memory", "forget", short[ids[0]].lower(), env=cli_env)
    assert forgot.stdout == f"forgot {ids[0]}\n"
    left = json.loads(ctxchat("memory", "list", "--json", env=cli_env).stdout)
    assert [f["id"] for f in left] == [ids[1]]


@pytest.mark.parametrize(
    ("n_predict", "configured", "sent", "named"),
    [
        (-1, None, 512, "the 512 tokens kept for a reply, as [model] max_tokens is unset"),
        (256, None, None, "the server's own cap"),
        (-1, 100, 100, "[model] max_tokens = 100"),
    ],
)
def test_a_reply_is_capped_where_the_server_caps_none_and_a_cut_names_its_cap(
    cli_env: dict[str, str],
    ctxchat_home: Path,
    fake_openai: FakeOpenAI,
    n_predict: int,
    configured: int | None,
    sent: int | None,
    named: str,
) -> None:
    fake_openai.imitate = "llama.cpp"  # /props says n_ctx 4,096 and n_predict
    fake_openai.n_predict = n_predict
    if configured is not None:
        write_config(ctxchat_home, f"[model]\nmax_tokens = {configured}\n")
    fake_openai.enqueue(Text("Once upon a time", finish_reason="length"))
    done = ctxchat("run", "--no-memory", "Tell me a very long story.", env=cli_env)
    assert done.returncode == 0, done.stderr
    (request,) = fake_openai.chat_requests()
    assert request.body.get("max_tokens") == sent  # an eighth of the window when uncapped
    warning = assert_clean_error(done, 0, "the reply was cut short (max_tokens reached: ")
    assert named in warning
    assert "go on" in warning  # how to have the rest


def test_config_init_writes_max_tokens_commented_out_with_what_it_means(
    cli_env: dict[str, str], ctxchat_home: Path
) -> None:
    assert ctxchat("config", "init", env=cli_env).returncode == 0
    text = (ctxchat_home / "config.toml").read_text()
    model_table = text.split("[model]", 1)[1].split("[[providers]]", 1)[0]
    assert "\n# max_tokens = " in model_table
    assert "an eighth of the context window" in model_table
    assert ctxchat("config", "validate", env=cli_env).returncode == 0


def test_every_internal_model_call_has_a_cap_of_its_own() -> None:
    import asyncio

    from ctxchat.core.messages import Message
    from ctxchat.providers.memory.provider import UserMemoryProvider
    from ctxchat.providers.summary.prompt import fold_request
    from ctxchat.testing import ScriptedModel

    fold = fold_request("", [Message.user("hello")], max_words=250, room=1000)
    assert 250 < fold.options["max_tokens"] <= 1024

    model = ScriptedModel("[]")
    memory = UserMemoryProvider(
        "user_memory", UserMemoryProvider.Options(extractor="llm", scope="session")
    )
    asyncio.run(memory.ask_model(model, "I live in Berlin.", []))
    (asked,) = model.requests
    assert 0 < asked.options["max_tokens"] <= 1024


def test_an_mcp_table_after_the_last_provider_says_it_belongs_to_the_tools_provider(
    cli_env: dict[str, str], ctxchat_home: Path
) -> None:
    write_config(
        ctxchat_home,
        '[[providers]]\ntype = "tools"\n\n[[providers]]\ntype = "sql_history"\n\n'
        '[providers.mcp.time]\ncommand = "uvx"\nargs = ["mcp-server-time"]\n',
    )
    checked = ctxchat("config", "validate", env=cli_env)
    line = assert_clean_error(checked, 2, "providers[1].mcp: unknown option")
    assert "belong to the 'tools' provider" in line
    assert 'right after the one with type = "tools"' in line


def test_show_audit_full_shows_instruction_blocks_whole(cli_env: dict[str, str]) -> None:
    facts = "I live in Berlin, I have a cat named Miso, I am vegetarian and I work as a nurse."
    first = ctxchat("run", "--json", facts, env=cli_env)
    assert first.returncode == 0, first.stderr
    session = json.loads(first.stdout)["session"]
    assert ctxchat("run", "-c", "What should I cook tonight?", env=cli_env).returncode == 0

    cut = ctxchat("sessions", "show", session, "--audit", env=cli_env).stdout
    whole = ctxchat("sessions", "show", session, "--audit", "--full", env=cli_env).stdout
    turn_2_cut, turn_2_whole = cut.split("turn 2 ")[1], whole.split("turn 2 ")[1]
    assert "(--full: whole)" in turn_2_cut
    assert "(--full: whole)" not in turn_2_whole
    block = turn_2_whole.split("[memory]", 1)[1].split("\ninput", 1)[0]
    for value in ("Berlin", "cat named Miso", "vegetarian", "nurse"):
        assert value in block, block
    assert len(block) > len(turn_2_cut.split("[memory]", 1)[1].split("\n", 1)[0])


def test_token_counts_are_kept_by_message_so_a_resumed_turn_counts_only_what_is_new(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    fake_openai.imitate = "llama.cpp"  # counts by POST /tokenize
    asked: list[list[str]] = []
    for number, question in enumerate(["I live in Berlin.", "What is 2+2?", "And 3+3?"]):
        before = len(fake_openai.requests)
        done = ctxchat("run", *(["-c"] if number else []), question, env=cli_env)
        assert done.returncode == 0, done.stderr
        asked.append(
            [r.body["content"] for r in fake_openai.requests[before:] if r.path == "/tokenize"]
        )
    # The system prompt, the tools and the history were counted before: only the new.
    assert sorted(asked[2]) == ["And 3+3?", "echo: What is 2+2?"]
    kept = ctxchat_home / "token-counts.json"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert "Berlin" not in kept.read_text()  # digests, never the text
