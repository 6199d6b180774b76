"""Shared fixtures: every test gets its own CTXCHAT_HOME and a clean environment."""

from __future__ import annotations

import gc
import itertools
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fakeopenai import FakeOpenAI
from llamakit import WINDOW, chat_env, llama_server_in

from ctxchat.core import redact
from ctxchat.core.settings import ModelSettings
from ctxchat.services.llama_server import LlamaServer

ENV_TO_CLEAR = (
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "CTXCHAT_MODEL",
    "CTXCHAT_CONFIG",
    "OPENAI_ORG_ID",
    "OPENAI_PROJECT_ID",
    # A terminal's size comes from the terminal (pytest-xdist's workers set these to 80x24).
    "COLUMNS",
    "LINES",
)
TEST_API_KEY = "sk-test-SECRET-0123456789abcdef"

# Bytecode caches are written even where PYTHONDONTWRITEBYTECODE is set (it is on the
# machines this was built on): without them each test process, and each `ctxchat` a test
# starts, compiles the project and the tests from source again. Collecting the fast loop
# took 5.5 s of CPU a worker against 2 s, and a one-turn `ctxchat run` 0.12 s more of its
# 0.7 s. They go to the __pycache__ folders git ignores.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
# A test process allocates much and keeps what it imports (openai's types, SQLAlchemy): at
# the collector's default thresholds each fast-loop worker ran 12 full collections, 0.2 s
# each walking every long-lived object, 3.4-3.7 s of collecting in all. At the thresholds
# `ctxchat` itself starts with (cli/main.py) it ran none, 1.4-1.5 s in all, with the same
# peak memory (240 MB) and open files.
gc.set_threshold(20_000, 20, 20)
# Fixtures of end-to-end tests: a real terminal (pexpect or tmux), or the environment for
# real `ctxchat` processes. Each process pays the interpreter's start-up, so these tests
# take nine tenths of the suite's time while being a fifth of its tests.
END_TO_END_FIXTURES = frozenset({"repl", "repls", "terminal", "cli_env"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """`pytest -m "not slow"` is the fast inner loop (in-process tests of the engine,
    providers, storage, ranking and views): it leaves out every end-to-end test, those
    using a fixture above besides those marked slow by hand (crash, benchmarks,
    packaging, tests starting Python processes). `.ci/run` runs everything."""
    for item in items:
        if END_TO_END_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


_made = itertools.count()


@pytest.fixture
def tmp_path(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """pytest's own, a private folder for each test under the run's base folder, named
    after the test, but numbered by a counter of this process instead of by pytest's
    scan of every folder made so far: 0.75 ms a test, 1.2 s of the fast loop's CPU.
    (The base folder is this process's own, so the names never meet.)"""
    name = re.sub(r"\W", "_", request.node.name)[:30]
    path = tmp_path_factory.getbasetemp() / f"{name}{next(_made)}"
    path.mkdir(mode=0o700)
    return path


@pytest.fixture(autouse=True)
def no_remembered_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with no secrets remembered by an earlier one in this process."""
    monkeypatch.setattr(redact, "SECRETS", redact.KnownSecrets())


@pytest.fixture(autouse=True)
def ctxchat_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No test can touch the real user's files or inherit their endpoint settings."""
    home = tmp_path / "home"
    monkeypatch.setenv("CTXCHAT_HOME", str(home))
    for name in ENV_TO_CLEAR:
        monkeypatch.delenv(name, raising=False)
    return home


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


@pytest.fixture
def model_settings(fake_openai: FakeOpenAI) -> ModelSettings:
    return ModelSettings(
        model="fake-model",
        base_url=fake_openai.base_url,
        api_key=TEST_API_KEY,
        retries=0,
        timeout=10.0,
    )


def ctxchat_executable() -> str:
    """The `ctxchat` console script installed beside the interpreter running the tests."""
    candidate = Path(sys.executable).with_name("ctxchat")
    return str(candidate) if candidate.exists() else "ctxchat"


@pytest.fixture
def cli_env(ctxchat_home: Path, fake_openai: FakeOpenAI) -> dict[str, str]:
    """Environment for a `ctxchat` subprocess talking to the fake server."""
    env = {k: v for k, v in os.environ.items() if k not in ENV_TO_CLEAR}
    env.update(
        CTXCHAT_HOME=str(ctxchat_home),
        OPENAI_BASE_URL=fake_openai.base_url,
        OPENAI_API_KEY=TEST_API_KEY,
        CTXCHAT_MODEL="fake-model",
        NO_COLOR="1",
        PYTHONUNBUFFERED="1",
    )
    return env


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    """One server for the session's tests (a worker's, under xdist)."""
    with llama_server_in(tmp_path_factory.mktemp("llama"), context=WINDOW) as server:
        yield server


@pytest.fixture
def llama_env(ctxchat_home: Path, llama_server: LlamaServer) -> dict[str, str]:
    return chat_env(ctxchat_home, llama_server)
