"""`ctxchat run` collects no garbage while it starts and answers its first turn, and
collects as usual afterwards."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from ctxchat.cli import collector


@pytest.fixture
def restored_collector() -> Iterator[None]:
    enabled = gc.isenabled()
    yield
    if enabled:
        gc.enable()
    else:
        gc.disable()


@pytest.mark.usefixtures("restored_collector")
def test_collection_pauses_and_resumes() -> None:
    collector.pause()
    assert not gc.isenabled()
    collector.resume()
    assert gc.isenabled()
    collector.resume()  # each turn resumes it: the second time changes nothing
    assert gc.isenabled()
