"""`ctxchat run` collects no garbage while it starts and answers its first turn, and
collects as usual afterwards, with what start-up made frozen out of the passes."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from ctxchat.cli import collector


@pytest.fixture
def restored_collector() -> Iterator[None]:
    enabled = gc.isenabled()
    yield
    gc.unfreeze()
    if enabled:
        gc.enable()
    else:
        gc.disable()


@pytest.mark.usefixtures("restored_collector")
def test_collection_resumes_with_what_start_up_made_frozen() -> None:
    collector.pause()
    assert not gc.isenabled()
    collector.resume()
    assert gc.isenabled()
    assert gc.get_freeze_count() > 0


@pytest.mark.usefixtures("restored_collector")
def test_resuming_a_running_collector_freezes_nothing() -> None:
    gc.enable()
    gc.unfreeze()
    collector.resume()
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0
