"""The llama.cpp child server (`ctxchat.services.llama_server`): it serves once healthy and
always ends, however its owner ends: normally, by an exception, by SIGKILL, mid-reply, or
with a child that does not answer SIGTERM."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest
from llamakit import MODEL_ID, WINDOW, llama_server_in, server_json, tiny_model

from ctxchat.core.errors import LocalServerError, LocalServerUnavailable
from ctxchat.services.llama_server import LlamaServer, LlamaServerOptions

WAIT_SECONDS = 20.0


def wait_until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.05)


def process_gone(pid: int) -> bool:
    """No such process, or only its zombie (a container's init may never reap it)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


def refused(root: str) -> bool:
    host, port = root.removeprefix("http://").rsplit(":", 1)
    try:
        socket.create_connection((host, int(port)), timeout=2).close()
    except ConnectionRefusedError:
        return True
    return False


def assert_ended(pid: int, root: str) -> None:
    assert process_gone(pid)
    assert refused(root)


@pytest.mark.slow
def test_the_server_serves_the_tiny_model_under_its_alias(llama_server: LlamaServer) -> None:
    with urllib.request.urlopen(llama_server.root + "/health", timeout=10) as answer:
        assert answer.status == 200
    models = server_json(llama_server, "/v1/models")
    assert [m["id"] for m in models["data"]] == [MODEL_ID]
    props = server_json(llama_server, "/props")
    settings = props["default_generation_settings"]
    assert settings["n_ctx"] == WINDOW
    assert settings["params"]["n_predict"] == -1  # no reply cap: llama.cpp's default
    assert server_json(llama_server, "/tokenize", {"content": "a b c"})["tokens"]
    assert llama_server.base_url == llama_server.root + "/v1"
    assert llama_server.root.startswith("http://127.0.0.1:")


@pytest.mark.slow
def test_leaving_the_block_ends_the_child_and_frees_its_port(tmp_path: Path) -> None:
    with llama_server_in(tmp_path) as server:
        pid, root = server.pid, server.root
        assert not process_gone(pid)
        assert not refused(root)
    assert_ended(pid, root)
    with pytest.raises(LocalServerError, match="not running"):
        _ = server.base_url


@pytest.mark.slow
def test_an_exception_in_the_block_still_ends_the_child(tmp_path: Path) -> None:
    seen: list[tuple[int, str]] = []

    def a_failing_test() -> None:
        with llama_server_in(tmp_path) as server:
            seen.append((server.pid, server.root))
            raise RuntimeError("the test failed")

    with pytest.raises(RuntimeError, match="the test failed"):
        a_failing_test()
    assert_ended(*seen[0])


# The owner of a server, killed by the test. A process holds a copy of the child's stdin
# pipe, so the end of that pipe cannot end the child: only PR_SET_PDEATHSIG can.
OWNER = """
import subprocess, sys
from pathlib import Path
from ctxchat.services.llama_server import LlamaServer, LlamaServerOptions
server = LlamaServer(LlamaServerOptions(Path(sys.argv[1])))
server.start()
held = server._process.stdin.fileno()
holder = subprocess.Popen(["sleep", "600"], pass_fds=[held], start_new_session=True)
print(server.pid, server.root, holder.pid, flush=True)
sys.stdin.read()
"""


@pytest.mark.slow
def test_a_server_whose_owner_is_killed_ends_with_it() -> None:
    owner = subprocess.Popen(
        [sys.executable, "-c", OWNER, str(tiny_model())],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert owner.stdout is not None
    pid_text, root, holder_text = owner.stdout.readline().split()
    pid, holder = int(pid_text), int(holder_text)
    try:
        assert not process_gone(pid)
        assert not process_gone(holder)  # the pipe's other end is still open
        owner.kill()  # no clean-up of the owner's runs
        owner.wait()
        wait_until(lambda: process_gone(pid), "the child ended with its owner")
        wait_until(lambda: refused(root), "the child's port was freed")
    finally:
        owner.kill()
        owner.wait()
        subprocess.run(["kill", str(holder)], check=False)
        if not process_gone(pid):
            subprocess.run(["kill", "-9", str(pid)], check=False)


def stream_a_long_reply(server: LlamaServer) -> threading.Thread:
    """A streamed request in a thread, returned once its first chunk has come."""
    body = {"messages": [{"role": "user", "content": "Tell me a long story."}]}
    body.update(stream=True, max_tokens=4000)
    request = urllib.request.Request(
        server.base_url + "/chat/completions", json.dumps(body).encode()
    )
    started = threading.Event()

    def read() -> None:
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                answer.readline()
                started.set()
                while answer.readline():
                    pass
        except OSError:  # the server went away mid-stream: what the test does
            pass
        finally:
            started.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert started.wait(WAIT_SECONDS)
    return reader


@pytest.mark.slow
def test_stopping_the_server_while_a_reply_streams_ends_it(tmp_path: Path) -> None:
    with llama_server_in(tmp_path, ignore_eos=True, context=4096) as server:
        pid, root = server.pid, server.root
        reader = stream_a_long_reply(server)
        assert server_json(server, "/slots")[0]["is_processing"]
        server.stop()
        assert_ended(pid, root)
    reader.join(WAIT_SECONDS)
    assert not reader.is_alive()


@pytest.mark.slow
def test_a_child_deaf_to_sigterm_is_killed_after_the_deadline(tmp_path: Path) -> None:
    server = LlamaServer(LlamaServerOptions(tiny_model()), stop_timeout=0.5)
    # A child that ignores SIGTERM (an ignored signal stays ignored across exec) and,
    # stopped, does not read the end of its stdin either: only SIGKILL ends it.
    previous = signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        server.start()
    finally:
        signal.signal(signal.SIGTERM, previous)
    pid, root = server.pid, server.root
    subprocess.run(["kill", "-STOP", str(pid)], check=True)
    assert server.stop() == -signal.SIGKILL
    assert_ended(pid, root)


@pytest.mark.slow
def test_a_file_llama_cpp_cannot_load_is_one_line(tmp_path: Path) -> None:
    tiny_model()  # xllamacpp is needed to get that far
    junk = tmp_path / "junk.gguf"
    junk.write_bytes(b"not a model" * 100)
    with pytest.raises(LocalServerError) as caught:
        LlamaServer(LlamaServerOptions(junk)).start()
    assert not isinstance(caught.value, LocalServerUnavailable)
    assert caught.value.message.startswith("llama.cpp did not start")
    assert "\n" not in caught.value.message


def test_a_missing_model_file_is_unavailable(tmp_path: Path) -> None:
    with pytest.raises(LocalServerUnavailable, match=r"no model file at .*absent\.gguf"):
        LlamaServer(LlamaServerOptions(tmp_path / "absent.gguf")).start()


# What the child's `import xllamacpp` raises without the package, and with the package but
# without the OpenMP runtime it links (the loader's words), from a stand-in package put first
# on the child's path: removing a real package or a system library is not for a test to do.
IMPORT_FAILURES = {
    "missing": "raise ModuleNotFoundError(\"No module named 'xllamacpp'\", name='xllamacpp')",
    "libgomp": "raise ImportError('libgomp.so.1: cannot open shared object file: No such file')",
}


@pytest.mark.parametrize(
    ("failure", "expected"),
    [("missing", "pip install 'ctxchat[local]'"), ("libgomp", "apt-get install libgomp1")],
)
def test_what_xllamacpp_lacks_is_one_clear_line(
    failure: str, expected: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "shadow" / "xllamacpp"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(IMPORT_FAILURES[failure] + "\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "shadow"))
    model = tmp_path / "model.gguf"
    model.write_bytes(b"unread")
    with pytest.raises(LocalServerUnavailable) as caught:
        LlamaServer(LlamaServerOptions(model)).start()
    assert expected in caught.value.message
    assert "\n" not in caught.value.message
    assert caught.value.exit_code == 2
