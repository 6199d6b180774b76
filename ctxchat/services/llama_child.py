"""The child process of `llama_server`: llama.cpp's HTTP server through xllamacpp.

Run as `python -m ctxchat.services.llama_child OPTIONS_JSON PARENT_PID` by
`llama_server.LlamaServer` only. It writes one JSON line on stdout, `{"address": URL}` once
the server listens or `{"error": TEXT, "kind": KIND}` when it cannot start, then serves
until its parent goes. It never outlives the parent: `PR_SET_PDEATHSIG` has the kernel kill
it when the parent dies (even by SIGKILL, which runs no clean-up of the parent's), and the
end of its stdin (the parent's end of the pipe closed) ends it too, on any system.

xllamacpp is imported here, in the child, and nowhere else: the package is 100 MB of native
code that a chat with a remote model never loads, and a crash inside it takes down this
process rather than the chat.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from typing import Any

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
# Tokens one embedding input may have: llama.cpp embeds an input in one physical batch
# (512 by default, when a message of a few pages is 2,000), and its server refuses longer.
EMBEDDING_BATCH = 2048


def die_with_parent(parent: int) -> None:
    """Have the kernel SIGKILL this process when the thread that started it ends."""
    if sys.platform.startswith("linux"):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
            report(error=f"prctl(PR_SET_PDEATHSIG) failed: errno {ctypes.get_errno()}")
            os._exit(1)
    # The parent may have died before the prctl call, which then never fires.
    if os.getppid() != parent:
        os._exit(1)


def report(**fields: str) -> None:
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


def import_failure(exc: ImportError) -> tuple[str, str]:
    """(kind, line) for why xllamacpp does not import."""
    if isinstance(exc, ModuleNotFoundError) and (exc.name or "").split(".")[0] == "xllamacpp":
        return "missing", "the local model needs xllamacpp: pip install 'ctxchat[local]'"
    if "libgomp" in str(exc):
        return "libgomp", (
            "xllamacpp needs the OpenMP runtime libgomp.so.1, which is not installed "
            "(Debian and Ubuntu: apt-get install libgomp1)"
        )
    return "load", f"xllamacpp does not load: {exc}"


def server_params(xllamacpp: Any, options: dict[str, Any]) -> Any:
    params = xllamacpp.CommonParams()
    params.model.path = options["model"]
    params.model_alias = {options["alias"]}
    params.hostnames = [options["host"]]
    params.port = options["port"]  # 0: the kernel picks a free one, reported back
    params.n_ctx = options["context"]
    params.n_predict = options["reply_cap"]
    params.cpuparams.n_threads = options["threads"]
    params.cpuparams_batch.n_threads = options["threads"]
    params.cache_ram_mib = options["prompt_cache_mib"]
    params.sampling.ignore_eos = options["ignore_eos"]
    params.endpoint_props = True  # the window, for ctxchat's context budget
    params.n_parallel = 1
    if options["embedding"]:
        params.embedding = True
        params.n_batch = params.n_ubatch = EMBEDDING_BATCH
        if options["pooling"]:
            name = "LLAMA_POOLING_TYPE_" + options["pooling"].upper()
            params.pooling_type = getattr(xllamacpp.llama_pooling_type, name)
    return params


def main(argv: list[str]) -> None:
    options = json.loads(argv[0])
    die_with_parent(int(argv[1]))
    # The terminal's Ctrl-C is for the chat's reply, not for the server under it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        import xllamacpp
    except ImportError as exc:
        kind, line = import_failure(exc)
        report(error=line, kind=kind)
        os._exit(1)
    try:
        server = xllamacpp.Server(server_params(xllamacpp, options))
    except Exception as exc:  # llama.cpp's own words on a file it cannot load
        report(error=f"llama.cpp did not start: {exc}", kind="load")
        os._exit(1)
    report(address=str(server.listening_address))
    # Serve until the parent closes the pipe (or goes), then leave at once: the server's
    # destructor would wait for a request still streaming.
    sys.stdin.buffer.read()
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv[1:])
