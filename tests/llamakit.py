"""The llama.cpp child server, for tests that need a real model server (its fixtures,
`llama_server` and `llama_env`, are in conftest).

A thin wrapper around `ctxchat.services.llama_server` (the code that runs a local model for
users too), with the tiny model of `tinymodel.py`. Without xllamacpp or the cached GGUF the
tests that use it are skipped, unless CTXCHAT_REQUIRE_LLAMA=1 (CI), where they fail: CI
must never pass by skipping the server it promises.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tinymodel import cached_model

from ctxchat.services.llama_server import LlamaServer, LlamaServerOptions

REQUIRE_ENV = "CTXCHAT_REQUIRE_LLAMA"
MODEL_ID = "smollm2"
# Small, so that a few turns overflow it and every request is quick to read.
WINDOW = 1024
# Each reply's cap in the chat's config: the model's words vary, its replies' length with
# them, and a bound keeps the tier's time bounded. The server itself has no cap.
REPLY_TOKENS = 48


def tiny_model() -> Path:
    """The GGUF, or skip (locally) / fail (CI) when it or xllamacpp is missing."""
    missing = []
    if importlib.util.find_spec("xllamacpp") is None:
        missing.append("xllamacpp (pip install -e '.[dev]')")
    model = cached_model()
    if model is None:
        missing.append("the tiny model (python tests/tinymodel.py)")
    if not missing:
        assert model is not None
        return model
    if os.environ.get(REQUIRE_ENV) == "1":
        pytest.fail(f"{REQUIRE_ENV}=1 but {' and '.join(missing)} missing")
    pytest.skip(f"the real-server tests need {' and '.join(missing)}")


@contextlib.contextmanager
def llama_server_in(folder: Path, **options: Any) -> Iterator[LlamaServer]:
    """A server of the tiny model with these `LlamaServerOptions`; its log in `folder`."""
    settings = LlamaServerOptions(tiny_model(), alias=MODEL_ID, **options)
    with LlamaServer(settings, log=folder / "llama.log") as server:
        yield server


def chat_env(
    home: Path, server: LlamaServer, *, reply_tokens: int = REPLY_TOKENS
) -> dict[str, str]:
    """Environment for a `ctxchat` subprocess talking to `server`: no model named (the
    server's only one is found), the default pipeline, each reply capped."""
    from conftest import ENV_TO_CLEAR  # conftest imports this module

    env = {k: v for k, v in os.environ.items() if k not in ENV_TO_CLEAR}
    env.update(
        CTXCHAT_HOME=str(home),
        OPENAI_BASE_URL=server.base_url,
        NO_COLOR="1",
        PYTHONUNBUFFERED="1",
    )
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(f"[model]\nmax_tokens = {reply_tokens}\n", "utf-8")
    return env


def server_json(server: LlamaServer, path: str, body: dict[str, Any] | None = None) -> Any:
    """GET (or POST `body` to) one of the server's own endpoints: `/props`, `/slots`..."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server.root + path, data=data)
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())
