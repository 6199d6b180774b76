"""The REPL's input history file: two REPLs appending at once never interleave entries."""

from __future__ import annotations

import stat
import subprocess
import sys
from pathlib import Path

import pytest

from ctxchat.cli.prompt import MAX_HISTORY_ENTRY_BYTES, LockedFileHistory

WRITER = """
import sys
from pathlib import Path
from ctxchat.cli.prompt import LockedFileHistory

history = LockedFileHistory(Path(sys.argv[1]))
tag = sys.argv[2]
for n in range(100):
    # Many lines and ~40 kB: far more than one write() of a buffered file.
    history.store_string("\\n".join(f"{tag}-{n}-{line:04d}" + "x" * 60 for line in range(600)))
"""


@pytest.mark.slow  # starts Python processes: the fast loop is in-process tests
def test_concurrent_appends_keep_entries_whole(tmp_path: Path) -> None:
    # Unlocked, about a third of these entries come out spliced together.
    path = tmp_path / "input_history"
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(path), tag]) for tag in ("a", "b", "c")
    ]
    assert [w.wait(timeout=120) for w in writers] == [0, 0, 0]

    entries = list(LockedFileHistory(path).load_history_strings())
    assert len(entries) == 300
    for entry in entries:
        lines = entry.split("\n")
        tag, n, _ = lines[0].split("-", 2)
        assert lines == [f"{tag}-{n}-{line:04d}" + "x" * 60 for line in range(600)]


def test_history_file_is_private_and_skips_huge_entries(tmp_path: Path) -> None:
    path = tmp_path / "input_history"
    history = LockedFileHistory(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    history.store_string("small")
    history.store_string("y" * (MAX_HISTORY_ENTRY_BYTES + 1))
    assert list(LockedFileHistory(path).load_history_strings()) == ["small"]
