"""The usage ledger `sql_history` writes with each stored turn, on SQLite and PostgreSQL:
its rows, whose they are, what survives prune/delete/forget, what is unknown or unrecorded,
and the report `ctxchat usage` and `/cost` make of it (in process, a scripted model)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

import outside
import pytest
from historykit import raw_query

from ctxchat.config.prices import Price, parse_prices
from ctxchat.core.agent import Agent, TurnFailed
from ctxchat.core.context import RunContext
from ctxchat.core.messages import Message, Usage
from ctxchat.core.model_types import ModelReply
from ctxchat.core.provider import ProviderEnv
from ctxchat.core.session import Session
from ctxchat.providers.history.schema import HISTORY
from ctxchat.providers.history.sql import SqlHistoryProvider, message_row
from ctxchat.providers.history.usage import turn_tokens
from ctxchat.services.usage import since_of, usage_report
from ctxchat.storage.sql.store import open_database
from ctxchat.testing import ScriptedModel

pytest_plugins = ["sqlfixtures"]


def execute(url: str, statement: str) -> None:
    with outside.transaction(url) as conn:
        conn.exec_driver_sql(statement)


def reported(text: str, tokens_in: int, tokens_out: int) -> ModelReply:
    usage = Usage(tokens_in, tokens_out)
    return ModelReply(Message.assistant(text, usage=usage), usage, "stop")


class Chat:
    def __init__(self, url: str, tmp_path: Path, model: ScriptedModel, user: str = "ada") -> None:
        env = ProviderEnv(data_dir=tmp_path / "data")
        self.history = SqlHistoryProvider(
            "history", SqlHistoryProvider.Options(url=url, user=user), env=env
        )
        self.agent = Agent(model=model, providers=[self.history])
        self.session = Session()

    def say(self, text: str, session: Session | None = None) -> None:
        asyncio.run(self.agent.run(session or self.session, [Message.user(text)]))

    def report(self, by: str = "model", *, session: Session | None = None, **prices: Price):
        return asyncio.run(
            usage_report(self.agent.run_providers(), prices, by, session=session)  # type: ignore[arg-type]
        )


def test_each_stored_turn_has_a_row_with_its_tokens_model_and_owner(
    sql_url: str, tmp_path: Path
) -> None:
    chat = Chat(
        sql_url, tmp_path, ScriptedModel(reported("one", 100, 20), reported("two", 300, 40))
    )
    chat.session.role = "reviewer"
    chat.say("first")
    chat.say("second")

    rows = raw_query(
        sql_url,
        "SELECT history_key, model, role, recorded, input_tokens, output_tokens, user_key, "
        "home_id FROM ctxchat_usage ORDER BY id",
    )
    owner = chat.history.owner
    assert [r[:6] for r in rows] == [
        (chat.session.id, "scripted-model", "reviewer", True, 100, 20),
        (chat.session.id, "scripted-model", "reviewer", True, 300, 40),
    ]
    assert {(r[6], r[7]) for r in rows} == {(owner.user, owner.home)}
    total = chat.report(**{"scripted-model": Price(1.0, 10.0)}).total
    assert (total.turns, total.input_tokens, total.output_tokens) == (2, 400, 60)
    assert total.cost == pytest.approx((400 * 1.0 + 60 * 10.0) / 1_000_000)
    assert not total.cost_partial


def test_usage_the_endpoint_did_not_report_is_unknown_not_zero(
    sql_url: str, tmp_path: Path
) -> None:
    chat = Chat(sql_url, tmp_path, ScriptedModel(reported("one", 100, 20), "no usage here"))
    chat.say("first")
    chat.say("second")

    rows = raw_query(sql_url, "SELECT input_tokens, output_tokens FROM ctxchat_usage ORDER BY id")
    assert rows == [(100, 20), (None, None)]
    total = chat.report(**{"scripted-model": Price(1.0, 1.0)}).total
    assert (total.turns, total.unknown, total.input_tokens) == (2, 1, 100)
    assert total.cost_partial  # a lower bound, and it says so


def test_a_turn_with_one_model_call_unreported_is_unknown_whole() -> None:
    usage = Usage(5, 6)
    partly = [Message.assistant("a", usage=usage), Message.assistant("b")]
    assert turn_tokens(partly) == (None, None)
    both = [Message.assistant("a", usage=usage), Message.assistant("b", usage=Usage(1, 2))]
    assert turn_tokens(both) == (6, 8)
    assert turn_tokens([]) == (None, None)


def test_forgetting_undoing_or_deleting_a_session_keeps_its_spend(
    sql_url: str, tmp_path: Path
) -> None:
    chat = Chat(sql_url, tmp_path, ScriptedModel(*(reported(f"r{i}", 10, 1) for i in range(3))))
    chat.say("first")
    chat.say("second")
    chat.say("third")
    state = chat.session.provider_state("history")

    asyncio.run(chat.history.remove_last_turn(chat.session.id, state=state))
    asyncio.run(chat.history.forget_session(chat.session, state))
    asyncio.run(chat.history.forget_keys([chat.session.id]))

    assert raw_query(sql_url, "SELECT COUNT(*) FROM ctxchat_history") == [(0,)]
    total = chat.report().total
    assert (total.turns, total.input_tokens, total.output_tokens) == (3, 30, 3)


def test_a_turn_its_session_never_counted_leaves_no_row(sql_url: str, tmp_path: Path) -> None:
    chat = Chat(sql_url, tmp_path, ScriptedModel(reported("r", 10, 1)))

    async def refuse(context: RunContext) -> None:
        raise OSError("disk full")

    with pytest.raises(TurnFailed):
        asyncio.run(chat.agent.run(chat.session, [Message.user("hi")], on_stored=refuse))
    assert raw_query(sql_url, "SELECT COUNT(*) FROM ctxchat_usage") == [(0,)]
    assert raw_query(sql_url, "SELECT COUNT(*) FROM ctxchat_history") == [(0,)]


def test_the_ledger_row_is_in_the_turns_transaction(sql_url: str, tmp_path: Path) -> None:
    chat = Chat(sql_url, tmp_path, ScriptedModel(reported("r", 10, 1), reported("s", 1, 1)))
    chat.say("first")  # the database is made
    execute(sql_url, "DROP TABLE ctxchat_usage")  # the ledger's insert will fail

    with pytest.raises(TurnFailed):
        chat.say("second")
    # The failed ledger took the turn's history rows with it: none is half stored.
    assert raw_query(sql_url, "SELECT COUNT(*) FROM ctxchat_history") == [(2,)]


@pytest.mark.unmigrated
def test_turns_stored_before_the_ledger_are_unrecorded(sql_url: str, tmp_path: Path) -> None:
    # A database whose history was written by a ctxchat without the ledger.
    old = open_database(sql_url, [HISTORY])
    owner = SqlHistoryProvider(
        "history",
        SqlHistoryProvider.Options(user="ada"),
        env=ProviderEnv(data_dir=tmp_path / "data"),
    )
    now = datetime.now(UTC)
    for turn in ("t1", "t2"):
        rows = [
            message_row("old-session", turn, now, m, owner.owner)
            for m in (Message.user("q"), Message.assistant("a"))
        ]
        old.append(HISTORY.tables, "history_key", "old-session", rows)

    chat = Chat(sql_url, tmp_path, ScriptedModel(reported("new", 7, 3)))
    chat.say("now with a ledger")

    report = chat.report("session")
    lines = {line.key: line for line in report.lines}
    assert (lines["old-session"].turns, lines["old-session"].unrecorded) == (0, 2)
    assert (lines[chat.session.id].turns, lines[chat.session.id].unrecorded) == (1, 0)
    assert (report.total.input_tokens, report.total.unrecorded) == (7, 2)


def test_usage_reads_only_this_users_rows(sql_url: str, tmp_path: Path) -> None:
    ada = Chat(sql_url, tmp_path, ScriptedModel(reported("a", 100, 10)), user="ada")
    bob = Chat(sql_url, tmp_path, ScriptedModel(reported("b", 5, 1)), user="bob")
    ada.say("mine")
    bob.say("his")

    assert ada.report().total.input_tokens == 100
    assert bob.report().total.input_tokens == 5


def test_groups_by_model_session_day_and_role(sql_url: str, tmp_path: Path) -> None:
    model = ScriptedModel(reported("a", 10, 1), reported("b", 20, 2), reported("c", 40, 4))
    chat = Chat(sql_url, tmp_path, model)
    chat.say("one")
    other = Session(role="writer")
    chat.say("two", other)
    chat.agent = Agent(model=model.with_model("other-model"), providers=[chat.history])
    chat.say("three", other)

    def keys(by: str) -> dict[str, int]:
        return {line.key: line.input_tokens for line in chat.report(by).lines}

    assert keys("model") == {"scripted-model": 30, "other-model": 40}
    assert keys("session") == {chat.session.id: 10, other.id: 60}
    assert keys("role") == {"": 10, "writer": 60}
    assert keys("day") == {datetime.now(UTC).strftime("%Y-%m-%d"): 70}
    only = chat.report(session=other)
    assert only.total.input_tokens == 60


def test_a_model_without_a_price_has_no_cost_and_is_named(sql_url: str, tmp_path: Path) -> None:
    chat = Chat(sql_url, tmp_path, ScriptedModel(reported("a", 10, 1)))
    chat.say("one")

    total = chat.report().total
    assert total.cost is None
    assert total.unpriced == ("scripted-model",)


def test_since_leaves_out_older_rows(sql_url: str, tmp_path: Path) -> None:
    chat = Chat(sql_url, tmp_path, ScriptedModel(reported("a", 10, 1)))
    chat.say("one")
    future = datetime.now(UTC) + timedelta(hours=1)
    report = asyncio.run(usage_report(chat.agent.run_providers(), {}, "model", since=future))
    assert report.total.turns == 0
    past = datetime.now(UTC) - timedelta(hours=1)
    recent = asyncio.run(usage_report(chat.agent.run_providers(), {}, "model", since=past))
    assert recent.total.turns == 1
    assert since_of("1d", future) == future - timedelta(days=1)


def test_prices_are_checked_key_by_key() -> None:
    problems: list[str] = []
    prices = parse_prices(
        {
            "good": {"input": 0.15, "output": 0.6},
            "bad": {"input": -1, "output": "x"},
            "odd": {"input": 1, "output": 1, "cached": 2},
            "flat": 3,
        },
        problems,
    )
    assert prices == {"good": Price(0.15, 0.6)}
    assert problems == [
        'prices."bad".input: expected a number of 0 or more, not -1',
        "prices.\"bad\".output: expected a number of 0 or more, not 'x'",
        'prices."odd".cached: unknown setting (a price has input and output)',
        'prices."flat": expected a table with input and output',
    ]
