"""The tool vectors cached on disk: change, remove, add, restart, corruption, privacy."""

from __future__ import annotations

import asyncio
import stat
from pathlib import Path

import pytest
from fakeopenai import fake_embedding

from ctxchat.ranking import ToolDoc, build_ranker
from ctxchat.ranking.cache import VectorCache, endpoint_identity, ranker_identity, text_key
from ctxchat.ranking.embedding import EmbeddingRanker
from ctxchat.ranking.selection import tool_documents
from ctxchat.ranking.tooltext import name_words

IDENTITY = ranker_identity("fake-model", "http://127.0.0.1:1/v1")
TOOLS = [
    ToolDoc("get_weather", "Current weather and forecast for a city."),
    ToolDoc("send_email", "Send an email message to a recipient."),
    ToolDoc("book_flight", "Book a flight between two airports."),
]


class CountingEmbed:
    """A deterministic embed function (hashed bag of words) that counts the texts it gets."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    async def __call__(self, texts: list[str]) -> list[list[float]]:
        self.texts.extend(texts)
        return [fake_embedding(text, 32) for text in texts]


def build(tools: list[ToolDoc], cache_dir: Path, embed: CountingEmbed) -> EmbeddingRanker:
    ranker = asyncio.run(
        build_ranker("embedding", tools, embed=embed, identity=IDENTITY, cache_dir=cache_dir)
    )
    assert isinstance(ranker, EmbeddingRanker)
    return ranker


def cached_keys(cache_dir: Path) -> set[str]:
    return set(VectorCache(cache_dir, IDENTITY).load())


def texts_of(tools: list[ToolDoc]) -> set[str]:
    """What is embedded for a catalogue: each tool's text and its name as words."""
    return {text for _, text in tool_documents(tools)} | {name_words(t.name) for t in tools}


def test_restart_embeds_nothing(tmp_path: Path) -> None:
    first = CountingEmbed()
    build(TOOLS, tmp_path, first)
    assert set(first.texts) == texts_of(TOOLS)
    assert len(first.texts) == 2 * len(TOOLS)
    again = CountingEmbed()
    ranker = build(TOOLS, tmp_path, again)
    assert again.texts == []
    assert ranker.ids == tuple(tool.name for tool in TOOLS)


def test_a_changed_tool_is_embedded_again_and_only_it(tmp_path: Path) -> None:
    build(TOOLS, tmp_path, CountingEmbed())
    changed = [*TOOLS[:2], ToolDoc("book_flight", "Reserve seats on a plane.")]
    embed = CountingEmbed()
    ranker = build(changed, tmp_path, embed)
    assert len(embed.texts) == 1
    assert "Reserve seats" in embed.texts[0]
    new_text = dict(tool_documents(changed))["book_flight"]
    old_text = dict(tool_documents(TOOLS))["book_flight"]
    assert cached_keys(tmp_path) == {text_key(text) for text in texts_of(changed)}
    assert text_key(old_text) not in cached_keys(tmp_path)
    assert text_key(new_text) in cached_keys(tmp_path)
    found = asyncio.run(ranker.rank((("reserve seats plane", 1.0),), k=1))
    assert found[0].id == "book_flight"


def test_a_removed_tool_disappears_and_an_added_one_is_embedded(tmp_path: Path) -> None:
    build(TOOLS, tmp_path, CountingEmbed())
    embed = CountingEmbed()
    build(TOOLS[:2], tmp_path, embed)
    assert embed.texts == []
    assert cached_keys(tmp_path) == {text_key(text) for text in texts_of(TOOLS[:2])}
    added = [*TOOLS[:2], ToolDoc("translate", "Translate text into another language.")]
    embed = CountingEmbed()
    ranker = build(added, tmp_path, embed)
    assert embed.texts == [dict(tool_documents(added))["translate"], "translate"]
    assert "translate" in ranker.ids
    assert "book_flight" not in ranker.ids


def test_another_model_or_endpoint_does_not_reuse_vectors(tmp_path: Path) -> None:
    build(TOOLS, tmp_path, CountingEmbed())
    embed = CountingEmbed()
    other = ranker_identity("other-model", "http://127.0.0.1:1/v1")
    asyncio.run(build_ranker("embedding", TOOLS, embed=embed, identity=other, cache_dir=tmp_path))
    assert len(embed.texts) == 2 * len(TOOLS)
    assert endpoint_identity("HTTP://User:pw@LocalHost:8080/v1/?x=1") == (
        "http://localhost:8080/v1"
    )


