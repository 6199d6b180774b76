"""Several things said together with no "I": each is kept, and two of a kind that holds one
value are that one value."""

from __future__ import annotations

import pytest

from tests.memorykit import remembered


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        ("egg-free, soy-free, and not big on anything fried", ["egg-free", "soy-free"]),
        (
            "sugar-free, meat-free, and a huge fan of long walks",
            ["sugar-free", "meat-free", "walks"],
        ),
    ],
)
def test_foods_left_out_said_together_are_one_diet(message: str, kept: list[str]) -> None:
    block = remembered(message)
    assert all(word in block for word in kept), block
