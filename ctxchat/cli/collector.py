"""The cyclic garbage collector stays off while `ctxchat run` starts and answers its first
turn, and is on for everything after.

Start-up makes some 600,000 objects that live as long as the process (the modules and
classes of openai, pydantic and SQLAlchemy, the providers') and next to no garbage, yet
each young-generation pass walks the objects made since the last: 32 passes in a one-turn
script, 33 to 41 ms of its 720 ms of CPU (counted with `gc.callbacks`). Raising the
threshold makes fewer, longer passes over the same objects; only not collecting saves it.
Once the first turn is out (or the REPL first waits for the user) collection resumes, so
a long script or chat frees its cycles as usual, the first turn's among them (freezing
what exists instead would keep those for good), and every other command collects from the
start.
"""

from __future__ import annotations

import gc


def pause() -> None:
    gc.disable()


def resume() -> None:
    gc.enable()
