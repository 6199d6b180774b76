"""llama.cpp's own HTTP server for a GGUF file, in a child process its caller owns.

The server is llama.cpp's (`/v1/chat/completions` streamed with usage, `/v1/models`,
`/props`, `/tokenize`, `/health`), run through the PyPI package xllamacpp: prebuilt CPU
wheels, nothing compiled, no command-line tool, so `llama_child` starts it from Python.
It runs in a child process rather than in this one: llama.cpp's threads and 100 MB of
native code stay out of the chat, a crash there is not a crash here, and ending it is
one signal.

The defaults, and why:
- one thread: on a busy two-core machine one thread generated 52 to 67 tokens/s and two
  threads 3 to 5 (OpenMP's threads spin waiting for each other);
- a prompt cache of 64 MiB: llama.cpp's default keeps up to 8 GiB of old prompts in memory;
- no reply cap (`reply_cap = -1`, llama.cpp's own default): the chat's context budget says
  how long a reply may be;
- a loopback address and a port the kernel picks (port 0), reported back by the child, so
  two servers never race for one;
- `/v1/models` shows `alias` (the file's stem unless set), not the file's path.

Started, it is ready only when `/health` answers 200 (503 while the model loads), whatever
the time that takes. Ended (`stop`, or leaving the `with` block however it is left), the
child gets SIGTERM, then SIGKILL after `stop_timeout`: llama.cpp can hang on SIGTERM while a
request streams. Should this process die without ending it (SIGKILL), the kernel kills the
child (`PR_SET_PDEATHSIG`, see `llama_child`). That signal fires when the *thread* that
started the child ends: start the server from a thread that outlives it (the main thread).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import selectors
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, Any

from ctxchat.core.errors import LocalServerError, LocalServerUnavailable

CHILD_MODULE = "ctxchat.services.llama_child"
HEALTH_TIMEOUT = 2.0  # one `/health` request; the wait as a whole is `start_timeout`
HEALTH_POLL = 0.05
# llama.cpp's log lines begin with the time since start and a level: `0.00.003.655 E srv ...`
LOG_PREFIX = re.compile(r"^[\d.]+ [A-Z] +")


@dataclass(frozen=True)
class LlamaServerOptions:
    """How to run llama.cpp's server for one model file."""

    model: Path
    alias: str = ""  # the model's id in /v1/models; "" is the file's stem
    context: int = 0  # the window in tokens; 0 is the one the model was trained with
    threads: int = 1
    prompt_cache_mib: int = 64
    reply_cap: int = -1  # tokens a reply may take at most; -1 is no cap
    ignore_eos: bool = False  # every reply runs to its cap (a reply long enough to stop)
    # Embedding mode: `/v1/embeddings` only (chat requests fail with it on), for the
    # embeddings' own server (`services.local_embeddings`), never the chat's.
    embedding: bool = False
    pooling: str = ""  # with `embedding`: "mean", "cls" or "last"; "" is the file's own
    host: str = "127.0.0.1"
    port: int = 0  # 0: a free one, chosen by the kernel

    @property
    def model_id(self) -> str:
        return self.alias or self.model.stem

    def for_child(self) -> str:
        fields: dict[str, Any] = {**asdict(self), "model": str(self.model)}
        fields["alias"] = self.model_id
        return json.dumps(fields)


