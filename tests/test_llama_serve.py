"""`ctxchat serve MODEL.gguf`: the local model's server in the foreground, a real process
with the tiny model. Another ctxchat chats through it, `/v1/models` names the file's stem,
and Ctrl-C or SIGTERM end it and its child."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import urllib.request
from pathlib import Path

import pytest
from cli_support import assert_clean_error, ctxchat
from conftest import ctxchat_executable
from localkit import llama_children, local_env, tiny_gguf, wait_for_children

pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM])
def test_serve_shares_one_model_until_it_is_stopped(
    ctxchat_home: Path, tmp_path: Path, how: signal.Signals
) -> None:
    model = tiny_gguf(tmp_path)
    env = local_env(ctxchat_home)
    port = free_port()
    serving = subprocess.Popen(
        [ctxchat_executable(), "serve", str(model), "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert serving.stdout is not None
        base_url = serving.stdout.readline().decode().strip()  # once it serves
        assert base_url == f"http://127.0.0.1:{port}/v1"
        with urllib.request.urlopen(base_url + "/models", timeout=10) as answer:
            listed = json.loads(answer.read())
        assert [m["id"] for m in listed["data"]] == ["tiny-local"]

        chat = ctxchat("run", "--json", "Say hello.", env={**env, "OPENAI_BASE_URL": base_url})
        assert chat.returncode == 0, chat.stderr
        assert json.loads(chat.stdout)["model"] == "tiny-local"  # its only model, found
        assert len(llama_children(model)) == 1  # the run started none of its own

        serving.send_signal(how)
        assert serving.wait(30) == 0
        assert serving.stderr is not None
        said = serving.stderr.read().decode()
        assert f"serving {model.name} as 'tiny-local'" in said
        assert "Traceback" not in said
    finally:
        serving.kill()
        serving.wait()
    assert wait_for_children(model, 0) == []


def test_serve_refuses_a_name_it_cannot_find(ctxchat_home: Path) -> None:
    result = ctxchat("serve", "no-such-model", env=local_env(ctxchat_home))
    assert_clean_error(result, 2, "no model 'no-such-model'")
