"""Shortest unique id prefixes (`ctxchat.core.idprefix`), as references are shown."""

from __future__ import annotations

from ctxchat.core.idprefix import matching, unique_prefixes
from ctxchat.core.messages import new_id


def test_ids_made_in_one_burst_get_prefixes_that_tell_them_apart() -> None:
    ids = [new_id() for _ in range(50)]
    short = unique_prefixes(ids)
    assert len(set(short.values())) == 50
    for whole, prefix in short.items():
        assert whole.startswith(prefix)
        assert len(prefix) >= 6
        assert matching(prefix, ids) == [whole]
        assert matching(prefix.lower(), ids) == [whole]
    # One millisecond's ids differ early in their random part, not only in the last letter.
    assert max(len(prefix) for prefix in short.values()) <= 14


def test_a_prefix_is_no_longer_than_it_must_be() -> None:
    short = unique_prefixes(["01ABCDEFGH1", "01ABCDEFGH2", "01ABCXYZ", "01B"])
    assert short == {
        "01ABCDEFGH1": "01ABCDEFGH1",
        "01ABCDEFGH2": "01ABCDEFGH2",
        "01ABCXYZ": "01ABCX",
        "01B": "01B",
    }


def test_a_shared_start_matches_every_id_it_starts() -> None:
    assert matching("01ab", ["01ABX", "01ABY", "02"]) == ["01ABX", "01ABY"]
    assert matching("01ABX", ["01ABX", "01ABXY"]) == ["01ABX"]  # a whole id is that id
    assert matching(" ", ["01"]) == []
