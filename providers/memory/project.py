"""Project-scoped memory (`user_memory` with `scope = "project"`): facts about the work
stay with the project they were said in, facts about the person go with the user.

What the work is about (the stack and tools, the project's conventions and own terms:
the "tech" category and free-text notes) is kept in a memory of its own for each project,
the user's facts under a key naming the project too, in the same table: nothing else in
the store changes, and a project's facts are forgotten, listed and exported as any other
user's are. Who the person is (name, home, diet, allergies, how to reply) stays in the
user's memory, wherever it was said. A session outside any project keeps everything with
the user, as scope "user" does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .ops import OTHERWISE_PREFIX
from .slots import slot_info

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from ctxchat.kit import Database, LiveLexicalIndex

    from .facts import Fact
    from .factset import FactSet, InMemoryFactSet
    from .ops import Op
    from .store import SessionMemory, SqlMemory

# The categories of the slot table (`memory/slots.py`) that are about the work, not the
# person; "other" is a note (a statement matching no category) and any unlisted slot.
PROJECT_CATEGORIES = frozenset({"tech", "other"})
_SEPARATOR = "\x1f"  # not in a login name or a user option (both are one line of text)


def project_owner(user: str, project: str) -> str:
    """The key a project's facts are kept under, beside the user's own."""
    return f"{user}{_SEPARATOR}project{_SEPARATOR}{project}"


def about_the_work(slot: str | None) -> bool:
    return slot_info(slot).category in PROJECT_CATEGORIES


def split_ops(ops: Sequence[Op]) -> tuple[list[Op], list[Op]]:
    """The operations for the user's memory and those for the project's. A forget, or a
    retraction that names no slot, may match either: it goes to both."""
    person: list[Op] = []
    work: list[Op] = []
    for op in ops:
        if op.kind == "forget" and (op.slot or "").startswith(OTHERWISE_PREFIX):
            # The kind of a thing of the user's, when nothing holds its words: the project's
            # facts of that kind ("tech") are no thing of the user's.
            person.append(op)
        elif op.kind == "forget" or (op.kind == "retract" and op.slot is None):
            person.append(op)
            work.append(op)
        elif about_the_work(op.slot):
            work.append(op)
        else:
            person.append(op)
    return person, work


def joint_relevance(
    indexes: Sequence[Callable[[], LiveLexicalIndex]],
) -> Callable[[str, Sequence[Fact]], list[float]]:
    """Relevance of facts from several memories, each scored by its own index."""

    def relevance(query: str, facts: Sequence[Fact]) -> list[float]:
        scores: dict[str, float] = {}
        for index in indexes:
            scores.update(index().scores(query))
        return [scores.get(f.id, 0.0) for f in facts]

    return relevance


def project_owners(database: Database, user: str) -> list[tuple[str, str]]:
    """(owner key, project) of each project the user has facts in."""
    import sqlalchemy as sa

    from .schema import MEMORY

    table = MEMORY.tables.facts
    prefix = project_owner(user, "")

    def read(conn: Connection) -> list[str]:
        rows = conn.execute(
            sa.select(table.c.user_key)
            .where(table.c.user_key.startswith(prefix, autoescape=True))
            .distinct()
            .order_by(table.c.user_key)
        )
        return [str(row[0]) for row in rows]

    return [(owner, owner[len(prefix) :]) for owner in database.read(read)]


class JointMemory:
    """The user's memory and a project's, as `/memory` lists them: one numbered list,
    each fact with its scope. A change goes to the user's memory; a forget goes to the
    memory that holds the fact (`holder`)."""

    def __init__(self, user: SqlMemory | SessionMemory, project: SqlMemory) -> None:
        self.user = user
        self.project = project

    def facts(self) -> tuple[InMemoryFactSet, Callable[[], LiveLexicalIndex]]:
        from .factset import InMemoryFactSet
        from .store import build_index

        mine, _ = self.user.facts()
        theirs, _ = self.project.facts()
        joint = InMemoryFactSet([*mine.all(), *theirs.all()])
        return joint, lambda: build_index(joint.all())

    def change(self, work: Callable[[FactSet], Any]) -> Any:
        return self.user.change(work)

    def scope_of(self, fact_id: str) -> str:
        theirs, _ = self.project.facts()
        return "project" if any(f.id == fact_id for f in theirs.all()) else "user"

    def holder(self, fact_id: str) -> SqlMemory | SessionMemory:
        return self.project if self.scope_of(fact_id) == "project" else self.user