class LlamaServer:
    """One llama.cpp server process: `with LlamaServer(options) as server: server.base_url`."""

    def __init__(
        self,
        options: LlamaServerOptions,
        *,
        log: Path | None = None,
        start_timeout: float = 120.0,
        stop_timeout: float = 5.0,
    ) -> None:
        self.options = options
        self.log = log  # llama.cpp's own log lines; None: kept only while starting
        self.start_timeout = start_timeout
        self.stop_timeout = stop_timeout
        self._process: subprocess.Popen[bytes] | None = None
        self._log_file: IO[bytes] | None = None
        self._root = ""

    @property
    def pid(self) -> int:
        return self._running().pid

    @property
    def root(self) -> str:
        """`http://127.0.0.1:PORT`: `/health`, `/props` and `/tokenize` hang off it."""
        self._running()
        return self._root

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible endpoint, for `OPENAI_BASE_URL`."""
        return self.root + "/v1"

    def _running(self) -> subprocess.Popen[bytes]:
        if self._process is None:
            raise LocalServerError("the local model server is not running")
        return self._process

    def __enter__(self) -> LlamaServer:
        self.start()
        return self

    def __exit__(self, *_exc_info: object) -> None:
        self.stop()

    def start(self) -> str:
        """Start the child and wait until it serves; the base URL. Raises
        `LocalServerUnavailable` (exit 2) when xllamacpp, libgomp or the model file is
        missing, `LocalServerError` when the server does not come up."""
        if self._process is not None:
            return self.base_url
        model = self.options.model
        if not model.is_file():
            raise LocalServerUnavailable(f"no model file at {model}")
        self._log_file = self._open_log()
        self._process = subprocess.Popen(
            [sys.executable, "-m", CHILD_MODULE, self.options.for_child(), str(os.getpid())],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log_file,
            # Not in the terminal's process group: a Ctrl-C that stops a reply (SIGINT to
            # the whole foreground group) must not stop the server too.
            start_new_session=True,
        )
        try:
            deadline = time.monotonic() + self.start_timeout
            self._root = self._address(deadline).rstrip("/")
            self._wait_healthy(deadline)
        except BaseException:
            self.stop()
            raise
        return self.base_url

    def _open_log(self) -> IO[bytes]:
        if self.log is None:
            return tempfile.TemporaryFile()
        self.log.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(self.log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        return os.fdopen(fd, "ab")

    def _address(self, deadline: float) -> str:
        """The child's first line: where it listens, or why it cannot."""
        process = self._running()
        assert process.stdout is not None
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ)
            if not selector.select(max(0.0, deadline - time.monotonic())):
                raise LocalServerError(
                    f"the local model server did not start within {self.start_timeout:g} s"
                )
        line = process.stdout.readline()
        try:
            said = json.loads(line) if line else {}
        except ValueError:
            said = {}
        if isinstance(said, dict) and isinstance(said.get("address"), str):
            return str(said["address"])
        if isinstance(said, dict) and isinstance(said.get("error"), str):
            error = str(said["error"])
            if said.get("kind") in ("missing", "libgomp"):
                raise LocalServerUnavailable(error)
            raise LocalServerError(self._with_log(error))
        raise LocalServerError(self._with_log("the local model server ended as it started"))

    def _wait_healthy(self, deadline: float) -> None:
        process = self._running()
        while True:
            if process.poll() is not None:
                raise LocalServerError(self._with_log("the local model server ended"))
            if self._healthy():
                return
            if time.monotonic() > deadline:
                raise LocalServerError(
                    f"the local model server was not ready within {self.start_timeout:g} s"
                )
            time.sleep(HEALTH_POLL)

    def _healthy(self) -> bool:
        """`/health` says 200 once the model is loaded (503 before)."""
        try:
            with urllib.request.urlopen(self._root + "/health", timeout=HEALTH_TIMEOUT) as answer:
                return int(answer.status) == 200
        except (OSError, ValueError):  # refused, 503 (an HTTPError), cut short
            return False

    def _with_log(self, message: str) -> str:
        """The message and the log's last line, which is llama.cpp's reason when it has one."""
        last = self._log_tail()
        return f"{message}: {last}" if last else message

    def _log_tail(self) -> str:
        log = self._log_file
        if log is None:
            return ""
        try:
            log.flush()
            if self.log is not None:
                text = self.log.read_bytes()[-4096:]
            else:
                log.seek(0)
                text = log.read()[-4096:]
        except OSError:
            return ""
        lines = [line.strip() for line in text.decode("utf-8", "replace").splitlines()]
        last = next((line for line in reversed(lines) if line), "")
        return LOG_PREFIX.sub("", last)

    def wait(self) -> int:
        """Block until the child ends on its own (`ctxchat serve`); its exit status."""
        return self._running().wait()

    def stop(self) -> int | None:
        """End the child however it is doing, and reap it; its exit status (None if none
        was running). Closing its stdin asks it to leave; SIGTERM tells it; SIGKILL after
        `stop_timeout` makes it."""
        process, self._process = self._process, None
        if process is None:
            return None
        try:
            if process.stdin is not None:
                with contextlib.suppress(OSError):
                    process.stdin.close()
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(self.stop_timeout)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        finally:
            if process.stdout is not None:
                process.stdout.close()
            if self._log_file is not None:
                self._log_file.close()
                self._log_file = None
        return process.returncode
