"""How many threads a local model gets: the cores that are really free, measured.

`os.cpu_count()` counts cores, not what is left of them. On a busy two-core machine
llama.cpp generated 52 to 67 tokens/s with one thread and 3 to 5 with two: its OpenMP
threads spin waiting for one another, and a thread that shares its core with another
process holds every other one up. So the kernel's own counters (`/proc/stat`) are read
twice, a short while apart, and the idle share of the cores this process may run on is
what the server gets, rounded down, never fewer than one thread.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

PROC_STAT = Path("/proc/stat")
SAMPLE_SECONDS = 0.2  # long enough for a few scheduler ticks (100 Hz), short beside a load
IDLE_FIELDS = (3, 4)  # idle, iowait in the `cpu` line (after its label)


def usable_cores() -> int:
    """The cores this process may run on (its affinity mask), at least one."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _cpu_times(stat: Path) -> tuple[int, int] | None:
    """(busy, total) jiffies of all cores so far; None when the counters cannot be read."""
    try:
        first = stat.read_text("ascii").split("\n", 1)[0].split()
    except (OSError, UnicodeDecodeError):
        return None
    if not first or first[0] != "cpu":
        return None
    try:
        # guest and guest_nice are already counted in user and nice
        fields = [int(value) for value in first[1:9]]
    except ValueError:
        return None
    total = sum(fields)
    idle = sum(fields[i] for i in IDLE_FIELDS if i < len(fields))
    return total - idle, total


def idle_share(stat: Path = PROC_STAT, sample: float = SAMPLE_SECONDS) -> float | None:
    """The share of the machine's CPU time that was idle over `sample` seconds (0 to 1)."""
    before = _cpu_times(stat)
    if before is None:
        return None
    time.sleep(sample)
    after = _cpu_times(stat)
    if after is None or after[1] <= before[1]:
        return None
    busy = after[0] - before[0]
    total = after[1] - before[1]
    return min(1.0, max(0.0, 1 - busy / total))


def free_threads(stat: Path = PROC_STAT, sample: float = SAMPLE_SECONDS) -> int:
    """Threads for llama.cpp: the cores free right now, rounded down; one when the machine
    is busy or cannot say."""
    cores = usable_cores()
    share = idle_share(stat, sample)
    if share is None:
        return 1
    # /proc/stat counts every core of the machine, the affinity mask only some of them.
    machine = max(cores, os.cpu_count() or cores)
    free = int(share * machine + 0.05)  # 1.96 free cores are two: the counters are coarse
    return max(1, min(cores, free))
