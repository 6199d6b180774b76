"""The SQL history storing a whole imported conversation (`ctxchat import`): each turn at
its own time, owned by this home and user, in one transaction that replaces what an
import killed before its session file was written left under the key."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

from historykit import exchange, raw_query

from ctxchat.core.capabilities import ConversationImporter
from ctxchat.core.importing import ImportedTurn
from ctxchat.core.provider import ProviderEnv
from ctxchat.providers.history.sql import SqlHistoryProvider

pytest_plugins = ["sqlfixtures"]

MAY = datetime(2024, 5, 1, 8, 30, tzinfo=UTC)
JUNE = datetime(2024, 6, 1, 9, 0, tzinfo=UTC)


def test_a_conversation_is_stored_whole_at_its_dates_and_again_not_twice(
    sql_url: str, tmp_path: Path
) -> None:
    history = SqlHistoryProvider(
        "history",
        SqlHistoryProvider.Options(url=sql_url, user="ann"),
        env=ProviderEnv(data_dir=tmp_path / "data"),
    )
    assert isinstance(history, ConversationImporter)
    turns = [ImportedTurn(MAY, exchange("first question")), ImportedTurn(JUNE, exchange("second"))]
    state: dict[str, object] = {}
    asyncio.run(history.import_conversation("S1", turns, state=state))
    # A process killed after the rows and before the session file: the next import of the
    # same conversation (same key) replaces them.
    asyncio.run(history.import_conversation("S1", turns, state=state))

    stored = asyncio.run(history.all_messages("S1", state=state))
    assert [m.text for m in stored] == [
        "first question",
        "re: first question",
        "second",
        "re: second",
    ]
    rows = raw_query(
        sql_url,
        "SELECT seq, turn_id, created_at, home_id, user_key FROM ctxchat_history "
        "WHERE history_key = 'S1' ORDER BY seq",
    )
    assert [r[0] for r in rows] == [1, 2, 3, 4]
    assert len({r[1] for r in rows}) == 2  # one turn id per turn
    assert [str(r[2])[:10] for r in rows] == ["2024-05-01"] * 2 + ["2024-06-01"] * 2
    assert {(r[3], r[4]) for r in rows} == {(history.owner.home, "ann")}
    assert state["history_key"] == "S1"
    assert raw_query(sql_url, "SELECT count(*) FROM ctxchat_usage")[0][0] == 0  # no ledger
    history.close()
