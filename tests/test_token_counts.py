"""Token counts kept across runs: every model of a process counting into one data dir adds
to one file, and the command's end writes what all of them learnt."""

from __future__ import annotations

import json
from pathlib import Path

from ctxchat.services.token_counts import TOKEN_COUNTS_FILE, TokenCounts, save_token_counts


def test_two_models_learning_in_one_process_both_keep_their_counts(tmp_path: Path) -> None:
    first = TokenCounts(tmp_path, "http://127.0.0.1:8080 first")
    second = TokenCounts(tmp_path, "http://127.0.0.1:8080 second")
    first.put("hello there", 3)
    second.put("good morning", 4)

    save_token_counts()

    kept = json.loads((tmp_path / TOKEN_COUNTS_FILE).read_text("utf-8"))
    assert sorted(kept) == ["http://127.0.0.1:8080 first", "http://127.0.0.1:8080 second"]
    again = TokenCounts(tmp_path, "http://127.0.0.1:8080 second")
    assert again.get("good morning") == 4


def test_counts_written_by_an_earlier_run_are_read_back(tmp_path: Path) -> None:
    TokenCounts(tmp_path, "endpoint model").put("a text", 2)
    save_token_counts()
    (tmp_path / "copy").mkdir()
    (tmp_path / "copy" / TOKEN_COUNTS_FILE).write_bytes((tmp_path / TOKEN_COUNTS_FILE).read_bytes())

    assert TokenCounts(tmp_path / "copy", "endpoint model").get("a text") == 2
    assert TokenCounts(tmp_path / "copy", "endpoint model").get("another") is None