@pytest.mark.parametrize(
    "damage",
    [
        b"",
        b"not json at all",
        b'{"format": "ctxchat-vectors", "version": 1}\n',
        b"[1, 2]\n",
        b"\xff\xfe garbage\n\x00\x01",
    ],
)
def test_a_corrupt_cache_is_ignored_and_rebuilt(tmp_path: Path, damage: bytes) -> None:
    build(TOOLS, tmp_path, CountingEmbed())
    (path,) = tmp_path.glob("*.vectors")
    path.write_bytes(damage)
    embed = CountingEmbed()
    build(TOOLS, tmp_path, embed)
    assert len(embed.texts) == 2 * len(TOOLS)
    again = CountingEmbed()
    build(TOOLS, tmp_path, again)
    assert again.texts == []


def test_a_truncated_or_foreign_cache_is_ignored(tmp_path: Path) -> None:
    build(TOOLS, tmp_path, CountingEmbed())
    (path,) = tmp_path.glob("*.vectors")
    raw = path.read_bytes()
    path.write_bytes(raw[:-5])  # rows cut short
    assert VectorCache(tmp_path, IDENTITY).load() == {}
    path.write_bytes(raw.replace(b"fake-model", b"fake-modeX", 1))  # another identity
    assert VectorCache(tmp_path, IDENTITY).load() == {}


def test_cache_files_are_private(tmp_path: Path) -> None:
    cache_dir = tmp_path / "cache" / "vectors"
    build(TOOLS, cache_dir, CountingEmbed())
    (path,) = cache_dir.glob("*.vectors")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(cache_dir.stat().st_mode) == 0o700
    assert stat.S_IMODE((tmp_path / "cache").stat().st_mode) == 0o700
    assert [p.name for p in cache_dir.iterdir()] == [path.name]  # no temp files left


def test_without_a_cache_dir_nothing_is_written(tmp_path: Path) -> None:
    embed = CountingEmbed()
    asyncio.run(build_ranker("embedding", TOOLS, embed=embed))
    assert len(embed.texts) == 2 * len(TOOLS)
    assert list(tmp_path.iterdir()) == []


class SizedEmbed(CountingEmbed):
    """The same texts at another vector size: a model swapped behind the same name."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    async def __call__(self, texts: list[str]) -> list[list[float]]:
        self.texts.extend(texts)
        return [fake_embedding(text, self.size) for text in texts]


def cached_size(cache_dir: Path) -> int:
    (vector, *_) = VectorCache(cache_dir, IDENTITY).load().values()
    return int(vector.shape[0])


def test_vectors_of_another_size_under_the_same_name_are_embedded_again(tmp_path: Path) -> None:
    """Issue 21, item 10: every tool found in the cache at the old size, the query at the
    new one, and "ranking by meaning failed" on every turn."""
    build(TOOLS, tmp_path, CountingEmbed())  # 32 dimensions
    wider = SizedEmbed(48)
    ranker = build(TOOLS, tmp_path, wider)
    assert wider.texts == []  # all found in the cache: the size shows with the query
    found = asyncio.run(ranker.rank((("book a flight", 1.0),), k=1))
    assert found[0].id == "book_flight"
    assert set(wider.texts) >= texts_of(TOOLS)
    assert cached_size(tmp_path) == 48
    again = SizedEmbed(48)
    asyncio.run(build(TOOLS, tmp_path, again).rank((("book a flight", 1.0),), k=1))
    assert again.texts == ["book a flight"]  # the cache holds the new size now


def test_a_new_tool_at_another_size_rewrites_the_whole_cache(tmp_path: Path) -> None:
    build(TOOLS, tmp_path, CountingEmbed())
    added = [*TOOLS, ToolDoc("translate", "Translate text into another language.")]
    build(added, tmp_path, SizedEmbed(48))
    assert cached_size(tmp_path) == 48
    assert cached_keys(tmp_path) == {text_key(text) for text in texts_of(added)}
    again = SizedEmbed(48)
    build(added, tmp_path, again)
    assert again.texts == []
