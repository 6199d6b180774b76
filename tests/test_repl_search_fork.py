"""/search and /fork in the chat, driven without a terminal on a real ChatService whose
history is SQL (SQLite and PostgreSQL), on a scripted model that echoes."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_cli_repl_commands import Chat

from ctxchat.core.agent import Agent
from ctxchat.core.errors import UsageError
from ctxchat.core.provider import ProviderEnv
from ctxchat.providers.history.sql import SqlHistoryProvider
from ctxchat.services.conversations import ChatService
from ctxchat.storage.store import SessionStore
from ctxchat.testing import ScriptedModel

pytest_plugins = ["sqlfixtures"]


@pytest.fixture
def chat(tmp_path: Path, sql_url: str) -> Chat:
    history = SqlHistoryProvider(
        "history", SqlHistoryProvider.Options(url=sql_url), env=ProviderEnv(data_dir=tmp_path)
    )
    agent = Agent(model=ScriptedModel(), providers=[history])
    service = ChatService(agent, SessionStore(tmp_path / "sessions"), context_window=1000)
    return Chat(service, tmp_path)


def test_search_finds_words_of_other_sessions_and_marks_this_one(chat: Chat) -> None:
    chat.send("the deploy uses kubernetes")
    elsewhere = chat.conversation.session.id
    chat.run("/new")
    chat.send("kubernetes again here")
    here = chat.conversation.session.id

    lines = chat.run("/search kubernetes").splitlines()

    rows = [line for line in lines if "**kubernetes**" in line]
    assert len(rows) == 4  # each question and its echo
    assert {row.startswith("* ") for row in rows if here in row} == {True}
    assert any(elsewhere in row for row in rows)


def test_search_without_words_says_how(chat: Chat) -> None:
    with pytest.raises(UsageError, match="usage: /search QUERY"):
        chat.run("/search  ")


def test_search_that_finds_nothing_says_so(chat: Chat) -> None:
    chat.send("hello")

    assert chat.run("/search absent") == "no stored message holds those words"


def test_fork_goes_on_in_a_copy_and_leaves_the_original(chat: Chat) -> None:
    chat.send("one")
    chat.send("two")
    original = chat.conversation.session.id

    said = chat.run("/fork 1")
    chat.send("three in the fork")

    forked = chat.conversation.session
    assert forked.id != original
    assert said.startswith("forked at turn 1")
    assert forked.forked_from is not None
    assert (forked.forked_from.session, forked.forked_from.turn) == (original, 1)
    assert chat.transcript() == ["one", "echo: one", "three in the fork", "echo: three in the fork"]
    chat.run(f"/switch {original}")
    assert chat.transcript() == ["one", "echo: one", "two", "echo: two"]


def test_fork_before_any_turn_is_refused(chat: Chat) -> None:
    with pytest.raises(UsageError, match="nothing to fork yet"):
        chat.run("/fork")


@pytest.mark.parametrize("bad", ["0", "x", "5"])
def test_fork_takes_a_turn_the_session_has(chat: Chat, bad: str) -> None:
    chat.send("one")
    with pytest.raises(UsageError):
        chat.run(f"/fork {bad}")


def test_a_colour_terminal_shows_matched_words_bold_and_a_plain_one_keeps_the_marks() -> None:
    import io

    from rich.console import Console

    from ctxchat.cli.command_view import print_result
    from ctxchat.services.commands import CommandResult, Marked, Table

    snippet = Marked((("we chose ", False), ("postgres", True), (" here", False)))
    table = Table(("session", "snippet"), (("s1", snippet),))
    coloured, uncoloured = io.StringIO(), io.StringIO()
    colour = Console(file=coloured, force_terminal=True, color_system="standard", width=80)
    plain = Console(file=uncoloured, force_terminal=False, color_system=None, width=80)
    for console in (colour, plain):
        print_result(console, CommandResult((table,)))
    assert "\x1b[1mpostgres" in coloured.getvalue()
    assert "**" not in coloured.getvalue()
    assert "we chose **postgres** here" in uncoloured.getvalue()


def test_asterisks_in_a_message_are_its_own_text_not_marks() -> None:
    import io

    from rich.console import Console

    from ctxchat.cli.command_view import print_result
    from ctxchat.services.commands import CommandResult, Marked, Table

    snippet = Marked((("use **bold** for ", False), ("emphasis", True)))
    coloured = io.StringIO()
    colour = Console(file=coloured, force_terminal=True, color_system="standard", width=80)
    print_result(colour, CommandResult((Table(("snippet",), ((snippet,),)),)))
    assert "use **bold** for \x1b[1memphasis" in coloured.getvalue()
