"""Embedding and hybrid rankers through the real `openai` client against the fake server."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import openai
import pytest
from fakeopenai import FakeOpenAI, fake_embedding

from ctxchat.ranking import ToolDoc, build_ranker, rank_turn
from ctxchat.ranking.embedding import EmbeddingError, EmbeddingRanker, openai_embedder
from ctxchat.ranking.hybrid import HybridRanker, blend

TOOLS = [
    ToolDoc("get_weather", "Current weather and forecast for a city."),
    ToolDoc("send_email", "Send an email message to a recipient."),
    ToolDoc("book_flight", "Book a flight between two airports."),
    ToolDoc("cancel_booking", "Cancel a flight booking."),
]


def client(server: FakeOpenAI) -> openai.AsyncOpenAI:
    return openai.AsyncOpenAI(base_url=server.base_url, api_key="test", max_retries=0)


@pytest.mark.parametrize("kind", ["embedding", "hybrid"])
def test_the_right_tool_wins_over_http(fake_openai: FakeOpenAI, kind: str) -> None:
    async def go() -> list[str]:
        embed = openai_embedder(client(fake_openai), "fake-embed")
        ranker = await build_ranker(kind, TOOLS, embed=embed)  # type: ignore[arg-type]
        found = await rank_turn(ranker, [], "send an email to my boss", k=2)
        return [item.id for item in found]

    assert asyncio.run(go())[0] == "send_email"
    requests = fake_openai.embedding_requests()
    assert requests[0].body["model"] == "fake-embed"
    # The catalogue in one batch: each tool's text, then each tool's name as words.
    assert len(requests[0].body["input"]) == 2 * len(TOOLS)
    assert requests[0].body["input"][len(TOOLS)] == "get weather"


def test_each_turn_embeds_only_its_new_message(fake_openai: FakeOpenAI) -> None:
    async def go() -> None:
        embed = openai_embedder(client(fake_openai), "fake-embed")
        ranker = await build_ranker("hybrid", TOOLS, embed=embed)
        fake_openai.clear()
        history: list[tuple[str, str]] = []
        for text in ["book a flight to Rome", "what is the weather there", "now cancel it"]:
            await rank_turn(ranker, history, text, recent=2)
            history.append(("user", text))
            history.append(("assistant", "ok"))
        inputs = [request.body["input"] for request in fake_openai.embedding_requests()]
        assert inputs == [
            ["book a flight to Rome"],
            ["what is the weather there", "ok"],
            ["now cancel it"],
        ]

    asyncio.run(go())


def test_batches_and_count_mismatch(fake_openai: FakeOpenAI) -> None:
    async def go() -> None:
        embed = openai_embedder(client(fake_openai), "fake-embed")
        await build_ranker("embedding", TOOLS, embed=embed, batch_size=3)
        sizes = [len(r.body["input"]) for r in fake_openai.embedding_requests()]
        assert sizes == [3, 3, 2]  # 4 texts and 4 names

        async def short(texts: list[str]) -> list[list[float]]:
            return [[1.0, 0.0]]

        with pytest.raises(EmbeddingError, match="asked for 8"):
            await build_ranker("embedding", TOOLS, embed=short)

    asyncio.run(go())


def test_endpoint_failure_raises_the_client_error(fake_openai: FakeOpenAI) -> None:
    """The selector falls back to lexical on this error; the ranking layer only reports it."""
    fake_openai.fail_embeddings_with = 500

    async def go() -> None:
        embed = openai_embedder(client(fake_openai), "fake-embed")
        await build_ranker("hybrid", TOOLS, embed=embed)

    with pytest.raises(openai.InternalServerError):
        asyncio.run(go())


def test_hybrid_blends_normalised_scores() -> None:
    import numpy as np

    lexical = np.array([4.0, 0.0, 2.0], dtype=np.float32)
    cosines = np.array([0.2, 0.6, 0.4], dtype=np.float32)
    fused = blend(lexical, cosines, 0.5)
    assert fused.tolist() == pytest.approx([0.5, 0.5, 0.5])
    assert blend(lexical, cosines, 0.0).tolist() == pytest.approx([0.0, 1.0, 0.5])
    flat = blend(np.zeros(3, dtype=np.float32), np.full(3, 0.3, dtype=np.float32), 0.3)
    assert flat.tolist() == [0.0, 0.0, 0.0]


def test_hybrid_ranks_with_both_parts_and_shows_them() -> None:

    async def embed(texts: list[str]) -> list[list[float]]:
        return [fake_embedding(text, 256) for text in texts]

    async def go() -> list[str]:
        ranker = await build_ranker("hybrid", TOOLS, embed=embed)
        assert isinstance(ranker, HybridRanker)
        found = await ranker.rank((("forecast for Oslo", 1.0),))
        assert dict(found[0].detail).keys() == {"lexical", "embedding"}
        return [item.id for item in found]

    assert asyncio.run(go())[0] == "get_weather"


def test_empty_query_and_empty_catalogue() -> None:
    async def embed(texts: list[str]) -> list[list[float]]:
        return [fake_embedding(text, 16) for text in texts]

    async def go() -> None:
        ranker = await build_ranker("hybrid", TOOLS, embed=embed)
        assert await ranker.rank(()) == []
        empty = await build_ranker("embedding", [], embed=embed)
        assert isinstance(empty, EmbeddingRanker)
        assert await empty.rank((("anything", 1.0),)) == []

    asyncio.run(go())


def test_embedding_kinds_need_an_embed_function() -> None:
    with pytest.raises(ValueError, match="needs an embed function"):
        asyncio.run(build_ranker("hybrid", TOOLS))


def test_importing_ranking_does_not_import_numpy() -> None:
    code = (
        "import sys\n"
        "import ctxchat.ranking, ctxchat.ranking.embedding, ctxchat.ranking.hybrid\n"
        "import ctxchat.ranking.cache, ctxchat.ranking.evaluate, ctxchat.ranking.selection\n"
        "assert 'numpy' not in sys.modules, 'numpy imported'\n"
        "assert 'openai' not in sys.modules, 'openai imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_centring_takes_out_what_every_document_shares() -> None:
    import numpy as np

    from ctxchat.ranking.embedding import centred, normalise

    rows = normalise(np.array([[1.0, 1.0, 0.0], [1.0, 0.0, 1.0]], dtype=np.float32))
    result = centred(rows)
    # The direction both share (the first axis) is gone; each row is a unit vector again.
    assert result[:, 0].tolist() == pytest.approx([0.0, 0.0], abs=1e-6)
    assert np.linalg.norm(result, axis=1).tolist() == pytest.approx([1.0, 1.0])
    assert result[0].tolist() == pytest.approx([0.0, 0.70710677, -0.70710677])
    one = rows[:1]
    assert centred(one) is one  # a single document has nothing to share


def test_the_name_is_a_second_field_unless_the_tool_text_is_custom() -> None:
    import numpy as np

    from ctxchat.ranking.embedding import build_vector_index, centred, normalise

    seen: list[str] = []

    async def embed(texts: list[str]) -> list[list[float]]:
        seen.extend(texts)
        return [fake_embedding(text, 16) for text in texts]

    asyncio.run(build_ranker("embedding", TOOLS, embed=embed, tool_text=lambda t: t.description))
    assert seen == [tool.description for tool in TOOLS]
    seen.clear()
    # A document's row is the weighted mean of its fields' centred unit vectors.
    documents = [("a", "alpha beta"), ("b", "gamma delta"), ("c", "beta gamma")]
    names = ["one", "two", "three"]
    index = asyncio.run(build_vector_index(documents, embed, extra_fields=[(names, 0.5)]))
    assert seen == ["alpha beta", "gamma delta", "beta gamma", "one", "two", "three"]
    texts = np.array([fake_embedding(t, 16) for t in seen], dtype=np.float32)
    fields = [centred(normalise(texts[:3])), centred(normalise(texts[3:]))]
    expected = (fields[0] + 0.5 * fields[1]) / 1.5
    assert np.allclose(index.matrix, expected, atol=1e-6)
    with pytest.raises(ValueError, match="one text per document"):
        asyncio.run(build_vector_index(documents, embed, extra_fields=[(names[:2], 0.5)]))
