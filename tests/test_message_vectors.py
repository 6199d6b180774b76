"""Message vectors and hybrid search, on SQLite and PostgreSQL: new messages embedded after
the turn, vectors that follow undo, delete, prune and fork, a failing endpoint (search by
words, one warning), and the recall block sized to the model's window. The embeddings come
from the HTTP fake (hashed words) through the real client."""

from __future__ import annotations

import asyncio
from pathlib import Path

from fakeopenai import FakeOpenAI
from historykit import raw_query

from ctxchat.core.agent import Agent
from ctxchat.core.model_types import ProviderWarning
from ctxchat.core.provider import ProviderEnv
from ctxchat.core.search import query_terms
from ctxchat.core.session import Session
from ctxchat.core.settings import EmbeddingSettings, ModelSettings
from ctxchat.providers.history.sql import SqlHistoryProvider
from ctxchat.providers.recall.provider import RecallProvider
from ctxchat.services.embeddings import OpenAIEmbeddings
from ctxchat.testing import ScriptedModel

pytest_plugins = ["sqlfixtures"]


def embedding_env(tmp_path: Path, settings: ModelSettings) -> ProviderEnv:
    embeddings = OpenAIEmbeddings(EmbeddingSettings(model="fake-embed"), settings)
    return ProviderEnv(data_dir=tmp_path, embeddings=embeddings, message_embeddings=embeddings)


def pipeline(
    url: str, env: ProviderEnv, model: ScriptedModel, user: str = "alice"
) -> tuple[Agent, SqlHistoryProvider]:
    history = SqlHistoryProvider("history", SqlHistoryProvider.Options(url=url, user=user), env=env)
    return Agent(model=model, providers=[history, RecallProvider("recall", env=env)]), history


def embedded(url: str) -> dict[str, int]:
    rows = raw_query(
        url,
        "SELECT history_key, count(*) FROM ctxchat_history "
        "WHERE embedding IS NOT NULL GROUP BY history_key",
    )
    return {str(key): int(n) for key, n in rows}


def search(history: SqlHistoryProvider, query: str, warnings: list[str] | None = None) -> list:
    sink = warnings.append if warnings is not None else None
    return asyncio.run(history.search_messages(query_terms(query), limit=10, warn=sink))


def test_new_messages_are_embedded_after_the_reply(
    sql_url: str, tmp_path: Path, model_settings: ModelSettings, fake_openai: FakeOpenAI
) -> None:
    agent, _ = pipeline(sql_url, embedding_env(tmp_path, model_settings), ScriptedModel("Noted."))
    session = Session()

    asyncio.run(agent.run(session, "I signed up for a pottery class on Tuesdays"))

    assert embedded(sql_url) == {session.id: 2}  # the input and the reply
    texts = [t for r in fake_openai.embedding_requests() for t in r.body["input"]]
    assert "I signed up for a pottery class on Tuesdays" in texts
    assert "Noted." in texts


def test_vectors_follow_undo_delete_and_fork(
    sql_url: str, tmp_path: Path, model_settings: ModelSettings
) -> None:
    env = embedding_env(tmp_path, model_settings)
    agent, history = pipeline(sql_url, env, ScriptedModel("Noted.", "Right.", "Ok."))
    first, second = Session(), Session()
    asyncio.run(agent.run(first, "the pottery class moved to Thursday"))
    asyncio.run(agent.run(second, "my pottery teacher is called Ines"))
    assert {h.key for h in search(history, "pottery")} == {first.id, second.id}

    # Undo: the turn's rows go, and their vectors with them; search never shows them again.
    asyncio.run(history.remove_last_turn(second.id, state={}))
    assert embedded(sql_url) == {first.id: 2}
    assert {h.key for h in search(history, "pottery")} == {first.id}

    # Fork: the copy has the vectors too, and is found by them.
    fork = Session()
    asyncio.run(history.fork_session(first, fork, {}, turns=first.turns))
    assert embedded(sql_url) == {first.id: 2, fork.id: 2}
    assert {h.key for h in search(history, "pottery")} == {first.id, fork.id}

    # Delete (as a session's deletion and prune do): gone, from search too.
    asyncio.run(history.forget_keys([first.id]))
    assert embedded(sql_url) == {fork.id: 2}
    assert {h.key for h in search(history, "pottery")} == {fork.id}


