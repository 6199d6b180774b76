"""What a user's own history says about a query, on SQLite and PostgreSQL: a word in a large
share of the user's messages (a name the other side greets them by) decides nothing and is
left out of the query's vector, and a message is lifted by a neighbour that matched."""

from __future__ import annotations

import asyncio
from pathlib import Path

from fakeopenai import FakeOpenAI

from ctxchat.core.messages import Message
from ctxchat.core.provider import ProviderEnv
from ctxchat.core.search import MessageHit, query_terms
from ctxchat.core.settings import EmbeddingSettings, ModelSettings
from ctxchat.providers.history.sql import SqlHistoryProvider
from ctxchat.services.embeddings import OpenAIEmbeddings

pytest_plugins = ["sqlfixtures"]


def history(url: str, env: ProviderEnv) -> SqlHistoryProvider:
    return SqlHistoryProvider("history", SqlHistoryProvider.Options(url=url, user="ana"), env=env)


def store(provider: SqlHistoryProvider, key: str, said: str, reply: str) -> None:
    messages = [Message.user(said), Message.assistant(reply)]
    asyncio.run(provider.save_messages(key, messages, state={}))


def search(provider: SqlHistoryProvider, query: str) -> list[MessageHit]:
    return asyncio.run(provider.search_messages(query_terms(query), limit=10))


def greeted(provider: SqlHistoryProvider, times: int) -> None:
    """`times` sessions in which the other side greets the user by name: "ana" is then in
    over a tenth of her messages."""
    for n in range(times):
        store(provider, f"greeting-{n}", f"morning number {n}", "Hi Ana, good to hear from you")


def test_a_name_in_many_messages_decides_nothing(sql_url: str, tmp_path: Path) -> None:
    provider = history(sql_url, ProviderEnv(data_dir=tmp_path))
    greeted(provider, 25)
    store(provider, "show", "any plans?", "Ana, the pottery show is on, Ana!")
    store(provider, "bowl", "I made a pottery bowl", "Lovely.")

    hits = search(provider, "When did Ana make pottery?")

    # Both hold "pottery"; only the name set the show's message above the bowl, and
    # nothing of the greetings is a hit.
    assert [h.key for h in hits[:2]] == ["bowl", "show"]
    assert not any(h.key.startswith("greeting") for h in hits)


def test_a_word_in_a_short_history_is_not_common(sql_url: str, tmp_path: Path) -> None:
    """A tenth of a few messages is one or two: a word must be in many to be common."""
    provider = history(sql_url, ProviderEnv(data_dir=tmp_path))
    store(provider, "one", "Hi Ana, did the kiln arrive?", "It did.")
    store(provider, "two", "the kiln is warm", "Good.")

    assert [h.key for h in search(provider, "Ana kiln")][:1] == ["one"]


def test_another_users_rows_never_make_a_word_common(sql_url: str, tmp_path: Path) -> None:
    """A database shared with a user whose history is full of the name is not hers."""
    env = ProviderEnv(data_dir=tmp_path)
    other = SqlHistoryProvider(
        "history", SqlHistoryProvider.Options(url=sql_url, user="bo"), env=env
    )
    greeted(other, 25)
    provider = history(sql_url, env)
    store(provider, "one", "Hi Ana, did the kiln arrive?", "It did.")
    store(provider, "two", "the kiln is warm", "Good.")

    assert [h.key for h in search(provider, "Ana kiln")][:1] == ["one"]


def test_the_querys_vector_leaves_the_common_name_out(
    sql_url: str, tmp_path: Path, model_settings: ModelSettings, fake_openai: FakeOpenAI
) -> None:
    embeddings = OpenAIEmbeddings(EmbeddingSettings(model="fake-embed"), model_settings)
    env = ProviderEnv(data_dir=tmp_path, message_embeddings=embeddings)
    provider = history(sql_url, env)
    greeted(provider, 25)
    store(provider, "group", "I went to the support group", "How was it?")

    hits = search(provider, "When did Ana go to the support group?")

    assert hits[0].key == "group"
    embedded = [t for r in fake_openai.embedding_requests() for t in r.body["input"]]
    assert embedded == ["When did go to the support group"]


def test_a_message_is_lifted_by_a_neighbour_that_matched(sql_url: str, tmp_path: Path) -> None:
    provider = history(sql_url, ProviderEnv(data_dir=tmp_path))
    store(provider, "short", "the lake", "Nice.")
    store(provider, "told", "I went to the lake", "the lake was calm")

    hits = search(provider, "lake")

    # Alone, the shorter message ranks above the other; beside a reply that matched too,
    # the other ranks first.
    order = [(h.key, h.role) for h in hits]
    assert order.index(("told", "user")) < order.index(("short", "user"))
    assert order.index(("told", "assistant")) < order.index(("short", "user"))
