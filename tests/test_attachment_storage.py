"""Attachments stored once per owner in the SQL history (`history.attachments`): a file
attached on many turns is one blob; removing turns, sessions and forks keeps or removes it
as the owner's remaining messages need; another owner's blobs are never touched. Every test
runs on a SQLite file and on PostgreSQL."""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import struct
import zlib
from pathlib import Path

import pytest
from historykit import raw_query

from ctxchat.core.errors import StorageError
from ctxchat.core.messages import Message
from ctxchat.core.provider import ProviderEnv
from ctxchat.core.session import Session
from ctxchat.providers.history.sql import SqlHistoryProvider
from ctxchat.services.attachments import read_attachment

pytest_plugins = ["sqlfixtures"]

FILE_BYTES = 100_000


def history(url: str, home: Path) -> SqlHistoryProvider:
    return SqlHistoryProvider(
        "history", SqlHistoryProvider.Options(url=url), env=ProviderEnv(data_dir=home)
    )


def big_file(tmp_path: Path, name: str = "notes.txt", word: str = "pelican") -> Path:
    path = tmp_path / name
    line = f"{word} line of an attached file, long enough to matter\n"
    path.write_text(line * (FILE_BYTES // len(line)), encoding="utf-8")
    return path


def attached_turn(text: str, *sources: Path) -> list[Message]:
    """A turn as the engine stores it: the user's words with the files' parts after them."""
    parts = [p for s in sources for p in read_attachment(s.name, cwd=s.parent)]
    user = Message.user(text, origin="typed")
    user = dataclasses.replace(user, parts=(*user.parts, *parts)).attributed("input")
    return [user, Message.assistant(f"re: {text}").attributed("response")]


def store(provider: SqlHistoryProvider, key: str, turn: list[Message]) -> None:
    asyncio.run(provider.save_messages(key, turn, state={}))


def read(provider: SqlHistoryProvider, key: str) -> list[Message]:
    return asyncio.run(provider.all_messages(key, state={}))


def blob_count(url: str) -> int:
    return int(raw_query(url, "SELECT COUNT(*) FROM ctxchat_attachments")[0][0])


def stored_document_chars(url: str) -> int:
    return int(raw_query(url, "SELECT SUM(LENGTH(message)) FROM ctxchat_history")[0][0])


def png(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    raw = b"".join(b"\x00" + b"\x00\x80\xff" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def test_a_file_attached_on_ten_turns_is_stored_once_and_read_back_whole(
    sql_url: str, tmp_path: Path
) -> None:
    provider = history(sql_url, tmp_path / "home")
    file = big_file(tmp_path)
    for n in range(10):
        store(provider, "s", attached_turn(f"question {n}", file))

    assert blob_count(sql_url) == 1
    # The documents hold the hash in the attachment's place, not the 100 kB ten times.
    assert stored_document_chars(sql_url) < FILE_BYTES // 2
    messages = read(provider, "s")
    assert len(messages) == 20
    original = attached_turn("question 3", file)[0]
    assert messages[6].parts == original.parts
    assert file.read_text(encoding="utf-8") in messages[18].parts[1].text  # type: ignore[union-attr]


def test_an_image_is_stored_as_its_bytes_once_and_comes_back_as_it_was(
    sql_url: str, tmp_path: Path
) -> None:
    provider = history(sql_url, tmp_path / "home")
    image = tmp_path / "shot.png"
    image.write_bytes(png(40, 30))
    store(provider, "s", attached_turn("what is this?", image))
    store(provider, "s", attached_turn("and again?", image))

    assert raw_query(sql_url, "SELECT kind, size FROM ctxchat_attachments") == [
        ("image", image.stat().st_size)
    ]
    got = read(provider, "s")[2].images
    assert len(got) == 1
    assert base64.b64decode(got[0].data) == image.read_bytes()
    assert (got[0].width, got[0].height, got[0].name) == (40, 30, "shot.png")


def test_a_short_document_stays_inline(sql_url: str, tmp_path: Path) -> None:
    provider = history(sql_url, tmp_path / "home")
    small = tmp_path / "small.py"
    small.write_text("print('hi')\n", encoding="utf-8")
    store(provider, "s", attached_turn("run it?", small))
    assert blob_count(sql_url) == 0
    assert "print('hi')" in read(provider, "s")[0].parts[1].text  # type: ignore[union-attr]


def test_a_blob_goes_with_the_last_message_of_its_owner_that_uses_it(
    sql_url: str, tmp_path: Path
) -> None:
    provider = history(sql_url, tmp_path / "home")
    shared, own = big_file(tmp_path), big_file(tmp_path, "own.txt", "heron")
    store(provider, "a", attached_turn("first", shared))
    store(provider, "b", attached_turn("second", shared, own))
    assert blob_count(sql_url) == 2

    asyncio.run(provider.forget_keys(["b"]))  # delete and prune remove sessions this way
    assert blob_count(sql_url) == 1  # `own` was b's only; `shared` is still a's
    assert len(read(provider, "a")[0].parts) == 2

    asyncio.run(provider.forget_keys(["a"]))
    assert blob_count(sql_url) == 0
    assert raw_query(sql_url, "SELECT COUNT(*) FROM ctxchat_attachment_uses") == [(0,)]


def test_undoing_or_discarding_a_turn_removes_what_only_it_used(
    sql_url: str, tmp_path: Path
) -> None:
    provider = history(sql_url, tmp_path / "home")
    first, second = big_file(tmp_path), big_file(tmp_path, "two.txt", "heron")
    store(provider, "s", attached_turn("one", first))
    asyncio.run(provider.store_turn("s", attached_turn("two", second), state={}, turn_id="t2"))
    asyncio.run(provider.store_turn("s", attached_turn("three", first), state={}, turn_id="t3"))
    assert blob_count(sql_url) == 2

    # A turn whose session could not be saved is taken back by its id (the journal).
    asyncio.run(provider.discard_turn("s", "t3", state={}))
    assert blob_count(sql_url) == 2  # `first` is still the first turn's
    removed = asyncio.run(provider.remove_last_turn("s", state={}))  # /undo
    assert second.read_text(encoding="utf-8") in removed[0].parts[1].text  # type: ignore[union-attr]
    assert blob_count(sql_url) == 1
    assert [m.parts[0].text for m in read(provider, "s")] == ["one", "re: one"]  # type: ignore[union-attr]


def test_another_owners_blob_of_the_same_file_is_untouched(sql_url: str, tmp_path: Path) -> None:
    mine, theirs = history(sql_url, tmp_path / "mine"), history(sql_url, tmp_path / "theirs")
    file = big_file(tmp_path)
    store(mine, "s", attached_turn("mine", file))
    store(theirs, "t", attached_turn("theirs", file))
    assert blob_count(sql_url) == 2  # once per owner: neither reads the other's rows

    asyncio.run(mine.forget_keys(["s"]))
    assert blob_count(sql_url) == 1
    assert file.read_text(encoding="utf-8") in read(theirs, "t")[0].parts[1].text  # type: ignore[union-attr]


def test_a_fork_keeps_its_attachments_when_the_source_is_deleted(
    sql_url: str, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    provider = history(sql_url, home)
    first, later = big_file(tmp_path), big_file(tmp_path, "later.txt", "heron")
    source, fork = Session(), Session()
    state: dict[str, object] = {}
    asyncio.run(provider.save_messages(source.id, attached_turn("one", first), state=state))
    asyncio.run(provider.save_messages(source.id, attached_turn("two", later), state=state))
    source.turns = 2

    # A fork from another home (a shared database) owns its copy: its blobs are its own.
    other = history(sql_url, tmp_path / "other")
    asyncio.run(other.fork_session(source, fork, dict(state), turns=1))
    assert len(read(other, fork.id)) == 2
    assert blob_count(sql_url) == 3  # the source's two, and the fork owner's copy of one

    asyncio.run(provider.forget_keys([source.id]))
    assert blob_count(sql_url) == 1
    kept = read(other, fork.id)
    assert first.read_text(encoding="utf-8") in kept[0].parts[1].text  # type: ignore[union-attr]


def test_a_fork_into_another_home_makes_its_copy_of_the_text_searchable(
    sql_url: str, tmp_path: Path
) -> None:
    provider = history(sql_url, tmp_path / "home")
    file = big_file(tmp_path, "birds.txt", "pelican")
    store(provider, "first", attached_turn("look at this", file))  # the text is indexed here
    source, fork = Session(), Session()
    state: dict[str, object] = {}
    asyncio.run(provider.save_messages(source.id, attached_turn("again", file), state=state))
    source.turns = 1

    other = SqlHistoryProvider(
        "history",
        SqlHistoryProvider.Options(url=sql_url, user="someone"),
        env=ProviderEnv(data_dir=tmp_path / "other"),
    )
    asyncio.run(other.fork_session(source, fork, dict(state), turns=1))

    # The other owner's search sees only its own rows: the fork's copy holds the text.
    found = asyncio.run(other.search_messages(["pelican"], limit=10))
    assert [(h.key, h.seq) for h in found] == [(fork.id, 1)]


def test_search_finds_an_attachments_text_once_and_its_name_on_every_turn(
    sql_url: str, tmp_path: Path
) -> None:
    provider = history(sql_url, tmp_path / "home")
    file = big_file(tmp_path, "birds.txt", "pelican")
    store(provider, "s", attached_turn("look at this", file))
    store(provider, "s", attached_turn("and this again", file))

    by_text = asyncio.run(provider.search_messages(["pelican"], limit=10))
    assert [(h.key, h.seq) for h in by_text] == [("s", 1)]
    by_name = asyncio.run(provider.search_messages(["birds"], limit=10))
    assert sorted(h.seq for h in by_name) == [1, 3]


def test_when_the_turn_holding_the_text_goes_the_next_user_of_the_blob_takes_it(
    sql_url: str, tmp_path: Path
) -> None:
    provider = history(sql_url, tmp_path / "home")
    file = big_file(tmp_path, "birds.txt", "pelican")
    store(provider, "a", attached_turn("look at this", file))
    store(provider, "b", attached_turn("and this again", file))
    store(provider, "c", attached_turn("once more", file))
    assert [h.key for h in asyncio.run(provider.search_messages(["pelican"], limit=10))] == ["a"]

    asyncio.run(provider.forget_keys(["a"]))

    found = asyncio.run(provider.search_messages(["pelican"], limit=10))
    assert [(h.key, h.seq) for h in found] == [("b", 1)]  # once, still
    assert "pelican" in found[0].snippet


def test_a_message_whose_blob_is_missing_is_one_clear_error(sql_url: str, tmp_path: Path) -> None:
    from historykit import raw_execute

    provider = history(sql_url, tmp_path / "home")
    store(provider, "s", attached_turn("one", big_file(tmp_path)))
    raw_execute(sql_url, ["DELETE FROM ctxchat_attachments"])
    with pytest.raises(
        StorageError, match=r"history row 1 refers to attachment \w{12}, which is not stored"
    ):
        read(provider, "s")


def test_a_failed_turn_leaves_no_blob_behind(sql_url: str, tmp_path: Path) -> None:
    from historykit import raw_execute

    provider = history(sql_url, tmp_path / "home")
    provider.database()  # the tables, so a trigger can refuse the turn's rows
    if sql_url.startswith("sqlite"):
        refuse = [
            "CREATE TRIGGER refuse BEFORE INSERT ON ctxchat_history "
            "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
        ]
    else:
        refuse = [
            "CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN "
            "RAISE EXCEPTION 'refused by the test'; END $$ LANGUAGE plpgsql",
            "CREATE TRIGGER refuse BEFORE INSERT ON ctxchat_history "
            "FOR EACH ROW EXECUTE FUNCTION refuse()",
        ]
    raw_execute(sql_url, refuse)
    with pytest.raises(StorageError, match="refused by the test"):
        store(provider, "s", attached_turn("one", big_file(tmp_path)))
    # The blob and its use were in the turn's transaction: none of it is kept.
    assert blob_count(sql_url) == 0
    assert raw_query(sql_url, "SELECT COUNT(*) FROM ctxchat_attachment_uses") == [(0,)]


def test_writers_attaching_the_same_file_at_once_store_it_once(
    sql_url: str, tmp_path: Path
) -> None:
    import threading

    provider = history(sql_url, tmp_path / "home")
    provider.database()
    file = big_file(tmp_path)
    turns = {f"s{n}": attached_turn(f"from writer {n}", file) for n in range(4)}
    errors: list[BaseException] = []
    start = threading.Barrier(len(turns))

    def write(key: str) -> None:
        start.wait()
        try:
            for _ in range(3):
                store(provider, key, turns[key])
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(key,)) for key in turns]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert blob_count(sql_url) == 1
    assert all(len(read(provider, key)) == 6 for key in turns)


def test_a_row_stored_inline_before_the_store_existed_still_reads_and_deletes(
    sql_url: str, tmp_path: Path
) -> None:
    from datetime import UTC, datetime

    from ctxchat.providers.history.schema import HISTORY
    from ctxchat.providers.history.sql import message_row

    provider = history(sql_url, tmp_path / "home")
    database = provider.database()
    file = big_file(tmp_path)
    old = attached_turn("from before", file)
    now = datetime.now(UTC)
    rows = [
        {**message_row("s", "t0", now, m, provider.owner), "history_key": "s", "seq": i + 1}
        for i, m in enumerate(old)
    ]
    database.write(lambda conn: conn.execute(HISTORY.tables.insert(), rows))
    store(provider, "s", attached_turn("and after", file))

    messages = read(provider, "s")
    assert messages[0].parts == old[0].parts
    assert messages[2].parts[1] == old[0].parts[1]
    assert blob_count(sql_url) == 1  # the new turn's; the old row keeps its own copy
    asyncio.run(provider.forget_keys(["s"]))
    assert blob_count(sql_url) == 0
    assert read(provider, "s") == []
