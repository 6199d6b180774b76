"""The second first-hour issue (a new user's first hour against a local llama.cpp server),
the items that a real `ctxchat` process and the local OpenAI-protocol server show."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import assert_clean_error, ctxchat, write_config

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
