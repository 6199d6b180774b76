"""Which GGUF file a run loads (`services.local_model.choose_local_model`), the names kept
models answer to (`storage.model_files`), and the threads llama.cpp gets (`free_cores`).
In process, on real files in a temp dir: no server starts here."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctxchat.core.errors import ModelNotConfigured, UsageError
from ctxchat.core.settings import ModelSettings
from ctxchat.services.free_cores import free_threads, usable_cores
from ctxchat.services.local_model import choose_local_model
from ctxchat.storage.model_files import find_model, is_gguf, list_models, remove_model, short_name

GGUF = b"GGUF\x03\x00\x00\x00"


def kept(folder: Path, *names: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        (folder / name).write_bytes(GGUF)
    return folder


@pytest.mark.parametrize(
    ("stem", "short"),
    [
        ("qwen2.5-1.5b-instruct-q4_k_m", "qwen2.5-1.5b"),
        ("SmolLM2-135M-Instruct.Q4_1", "smollm2-135m"),
        ("Llama-3.2-1B-Instruct-IQ3_XXS", "llama-3.2-1b"),
        ("nomic-embed-text-v1.5.f16", "nomic-embed-text-v1.5"),
        ("phi-2", "phi-2"),
    ],
)
def test_a_kept_model_has_a_short_name_without_its_quantisation(stem: str, short: str) -> None:
    assert short_name(stem) == short


def test_a_kept_model_is_found_by_its_file_name_stem_or_short_name(tmp_path: Path) -> None:
    folder = kept(tmp_path, "Qwen2.5-1.5B-Instruct-Q4_K_M.gguf", "notes.txt")
    assert [m.path.name for m in list_models(folder)] == ["Qwen2.5-1.5B-Instruct-Q4_K_M.gguf"]
    for name in (
        "qwen2.5-1.5b",
        "Qwen2.5-1.5B-Instruct-Q4_K_M",
        "qwen2.5-1.5b-instruct-q4_k_m.gguf",
    ):
        found = find_model(folder, name)
        assert found is not None
        assert found.path == folder / "Qwen2.5-1.5B-Instruct-Q4_K_M.gguf"
    assert find_model(folder, "qwen2.5") is None
    assert list_models(tmp_path / "none") == []


def test_a_short_name_two_files_share_is_refused_and_rm_removes_one(tmp_path: Path) -> None:
    folder = kept(tmp_path, "qwen2.5-1.5b-q4_0.gguf", "qwen2.5-1.5b-q8_0.gguf")
    with pytest.raises(UsageError, match="names 2 models"):
        find_model(folder, "qwen2.5-1.5b")
    removed = remove_model(folder, "qwen2.5-1.5b-q8_0")
    assert removed.path.name == "qwen2.5-1.5b-q8_0.gguf"
    assert [m.path.name for m in list_models(folder)] == ["qwen2.5-1.5b-q4_0.gguf"]
    with pytest.raises(UsageError, match="no model 'gone'"):
        remove_model(folder, "gone")


def test_a_gguf_is_known_by_its_first_bytes(tmp_path: Path) -> None:
    (tmp_path / "a.gguf").write_bytes(GGUF)
    (tmp_path / "b.gguf").write_bytes(b"<html>")
    assert is_gguf(tmp_path / "a.gguf")
    assert not is_gguf(tmp_path / "b.gguf")
    assert not is_gguf(tmp_path / "c.gguf")


def choose(settings: ModelSettings, models: Path, **environ: str) -> tuple[Path, str] | None:
    choice = choose_local_model(
        settings, models=models, config_dir=Path("/etc/ctxchat"), environ=environ
    )
    return None if choice is None else (choice.path, choice.why)


def test_a_named_file_or_path_is_the_model_whatever_else_is_set(tmp_path: Path) -> None:
    models = tmp_path / "models"
    server = ModelSettings(base_url="http://localhost:8080/v1", api_key="sk-1")
    assert choose(ModelSettings(path="m.gguf"), models) == (Path("/etc/ctxchat/m.gguf"), "named")
    assert choose(ModelSettings(path="/abs/m.gguf", base_url="http://h/v1"), models) == (
        Path("/abs/m.gguf"),
        "named",
    )
    named = ModelSettings(model="./x.GGUF", base_url=server.base_url)
    assert choose(named, models) == (Path("x.GGUF"), "named")
    assert choose(server, models) is None


def test_a_pulled_models_name_picks_it_unless_a_server_is_set(tmp_path: Path) -> None:
    models = kept(tmp_path / "models", "qwen2.5-1.5b-instruct-q4_k_m.gguf")
    file = models / "qwen2.5-1.5b-instruct-q4_k_m.gguf"
    assert choose(ModelSettings(model="qwen2.5-1.5b", api_key="sk-1"), models) == (file, "named")
    assert choose(ModelSettings(model="gpt-4o-mini"), models) is None
    on_server = ModelSettings(model="qwen2.5-1.5b", base_url="http://localhost:8080/v1")
    assert choose(on_server, models) is None


def test_with_nothing_set_the_one_pulled_model_runs_and_several_are_listed(
    tmp_path: Path,
) -> None:
    models = kept(tmp_path / "models", "a-q4_0.gguf")
    assert choose(ModelSettings(), models) == (models / "a-q4_0.gguf", "pulled")
    assert choose(ModelSettings(api_key="sk-1"), models) is None  # OpenAI stays the default
    assert choose(ModelSettings(base_url="http://localhost:8080/v1"), models) is None
    assert choose(ModelSettings(), models, CTXCHAT_LOCAL="0") is None
    kept(models, "b-instruct.gguf")
    with pytest.raises(ModelNotConfigured, match=r"keeps 2: a, b; name one with --model"):
        choose(ModelSettings(), models)


def test_the_threads_are_the_free_cores_and_at_least_one(tmp_path: Path) -> None:
    assert 1 <= free_threads() <= usable_cores()
    unreadable = tmp_path / "stat"
    unreadable.write_text("nothing here\n", "ascii")
    assert free_threads(unreadable, 0) == 1  # cannot say: the safe choice on a busy machine


def test_a_local_model_without_an_embeddings_endpoint_has_no_embeddings(
    tmp_path: Path, ctxchat_home: Path
) -> None:
    from dataclasses import replace

    from ctxchat.config.loading import load_config
    from ctxchat.core.settings import EmbeddingSettings
    from ctxchat.services.build import build_env

    served = load_config(None, environ={"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"})
    local = replace(served, origins={**served.origins, "model": "local"})  # as use_local_model
    assert build_env(served).embeddings is not None
    assert build_env(local).embeddings is None  # `auto` stays lexical; nothing is probed
    own = replace(local, embeddings=EmbeddingSettings(base_url="http://127.0.0.1:9/v1"))
    assert build_env(own).embeddings is not None


def test_an_embeddings_path_is_read_from_the_config_files_folder_and_checked(
    tmp_path: Path,
) -> None:
    from ctxchat.core.options import OptionValueError
    from ctxchat.core.settings import EmbeddingSettings
    from ctxchat.services.local_embeddings import embedding_file

    assert embedding_file(EmbeddingSettings(), tmp_path) is None  # a server's, or none
    named = EmbeddingSettings(path="models/bge.gguf", pooling="cls")
    assert embedding_file(named, tmp_path) == tmp_path / "models" / "bge.gguf"
    with pytest.raises(OptionValueError, match="path: and base_url name two endpoints"):
        EmbeddingSettings(path="bge.gguf", base_url="http://127.0.0.1:9/v1")
    with pytest.raises(OptionValueError, match="pooling: must be one of mean, cls, last"):
        EmbeddingSettings(path="bge.gguf", pooling="max")
