"""Attachments stored once per owner: the history's third store (`history.attachments`).

A file attached on ten turns used to be written ten times into `ctxchat_history`: once in
the message document, once in the searchable `body`, and once more in the full-text index
(100 kB on 10 turns grew a SQLite history by 8.2 MB). Now each attachment's bytes are a row
of `ctxchat_attachments`, keyed by its owner (home and user, as every history row is) and
its SHA-256, and the message document keeps only that hash in the part's place. Which turns
use which attachment is `ctxchat_attachment_uses`, so a blob is removed, in the transaction
that removes the last turn of its owner referring to it, by an indexed query rather than a
scan of every message; another owner's blobs are never looked at.

Only what is worth it leaves the document: images, and document text (an attached file,
a directory, a URL, piped text) of at least `INLINE_MAX` bytes. A short one costs less
inline than as a row of its own and a row of use.

The searchable text keeps the attachment's text only on the turn that stored it first for
its owner (its use is `indexed`); later turns that attach it again keep its name line
("Attached file x.py:"), so a search finds the text once and the name on every turn. When
the indexed turn goes and others still use the blob, the oldest of those becomes the
indexed one (`Reindex`), so the text stays findable as long as it is stored.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, NamedTuple

from ctxchat import StorageError
from ctxchat.kit import Owner

from .attachments_schema import ATTACHMENTS

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

INLINE_MAX = 1024  # bytes of document text kept inline in the message document
REF_KEY = "blob"  # the key of a stored part that names its blob instead of holding it


# -- a message document with its attachments taken out ------------------------------------------
@dataclass(frozen=True)
class Blob:
    sha256: str
    kind: str
    content: bytes


@dataclass(frozen=True)
class Stored:
    """A message document as stored: its attachments replaced by their hashes, and the
    blobs taken out, in order of first appearance."""

    document: dict[str, Any]
    blobs: tuple[Blob, ...]


def take_out(document: Mapping[str, Any]) -> Stored:
    """`document` (a `Message.to_dict()`) with its images and long document texts replaced
    by references to their blobs."""
    blobs: dict[str, Blob] = {}
    parts: list[Any] = []
    for part in document.get("parts", ()):
        blob = _blob_of(part)
        if blob is None:
            parts.append(part)
            continue
        blobs.setdefault(blob.sha256, blob)
        field = "text" if blob.kind == "text" else "data"
        parts.append({**{k: v for k, v in part.items() if k != field}, REF_KEY: blob.sha256})
    if not blobs:
        return Stored(dict(document), ())
    return Stored({**document, "parts": parts}, tuple(blobs.values()))


def _blob_of(part: Mapping[str, Any]) -> Blob | None:
    if part.get("type") == "image":
        content = base64.b64decode(str(part["data"]))
        return Blob(hashlib.sha256(content).hexdigest(), "image", content)
    if part.get("type") == "text" and part.get("origin") == "document":
        content = str(part["text"]).encode("utf-8")
        if len(content) >= INLINE_MAX:
            return Blob(hashlib.sha256(content).hexdigest(), "text", content)
    return None


def references(document: Mapping[str, Any]) -> list[str]:
    parts = document.get("parts", ())
    return [str(p[REF_KEY]) for p in parts if isinstance(p, Mapping) and REF_KEY in p]


class MissingBlob(Exception):
    """A stored message refers to a blob its owner does not have."""

    def __init__(self, sha256: str) -> None:
        super().__init__(sha256)
        self.sha256 = sha256


def put_back(document: dict[str, Any], blobs: Mapping[str, Blob]) -> dict[str, Any]:
    """`document` with every referenced blob back in its part (`MissingBlob` for one that
    is not there)."""
    parts = []
    for part in document.get("parts", ()):
        if isinstance(part, Mapping) and REF_KEY in part:
            blob = blobs.get(str(part[REF_KEY]))
            if blob is None:
                raise MissingBlob(str(part[REF_KEY]))
            rest = {k: v for k, v in part.items() if k != REF_KEY}
            if blob.kind == "text":
                rest["text"] = blob.content.decode("utf-8")
            else:
                rest["data"] = base64.b64encode(blob.content).decode("ascii")
            part = rest
        parts.append(part)
    return {**document, "parts": parts}


# -- in a transaction ---------------------------------------------------------------------------
def lock_owner(conn: Connection, owner: Owner) -> None:
    """Serialise this owner's attachment writes and removals on PostgreSQL, so that a blob
    found present by a turn is never removed by another process before that turn commits.
    (On SQLite every write transaction already holds the database's write lock.)"""
    import sqlalchemy as sa

    if conn.dialect.name == "postgresql":
        conn.execute(
            sa.text("SELECT pg_advisory_xact_lock(hashtextextended(:k, 0))"),
            {"k": f"ctxchat attachments {owner.home} {owner.user}"},
        )


def store_blobs(conn: Connection, owner: Owner, blobs: Iterable[Blob], now: datetime) -> set[str]:
    """Store those of `blobs` this owner does not have yet; returns their hashes (new)."""
    import sqlalchemy as sa

    table = ATTACHMENTS.tables.blobs
    wanted = {b.sha256: b for b in blobs}
    if not wanted:
        return set()
    lock_owner(conn, owner)
    mine = (table.c.home_id == owner.home) & (table.c.user_key == owner.user)
    have = set(
        conn.execute(sa.select(table.c.sha256).where(mine, table.c.sha256.in_(list(wanted))))
        .scalars()
        .all()
    )
    new = [b for h, b in wanted.items() if h not in have]
    if new:
        conn.execute(
            table.insert(),
            [
                {
                    "home_id": owner.home,
                    "user_key": owner.user,
                    "sha256": b.sha256,
                    "kind": b.kind,
                    "size": len(b.content),
                    "created_at": now,
                    "content": b.content,
                }
                for b in new
            ],
        )
    return {b.sha256 for b in new}


def record_uses(
    conn: Connection,
    owner: Owner,
    key: str,
    turn_id: str,
    hashes: Iterable[str],
    indexed: Iterable[str] = (),
) -> None:
    """The turn's uses of `hashes`; those in `indexed` hold the text in its searchable
    body."""
    searchable = set(indexed)
    rows = [
        {
            "history_key": key,
            "turn_id": turn_id,
            "sha256": h,
            "home_id": owner.home,
            "user_key": owner.user,
            "indexed": h in searchable,
        }
        for h in sorted(set(hashes))
    ]
    if rows:
        conn.execute(ATTACHMENTS.tables.uses.insert(), rows)


def copy_uses(
    conn: Connection, key: str, new_key: str, turns: Sequence[str], owner: Owner
) -> list[Reindex]:
    """The uses of `key`'s turns `turns`, as the fork's (`new_key`, owned by `owner`), with
    the blobs the fork's owner lacks copied from the source's owners; returns the fork's
    turns that are to hold the text of a blob new to its owner, which the copied bodies
    lack (the source's text was indexed on a turn not copied)."""
    import sqlalchemy as sa

    tables = ATTACHMENTS.tables
    uses, blobs = tables.uses, tables.blobs
    if not turns:
        return []
    found = conn.execute(
        sa.select(
            uses.c.turn_id, uses.c.sha256, uses.c.home_id, uses.c.user_key, uses.c.indexed
        ).where(uses.c.history_key == key, uses.c.turn_id.in_(list(turns)))
    ).all()
    if not found:
        return []
    sources: dict[str, tuple[str, str]] = {}
    for use in found:
        sources.setdefault(str(use.sha256), (str(use.home_id), str(use.user_key)))
    wanted = []
    for sha, (home, user) in sources.items():
        row = conn.execute(
            sa.select(blobs.c.kind, blobs.c.content).where(
                blobs.c.home_id == home, blobs.c.user_key == user, blobs.c.sha256 == sha
            )
        ).first()
        if row is not None:
            wanted.append(Blob(sha, str(row.kind), bytes(row.content)))
    new = store_blobs(conn, owner, wanted, datetime.now(UTC))
    # The fork's rows carry the source's bodies, so each use keeps the source's flag.
    for turn in sorted({str(r.turn_id) for r in found}):
        mine = [r for r in found if r.turn_id == turn]
        searchable = (str(r.sha256) for r in mine if r.indexed)
        record_uses(conn, owner, new_key, turn, (str(r.sha256) for r in mine), searchable)
    found_next = (_next_indexed(conn, owner.home, owner.user, sha) for sha in sorted(new))
    return [r for r in found_next if r is not None]


def load_blobs(
    conn: Connection, wanted: Iterable[tuple[str, str, str]]
) -> dict[tuple[str, str, str], Blob]:
    """The blobs named by (home, user, hash), one query per owner."""
    import sqlalchemy as sa

    table = ATTACHMENTS.tables.blobs
    by_owner: dict[tuple[str, str], set[str]] = {}
    for home, user, sha in wanted:
        by_owner.setdefault((home, user), set()).add(sha)
    found: dict[tuple[str, str, str], Blob] = {}
    for (home, user), hashes in by_owner.items():
        query = sa.select(table.c.sha256, table.c.kind, table.c.content).where(
            table.c.home_id == home, table.c.user_key == user, table.c.sha256.in_(sorted(hashes))
        )
        for row in conn.execute(query):
            found[(home, user, str(row.sha256))] = Blob(
                str(row.sha256), str(row.kind), bytes(row.content)
            )
    return found


class Reindex(NamedTuple):
    """A turn whose searchable text is to take in the attachment `sha256` (of its owner):
    the turn that held it went, this one still uses the blob."""

    history_key: str
    turn_id: str
    home: str
    user: str
    sha256: str


def drop_uses(conn: Connection, where: Any) -> list[Reindex]:
    """Remove the uses `where` selects, then the blobs of their owners no use is left of;
    returns the turns that are to hold a kept blob's text from now on (marked so)."""
    import sqlalchemy as sa

    tables = ATTACHMENTS.tables
    uses, blobs = tables.uses, tables.blobs
    owners = conn.execute(sa.select(uses.c.home_id, uses.c.user_key).where(where).distinct()).all()
    if not owners:
        return []
    lost = conn.execute(
        sa.select(uses.c.home_id, uses.c.user_key, uses.c.sha256).where(where, uses.c.indexed)
    ).all()
    for home, user in owners:
        lock_owner(conn, Owner(str(home), str(user)))
    conn.execute(uses.delete().where(where))
    for home, user in owners:
        still_used = (
            sa.select(sa.literal(1))
            .select_from(uses)
            .where(
                uses.c.home_id == blobs.c.home_id,
                uses.c.user_key == blobs.c.user_key,
                uses.c.sha256 == blobs.c.sha256,
            )
            .exists()
        )
        conn.execute(
            blobs.delete().where(blobs.c.home_id == home, blobs.c.user_key == user, ~still_used)
        )
    return [r for r in (_next_indexed(conn, *row) for row in set(lost)) if r is not None]


def _next_indexed(conn: Connection, home: str, user: str, sha: str) -> Reindex | None:
    import sqlalchemy as sa

    uses = ATTACHMENTS.tables.uses
    same = (uses.c.home_id == home) & (uses.c.user_key == user) & (uses.c.sha256 == sha)
    if conn.execute(sa.select(sa.literal(1)).where(same, uses.c.indexed).limit(1)).first():
        return None  # another turn holds the text already (a fork's copy)
    first = conn.execute(
        sa.select(uses.c.history_key, uses.c.turn_id)
        .where(same)
        .order_by(uses.c.history_key, uses.c.turn_id)
        .limit(1)
    ).first()
    if first is None:
        return None  # the blob went with its last use
    conn.execute(
        uses.update()
        .where(same, uses.c.history_key == first.history_key, uses.c.turn_id == first.turn_id)
        .values(indexed=True)
    )
    return Reindex(str(first.history_key), str(first.turn_id), str(home), str(user), str(sha))


def indexed_in(conn: Connection, key: str, turn_id: str, home: str, user: str) -> set[str]:
    """The blobs whose text the turn's searchable body holds."""
    import sqlalchemy as sa

    uses = ATTACHMENTS.tables.uses
    query = sa.select(uses.c.sha256).where(
        uses.c.history_key == key,
        uses.c.turn_id == turn_id,
        uses.c.home_id == home,
        uses.c.user_key == user,
        uses.c.indexed,
    )
    return {str(sha) for sha in conn.execute(query).scalars()}


def missing_blob(database_masked: str, seq: int, missing: MissingBlob) -> StorageError:
    return StorageError(
        f"database {database_masked}: history row {seq} refers to attachment "
        f"{missing.sha256[:12]}, which is not stored"
    )
