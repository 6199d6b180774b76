"""Search reads only the messages of a query's rarest words when those hold the best
candidates (`rare_enough`), on SQLite and PostgreSQL: the rule itself, and what a search
must still find when it applies (the message holding every word, the rare word's messages
beside a commoner word, a word alone however common)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from ctxchat.core.messages import Message
from ctxchat.core.provider import ProviderEnv
from ctxchat.core.search import MessageHit, query_terms
from ctxchat.kit import Term, idf, query_plan, rare_enough
from ctxchat.providers.history.search import plan_query
from ctxchat.providers.history.sql import SqlHistoryProvider

pytest_plugins = ["sqlfixtures"]

WANTED = 50  # the candidates a search of 10 hits reads (`search.MIN_CANDIDATES`)


def terms(*keys: str) -> list[Term]:
    return [Term(key, None) for key in keys]


def test_the_rarest_word_is_read_alone_when_it_outweighs_the_others() -> None:
    plan = terms("common", "rare")
    df = {"rare": 60, "common": 400}

    assert rare_enough(plan, df, 20_000, WANTED) == terms("rare")


def test_the_rare_words_are_read_together_when_no_one_outweighs_the_rest() -> None:
    plan = terms("a", "b", "c")
    df = {"a": 60, "b": 70, "c": 900}  # a alone weighs less than b and c together

    assert idf(20_000, 60) < idf(20_000, 70) + idf(20_000, 900)
    assert rare_enough(plan, df, 20_000, WANTED) == terms("a", "b")


def test_every_word_is_read_when_the_rare_ones_hold_too_few_messages() -> None:
    plan = terms("rare", "common")

    assert rare_enough(plan, {"rare": 10, "common": 400}, 20_000, WANTED) == plan


def test_every_word_is_read_when_their_weights_are_equal() -> None:
    # Counts at the cap weigh the same: neither outweighs the other.
    plan = terms("one", "two")

    assert rare_enough(plan, {"one": 2001, "two": 2001}, 20_000, WANTED) == plan


def test_a_single_word_is_read() -> None:
    assert rare_enough(terms("only"), {"only": 900}, 20_000, WANTED) == terms("only")


# -- searching a history where the rule applies ------------------------------------------
RARE = 60  # messages holding "quokka": more than a search's candidates
OTHER = 120  # messages holding "lantern": commoner, yet under a tenth of the history


def history(url: str, tmp_path: Path) -> SqlHistoryProvider:
    return SqlHistoryProvider(
        "history",
        SqlHistoryProvider.Options(url=url, user="ana"),
        env=ProviderEnv(data_dir=tmp_path),
    )


def stored(url: str, tmp_path: Path) -> SqlHistoryProvider:
    """A history of 1,600 messages: the rare word's, each short; the commoner word's; one
    message holding both, longer than any of the rare word's (so that by the rare word alone
    it ranks last of them); and filler, which is every matching message's neighbour."""
    provider = history(url, tmp_path)
    matching = [f"the quokka came by at hour {n}" for n in range(RARE)]
    matching += [f"a lantern for evening {n}" for n in range(OTHER)]
    filler = " ".join(f"word{n}" for n in range(15))
    matching.insert(RARE // 2, f"a longer story, {filler}, quokka and lantern")
    texts: list[str] = []
    for text in matching:
        texts += [text, f"plain talk of weather and tea, number {len(texts)}"]
    while len(texts) < 1600:
        texts.append(f"plain talk of weather and tea, number {len(texts)}")
    messages = [
        Message.user(t) if i % 2 == 0 else Message.assistant(t) for i, t in enumerate(texts)
    ]
    asyncio.run(provider.save_messages("s", messages, state={}))
    return provider


def search(provider: SqlHistoryProvider, query: str) -> list[MessageHit]:
    return asyncio.run(provider.search_messages(query_terms(query), limit=10))


def read_alone(provider: SqlHistoryProvider, query: str) -> list[str]:
    """The words the search reads the messages of (what `rare_enough` keeps)."""
    planned = plan_query(provider.database(), query_terms(query), None, provider.owner)
    assert planned is not None
    return [t.key for t in rare_enough(planned.plan, planned.df, planned.total, WANTED)]


def test_the_message_holding_every_word_is_found_among_the_rare_words_many(
    sql_url: str, tmp_path: Path
) -> None:
    provider = stored(sql_url, tmp_path)
    assert read_alone(provider, "quokka lantern") == [query_plan(["quokka"])[0].key]

    hits = search(provider, "quokka lantern")

    assert hits[0].text.startswith("a longer story")


def test_a_commoner_word_beside_a_rare_one_never_crowds_its_messages_out(
    sql_url: str, tmp_path: Path
) -> None:
    provider = stored(sql_url, tmp_path)

    hits = search(provider, "quokka lantern")

    assert len(hits) == 10
    assert all("quokka" in h.text for h in hits)


def test_a_word_alone_finds_its_messages_however_common(sql_url: str, tmp_path: Path) -> None:
    provider = stored(sql_url, tmp_path)

    assert len(search(provider, "weather")) == 10  # in most of the history
    assert all("lantern" in h.text for h in search(provider, "lantern"))


def test_a_search_of_some_sessions_still_finds_the_commoner_words_messages(
    sql_url: str, tmp_path: Path
) -> None:
    """The rare word is in many messages of the history, but in few of the session
    searched: its count there, not the history's, decides what is read."""
    provider = stored(sql_url, tmp_path)
    texts = ["the quokka again", "fine", "the quokka once more", "fine"]
    texts += [t for n in range(3) for t in (f"a lantern in the shed {n}", "fine")]
    messages = [
        Message.user(t) if i % 2 == 0 else Message.assistant(t) for i, t in enumerate(texts)
    ]
    asyncio.run(provider.save_messages("k", messages, state={}))

    hits = asyncio.run(
        provider.search_messages(query_terms("quokka lantern"), limit=10, keys={"k"})
    )

    assert sorted(h.text for h in hits) == sorted(t for t in texts if t != "fine")


def test_the_users_message_count_follows_stores_and_deletes(sql_url: str, tmp_path: Path) -> None:
    """The count idf and common words go by (on SQLite, in a table of the user's rows
    alone, read from the full-text index's own record of its rows)."""
    provider = history(sql_url, tmp_path)
    for key, count in (("a", 300), ("b", 200)):
        texts = [f"tea and {key} number {n}" for n in range(count)]
        asyncio.run(provider.save_messages(key, [Message.user(t) for t in texts], state={}))

    def total() -> int:
        planned = plan_query(provider.database(), ["tea", "number"], None, provider.owner)
        assert planned is not None
        return planned.total

    assert total() == 500
    asyncio.run(provider.forget_keys({"a"}))
    assert total() == 200
