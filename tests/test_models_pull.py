"""`ctxchat models pull | list | rm` through real `ctxchat` processes, against a local
HTTP server answering as a model hub (`hubserver.py`): the `owner/repo FILE` path, a cut
download resumed, the size and SHA-256 checked, a partial file never under the model's
name, private modes. The pulled tiny model then runs by its short name, and alone in the
folder it is the model of a run with nothing configured."""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path

import pytest
from cli_support import assert_clean_error, ctxchat
from hubserver import hub_server
from llamakit import tiny_model
from localkit import llama_children, local_env

pytestmark = pytest.mark.slow

REPO = "someone/tiny-GGUF"
FILE = "Tiny-135M-Instruct-Q4_1.gguf"


def fake_gguf(folder: Path, size: int = 3 << 20) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / FILE
    path.write_bytes(b"GGUF" + os.urandom(size - 4))
    return path


def hub_env(home: Path, hub_url: str) -> dict[str, str]:
    return {**local_env(home), "HF_ENDPOINT": hub_url}


def test_a_cut_pull_keeps_no_model_and_the_next_one_resumes_it(
    ctxchat_home: Path, tmp_path: Path
) -> None:
    source = fake_gguf(tmp_path / "hub")
    with hub_server({f"{REPO}/{FILE}": source}) as hub:
        env = hub_env(ctxchat_home, hub.base_url)
        hub.cut_after = 1 << 20
        cut = ctxchat("models", "pull", REPO, FILE, env=env)
        assert_clean_error(cut, 1, "pull again to resume")
        models = ctxchat_home / "models"
        assert not (models / FILE).exists()  # a partial file never has the model's name
        listed = ctxchat("models", "list", env=env)
        assert FILE not in listed.stdout

        done = ctxchat("models", "pull", f"{REPO}/{FILE}", env=env)
        assert done.returncode == 0, done.stderr
        assert "--model tiny-135m" in done.stderr
        assert hub.ranges  # resumed, not started again
        assert hub.ranges[-1] != "bytes=0-"
    kept = models / FILE
    assert kept.read_bytes() == source.read_bytes()
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert stat.S_IMODE(models.stat().st_mode) == 0o700
    assert [p.name for p in models.iterdir()] == [FILE]  # no .part left behind

    listed = ctxchat("models", "list", env=env)
    assert listed.returncode == 0, listed.stderr
    assert "tiny-135m" in listed.stdout
    removed = ctxchat("models", "rm", "tiny-135m", env=env)
    assert removed.returncode == 0, removed.stderr
    assert not kept.exists()
    assert_clean_error(ctxchat("models", "rm", "tiny-135m", env=env), 2, "no model 'tiny-135m'")


def test_a_file_that_is_not_what_the_source_says_is_not_kept(
    ctxchat_home: Path, tmp_path: Path
) -> None:
    source = fake_gguf(tmp_path / "hub")
    with hub_server({f"{REPO}/{FILE}": source}) as hub:
        env = hub_env(ctxchat_home, hub.base_url)
        hub.wrong_sha256 = True
        wrong = ctxchat("models", "pull", REPO, FILE, env=env)
        assert_clean_error(wrong, 1, "SHA-256", "nothing was kept")
        assert list((ctxchat_home / "models").iterdir()) == []

        digest = hashlib.sha256(source.read_bytes()).hexdigest()
        url = f"{hub.base_url}/blobs/{REPO}/{FILE}"
        bad = ctxchat("models", "pull", f"{url}#sha256={'1' * 64}", env=env)
        assert_clean_error(bad, 1, "SHA-256", "nothing was kept")
        good = ctxchat("models", "pull", f"{url}#sha256={digest}", env=env)
        assert good.returncode == 0, good.stderr
    assert (ctxchat_home / "models" / FILE).read_bytes() == source.read_bytes()
    for source_arg in ("just-a-name", f"{REPO}/notes.txt", "http://h/x.bin"):
        assert_clean_error(ctxchat("models", "pull", source_arg, env=env), 2)


def test_the_pulled_tiny_model_runs_by_its_short_name_and_alone_by_default(
    ctxchat_home: Path, tmp_path: Path
) -> None:
    with hub_server({f"{REPO}/{FILE}": tiny_model()}) as hub:
        env = hub_env(ctxchat_home, hub.base_url)
        pulled = ctxchat("models", "pull", REPO, FILE, env=env, timeout=120)
        assert pulled.returncode == 0, pulled.stderr
    kept = ctxchat_home / "models" / FILE
    named = ctxchat("run", "--json", "--model", "tiny-135m", "Say hello.", env=env)
    assert named.returncode == 0, named.stderr
    assert json.loads(named.stdout)["model"] == FILE.removesuffix(".gguf")
    alone = ctxchat("run", "--json", "Say hello.", env=env)  # no server, no key, one model
    assert alone.returncode == 0, alone.stderr
    assert json.loads(alone.stdout)["output"].strip()
    assert llama_children(kept) == []
