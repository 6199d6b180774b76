"""The second first-hour issue (a new user's first hour against a local llama.cpp server),
the items that a real `ctxchat` process and the local OpenAI-protocol server show."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import assert_clean_error, ctxchat, write_config


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
