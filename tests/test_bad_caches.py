"""A bad cache entry costs a new probe, never a failed run (issue 21, item 10)."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from ctxchat.services.model_discovery import ModelListCache
from ctxchat.services.model_info import CACHE_FILE, EndpointCache


@pytest.mark.parametrize(
    "entry",
    [
        {"at": "yesterday", "window": 32_768},
        {"at": None, "window": 32_768},
        {"at": True, "window": 32_768},
        {"at": float("nan"), "window": 32_768},
        {"at": time.time() + 10 * 86_400, "window": 32_768},  # a clock set back
        {"at": time.time(), "window": 1},
        {"at": time.time(), "window": "big"},
    ],
)
def test_an_endpoint_entry_that_put_never_wrote_is_probed_again(
    tmp_path: Path, entry: dict[str, object]
) -> None:
    (tmp_path / CACHE_FILE).write_text(json.dumps({"key": entry}))
    assert EndpointCache(tmp_path).get("key") is None


def test_a_good_endpoint_entry_is_used(tmp_path: Path) -> None:
    cache = EndpointCache(tmp_path)
    cache.put("key", {"window": 32_768, "tokenize": False})
    found = cache.get("key")
    assert found is not None
    assert found["window"] == 32_768


@pytest.mark.parametrize("asked_at", ["2026-11-30T10:00:00", "yesterday", 17, None])
def test_a_model_list_with_a_naive_or_bad_date_is_asked_again(
    tmp_path: Path, asked_at: object
) -> None:
    path = tmp_path / "models.json"
    cache = ModelListCache(path)
    cache.put("endpoint", ["alpha"])
    data = json.loads(path.read_text())
    data["endpoints"]["endpoint"]["asked_at"] = asked_at
    path.write_text(json.dumps(data))
    assert cache.get("endpoint", now=datetime.now(UTC)) is None


def test_a_model_list_asked_in_the_future_is_asked_again(tmp_path: Path) -> None:
    cache = ModelListCache(tmp_path / "models.json")
    cache.put("endpoint", ["alpha"], now=datetime(2030, 1, 1, tzinfo=UTC))
    assert cache.get("endpoint", now=datetime(2026, 1, 1, tzinfo=UTC)) is None
    cache.put("endpoint", ["alpha"], now=datetime(2026, 1, 1, tzinfo=UTC))
    assert cache.get("endpoint", now=datetime(2026, 1, 1, 1, tzinfo=UTC)) == ["alpha"]