def test_hybrid_search_finds_what_shares_no_word_that_counts(
    sql_url: str, tmp_path: Path, model_settings: ModelSettings
) -> None:
    """Found by meaning alone: the fake's vectors count stop words, which the words' side
    leaves out of a query that has other words."""
    env = embedding_env(tmp_path, model_settings)
    agent, history = pipeline(sql_url, env, ScriptedModel("Noted.", "Right."))
    asyncio.run(agent.run(Session(), "what did you and I do there then"))
    asyncio.run(agent.run(Session(), "zebras graze"))

    words = ProviderEnv(data_dir=tmp_path)
    words_only = SqlHistoryProvider(
        "words", SqlHistoryProvider.Options(url=sql_url, user="alice"), env=words
    )
    query = "what did you and I do there then, zebras?"
    assert [h.text for h in search(words_only, query)] == ["zebras graze"]
    assert "what did you and I do there then" in [h.text for h in search(history, query)]


def test_a_failing_endpoint_searches_by_words_with_one_warning(
    sql_url: str, tmp_path: Path, model_settings: ModelSettings, fake_openai: FakeOpenAI
) -> None:
    env = embedding_env(tmp_path, model_settings)
    model = ScriptedModel("Noted.", "Sure.")
    agent, history = pipeline(sql_url, env, model)
    asyncio.run(agent.run(Session(), "I signed up for a pottery class on Tuesdays"))

    fake_openai.fail_embeddings_with = 500
    warnings: list[str] = []
    hits = search(history, "pottery class", warnings)
    assert [h.text for h in hits] == ["I signed up for a pottery class on Tuesdays"]
    assert len(warnings) == 1
    assert warnings[0].startswith("search by words only: embeddings from")

    # Through the recall provider: the turn goes on, recalls by words, and says so once
    # (not again for the new messages it could not embed).
    events: list[object] = []
    asyncio.run(agent.run(Session(), "when is my pottery class again?", on_event=events.append))
    said = [e for e in events if isinstance(e, ProviderWarning)]
    assert [(w.source_id, w.message.split(":")[0]) for w in said] == [
        ("recall", "search by words only")
    ]
    assert any(m.source_id == "recall" for m in model.requests[-1].messages)


def test_the_recall_block_is_sized_to_the_models_window(sql_url: str, tmp_path: Path) -> None:
    """A sixteenth of the window the model reports: more past messages in a larger one."""

    def block_size(window: int, topic: str) -> int:
        home = tmp_path / str(window)
        home.mkdir()
        model = ScriptedModel(*["Noted."] * 12, window=window)
        agent, _ = pipeline(sql_url, ProviderEnv(data_dir=home), model, user=f"u{window}")
        for n in range(8):
            asyncio.run(agent.run(Session(), f"the {topic} number {n} was lovely " * 6))
        asyncio.run(agent.run(Session(), f"tell me about the {topic}"))
        blocks = [m.text for m in model.requests[-1].messages if m.source_id == "recall"]
        return len(blocks[0].splitlines()) - 1 if blocks else 0

    small, large = block_size(2048, "pottery class"), block_size(32768, "violin lesson")
    assert 0 < small < large


def test_a_turns_new_vectors_join_the_cached_ones_without_a_reread(
    sql_url: str, tmp_path: Path, model_settings: ModelSettings
) -> None:
    """The user's vectors are read once a process; a turn's new ones are added to what was
    read, rather than every vector being read again (seconds at 100,000 messages)."""
    from ctxchat.providers.history import vectors

    agent, history = pipeline(
        sql_url, embedding_env(tmp_path, model_settings), ScriptedModel(*["Noted."] * 3)
    )
    asyncio.run(agent.run(Session(), "the pottery class moved to Thursday"))
    search(history, "pottery")  # the user's 2 vectors, read into the process
    [slot] = [s for s in vectors._CACHE if s[:2] == (history.database().url, "alice")]
    assert vectors._CACHE[slot].matrix.shape[0] == 2

    asyncio.run(agent.run(Session(), "my violin teacher is called Ines"))

    grown = vectors._CACHE[slot]
    assert grown.matrix.shape[0] == 4
    assert search(history, "violin teacher")[0].text == "my violin teacher is called Ines"
    assert vectors._CACHE[slot] is grown  # still current: nothing read again
