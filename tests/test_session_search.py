"""Searching the stored history by words, on SQLite and PostgreSQL: ranking, snippets,
unicode, query text that is never SQL, the index built from history stored before it, and
deletions that leave no hits behind."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from historykit import raw_execute, raw_query

from ctxchat.core.messages import Message
from ctxchat.core.provider import ProviderEnv
from ctxchat.core.search import MessageHit, query_terms, snippet_spans
from ctxchat.providers.history.schema import _history_table, _m1_history, _m2_token_counts
from ctxchat.providers.history.sql import SqlHistoryProvider
from ctxchat.storage.sql.schema import Store
from ctxchat.storage.sql.store import close_all, open_database

pytest_plugins = ["sqlfixtures"]


def history(url: str, tmp_path: Path) -> SqlHistoryProvider:
    return SqlHistoryProvider(
        "history", SqlHistoryProvider.Options(url=url), env=ProviderEnv(data_dir=tmp_path)
    )


def store(provider: SqlHistoryProvider, key: str, *texts: str) -> None:
    """One turn under `key`: the texts alternate user, assistant."""
    messages = [
        Message.user(t) if i % 2 == 0 else Message.assistant(t) for i, t in enumerate(texts)
    ]
    asyncio.run(provider.save_messages(key, messages, state={}))


def search(provider: SqlHistoryProvider, query: str, limit: int = 10) -> list[MessageHit]:
    return asyncio.run(provider.search_messages(query_terms(query), limit=limit))


def matched(hit: MessageHit) -> list[str]:
    return [text for text, is_match in snippet_spans(hit.snippet) if is_match]


def test_the_message_that_says_it_most_ranks_first(sql_url: str, tmp_path: Path) -> None:
    provider = history(sql_url, tmp_path)
    store(provider, "a", "we talked about the weather and lunch today")
    store(provider, "b", "the database: which database, and where the database runs")
    store(provider, "c", "a database was mentioned once among many other words here")

    hits = search(provider, "database")

    assert [h.key for h in hits] == ["b", "c"]


def test_any_word_may_match_and_all_words_rank_first(sql_url: str, tmp_path: Path) -> None:
    provider = history(sql_url, tmp_path)
    store(provider, "b", "the database is sqlite, the database is small, a database")
    store(provider, "a", "postgres is the database we chose")
    store(provider, "c", "lunch at noon")

    assert [h.key for h in search(provider, "database postgres")] == ["a", "b"]


def test_a_phrase_ranks_above_the_same_words_apart(sql_url: str, tmp_path: Path) -> None:
    provider = history(sql_url, tmp_path)
    store(provider, "apart", "learning to cook, and a new language")
    store(provider, "phrase", "language learning, and to cook new")

    assert [h.key for h in search(provider, "language learning")] == ["phrase", "apart"]


def test_stop_words_never_decide_a_match(sql_url: str, tmp_path: Path) -> None:
    provider = history(sql_url, tmp_path)
    store(provider, "stops", "what did you do with it when it was there")
    store(provider, "word", "the pottery class")

    assert [h.key for h in search(provider, "what did you do with the pottery")] == ["word"]
    assert [h.key for h in search(provider, "what was there")] == ["stops"]  # only stops


def test_a_word_finds_its_other_forms(sql_url: str, tmp_path: Path) -> None:
    provider = history(sql_url, tmp_path)
    store(provider, "a", "I painted a sunrise last week")

    (hit,) = search(provider, "painting")

    assert hit.key == "a"
    assert matched(hit) == ["painted"]


def test_a_word_finds_exactly_its_stems_forms(sql_url: str, tmp_path: Path) -> None:
    """Asked for as exact tokens (`ctxchat.ranking.inflections`): every inflection, the -y
    to -ies one too, and no longer word that merely begins with the stem."""
    provider = history(sql_url, tmp_path)
    store(provider, "a", "she studies at night", "we are stopping here", "they stopped", "it stops")
    store(provider, "b", "a study of light", "the stopwatch broke", "a studio downtown")

    assert sorted(h.text for h in search(provider, "study")) == [
        "a study of light",
        "she studies at night",
    ]
    assert sorted(h.text for h in search(provider, "stop")) == [
        "it stops",
        "they stopped",
        "we are stopping here",
    ]


def test_a_word_that_begins_many_others_finds_only_its_own(sql_url: str, tmp_path: Path) -> None:
    provider = history(sql_url, tmp_path)
    others = [f"the paint{suffix} is here" for suffix in ("er", "ball", "brush", "erly", "box")]
    others += [f"paintqz{n} again" for n in range(40)]  # tokens the stem begins, many
    store(provider, "a", *others)
    store(provider, "b", "I painted the fence", "fine")

    assert [(h.key, h.text) for h in search(provider, "painting")] == [("b", "I painted the fence")]


def test_a_word_is_found_at_the_head_of_a_file_name_or_address(
    sql_url: str, tmp_path: Path
) -> None:
    """PostgreSQL's parser keeps these whole ("birds.txt" is one lexeme), SQLite's splits
    them: both find the word."""
    provider = history(sql_url, tmp_path)
    store(provider, "a", "open birds.txt", "write to bird@example.org", "see birds.example.com")
    store(provider, "b", "nothing here", "fine")

    assert len(search(provider, "bird")) == 3


def test_a_hit_says_its_role_and_highlights_the_words(sql_url: str, tmp_path: Path) -> None:
    provider = history(sql_url, tmp_path)
    store(provider, "a", "what did we decide?", "We decided on PostgreSQL for the database.")

    (hit,) = search(provider, "postgresql")

    assert (hit.key, hit.seq, hit.role) == ("a", 2, "assistant")
    assert matched(hit) == ["PostgreSQL"]
    assert "".join(t for t, _ in snippet_spans(hit.snippet)).startswith("We decided on")
    assert hit.created_at.tzinfo is not None


def test_a_snippet_of_a_long_message_is_short(sql_url: str, tmp_path: Path) -> None:
    provider = history(sql_url, tmp_path)
    filler = " ".join(f"word{i}" for i in range(400))
    store(provider, "a", f"{filler} needle {filler}")

    (hit,) = search(provider, "needle")

    assert matched(hit) == ["needle"]
    assert len(hit.snippet) < 300


@pytest.mark.parametrize(
    ("stored", "query"),
    [
        ("Встреча в понедельник", "понедельник"),
        ("会議は東京で行います", "会議は東京で行います"),
        ("Die Straße ist grün", "grün"),
        ("emoji 🎉 party", "party"),
    ],
)
def test_words_of_any_script_are_found(
    sql_url: str, tmp_path: Path, stored: str, query: str
) -> None:
    provider = history(sql_url, tmp_path)
    store(provider, "a", stored)
    store(provider, "b", "unrelated text")

    assert [h.key for h in search(provider, query)] == ["a"]


def test_sqlite_folds_case_and_accents(sqlite_url: str, tmp_path: Path) -> None:
    provider = history(sqlite_url, tmp_path)
    store(provider, "a", "Un CAFÉ à l'ÉCOLE")

    assert [h.key for h in search(provider, "cafe ecole")] == ["a"]


@pytest.mark.parametrize(
    "query",
    [
        '"',
        "'; DROP TABLE ctxchat_history; --",
        "a AND OR NOT (",
        "col:x*",
        "NEAR(a b)",
        "\\",
        "-near",
        "colx* OR drop",
        "table:*",
        "{near}",
    ],
)
def test_query_syntax_is_never_sql(sql_url: str, tmp_path: Path, query: str) -> None:
    provider = history(sql_url, tmp_path)
    store(provider, "a", "drop table and or not near col x a b")

    search(provider, query)  # no error, whatever it finds

    assert raw_query(sql_url, "SELECT count(*) FROM ctxchat_history") == [(1,)]


@pytest.mark.parametrize(
    "query", ['"painted"', "painted*", "-painted", "painted:*", "NEAR(painted"]
)
def test_query_syntax_stays_plain_words(sql_url: str, tmp_path: Path, query: str) -> None:
    provider = history(sql_url, tmp_path)
    store(provider, "a", "we stood near the painted wall", "fine")

    assert [h.text for h in search(provider, query)] == ["we stood near the painted wall"]


def test_a_query_of_no_words_finds_nothing(sql_url: str, tmp_path: Path) -> None:
    provider = history(sql_url, tmp_path)
    store(provider, "a", "anything")

    assert search(provider, "?! ...") == []


def test_tool_results_are_searchable_and_reasoning_is_not(sql_url: str, tmp_path: Path) -> None:
    provider = history(sql_url, tmp_path)
    reply = Message.assistant("ok", reasoning="secretthought")
    asyncio.run(
        provider.save_messages(
            "a", [Message.user("hi"), Message.tool_result("c1", "toolresultword"), reply], state={}
        )
    )

    assert [h.role for h in search(provider, "toolresultword")] == ["tool"]
    assert search(provider, "secretthought") == []


def test_limit_and_keys_narrow_the_hits(sql_url: str, tmp_path: Path) -> None:
    provider = history(sql_url, tmp_path)
    for key in ("a", "b", "c"):
        store(provider, key, f"shared word in {key}")

    assert len(search(provider, "shared", limit=2)) == 2
    only = asyncio.run(provider.search_messages(["shared"], limit=10, keys={"b"}))
    assert [h.key for h in only] == ["b"]


def test_deleting_a_history_removes_its_hits(sql_url: str, tmp_path: Path) -> None:
    provider = history(sql_url, tmp_path)
    store(provider, "a", "ephemeral fact")
    store(provider, "b", "ephemeral too")

    asyncio.run(provider.forget_keys(["a"]))

    assert [h.key for h in search(provider, "ephemeral")] == ["b"]


def test_undo_removes_the_turns_hits(sql_url: str, tmp_path: Path) -> None:
    provider = history(sql_url, tmp_path)
    store(provider, "a", "first turn kept")
    store(provider, "a", "second turn undone")

    asyncio.run(provider.remove_last_turn("a", state={}))

    assert search(provider, "undone") == []
    assert [h.key for h in search(provider, "kept")] == ["a"]


# -- the migration indexes history stored before it --------------------------------------------
V2 = Store("history", {1: _m1_history, 2: _m2_token_counts}, _history_table)


def write_version_2(url: str, texts: list[str]) -> None:
    """A history database as ctxchat left it before search: store version 2, with rows."""
    open_database(url, [V2])
    close_all()
    now = datetime.now(UTC).isoformat()
    insert = (
        "INSERT INTO ctxchat_history (history_key, seq, turn_id, role, created_at, message, "
        "token_count) VALUES (?, ?, ?, ?, ?, ?, ?)"
    )
    rows = [
        (insert, ("old", i + 1, "t", "user", now, json.dumps(Message.user(t).to_dict()), 3))
        for i, t in enumerate(texts)
    ]
    rows.append((insert, ("old", len(texts) + 1, "t", "user", now, "{not json", 3)))
    raw_execute(url, [], rows)


@pytest.mark.unmigrated
def test_the_upgrade_indexes_the_history_already_stored(sql_url: str, tmp_path: Path) -> None:
    write_version_2(sql_url, ["an old remark about kubernetes", "another about lunch"])
    (tmp_path / "sessions").mkdir()
    (tmp_path / "sessions" / "old.json").write_text("{}")  # this home holds the session
    provider = history(sql_url, tmp_path)

    hits = search(provider, "kubernetes")

    assert [(h.key, h.seq) for h in hits] == [("old", 1)]
    assert raw_query(sql_url, "SELECT max(version) FROM ctxchat_migrations") == [(5,)]
    store(provider, "new", "kubernetes again")  # and new turns are indexed as they come
    assert {h.key for h in search(provider, "kubernetes")} == {"old", "new"}


def test_a_hit_brings_its_neighbouring_turn_and_date(sql_url: str, tmp_path: Path) -> None:
    provider = history(sql_url, tmp_path)
    store(provider, "a", "when did the pottery class start?", "Last Tuesday, the 3rd of May.")

    (asked,) = search(provider, "pottery")
    (answered,) = search(provider, "tuesday")

    assert asked.role == "user"
    assert asked.neighbour is not None
    assert (asked.neighbour.role, asked.neighbour.text) == (
        "assistant",
        "Last Tuesday, the 3rd of May.",
    )
    assert answered.neighbour is not None
    assert answered.neighbour.text == "when did the pottery class start?"
    assert abs((datetime.now(UTC) - asked.created_at).total_seconds()) < 600
    assert asked.neighbour.created_at == asked.created_at


def test_excluded_hits_leave_room_for_others(sql_url: str, tmp_path: Path) -> None:
    provider = history(sql_url, tmp_path)
    for i in range(5):
        store(provider, f"s{i}", "the garden " * (5 - i))

    hits = asyncio.run(
        provider.search_messages(["garden"], limit=2, exclude=lambda hit: hit.key in {"s0", "s1"})
    )

    assert [h.key for h in hits] == ["s2", "s3"]


def test_a_hit_carries_its_message_id_with_or_without_a_filter(
    sql_url: str, tmp_path: Path
) -> None:
    """The id of each hit's message (what a forgotten fact's mark names) comes with it, read
    with the candidates when a filter may ask for it and with the neighbours otherwise."""
    provider = history(sql_url, tmp_path)
    asked, answered = Message.user("the pottery class?"), Message.assistant("pottery on Tuesday")
    asyncio.run(provider.save_messages("a", [asked, answered], state={}))

    plain = asyncio.run(provider.search_messages(["pottery"], limit=5))
    filtered = asyncio.run(
        provider.search_messages(["pottery"], limit=5, exclude=lambda hit: False)
    )

    expected = {(m.role, m.id) for m in (asked, answered)}
    assert {(h.role, h.message_id) for h in plain} == expected
    assert {(h.role, h.message_id) for h in filtered} == expected
