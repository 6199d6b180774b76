"""Message vectors: step 5 of the history store, and what hybrid search reads of them.

A message's vector lives in its own history row (`embedding`, with `embedding_model`, the
identity of the endpoint and model that made it), not in a table of its own: a row deleted
by a session's deletion, an undo, a journal rollback or a prune takes its vector with it in
the same statement, and a fork copies it with the row. Nothing has to be kept in step.
On SQLite it is little-endian float32 bytes; on PostgreSQL a plain `real[]` (pgvector cannot
be installed on the machines this was built on; when the extension is there, it is found at
run time and the nearest vectors are asked of it, see `nearest`: untested here).

Rows are embedded when asked (`pending`, `store`): after a turn, by the recall provider's
learning step, never in the way of a reply; old history by `ctxchat recall index`. A row
whose vector is of another model counts as not embedded.

Without pgvector, a query's cosines are a matrix-vector product over the user's vectors,
read once and kept per process (`_CACHE`), checked against a fingerprint of the user's
embedded rows (their count and sum of sequence numbers, and of rowids on SQLite, all read
from the index alone) before every use: a delete, undo, prune, fork or new vector changes
it and the matrix is read again. (An undo followed by a new turn of the same size, both
embedded, with no search between, would keep the undone turn's vectors for the new one until
the next change: each turn's recall searches in between, so it does not arise in a chat.)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from ctxchat.kit import Database, Matrix, Owner

VECTOR_COLUMN = "embedding"
MODEL_COLUMN = "embedding_model"
EMBEDDED_ROLES = ("user", "assistant")
MAX_EMBEDDED_CHARS = 2000  # a sentence model reads a few hundred words at most
CACHED_USERS = 4


def m5_vectors(conn: Connection) -> None:
    """Migration DDL: the vector and its model on every row (none yet), and an index to find
    a user's rows of one model that also answers `_fingerprint` by itself."""
    vector_type = "BLOB" if conn.dialect.name == "sqlite" else "REAL[]"
    conn.exec_driver_sql(f"ALTER TABLE ctxchat_history ADD COLUMN {VECTOR_COLUMN} {vector_type}")
    conn.exec_driver_sql(f"ALTER TABLE ctxchat_history ADD COLUMN {MODEL_COLUMN} TEXT")
    conn.exec_driver_sql(
        f"CREATE INDEX ctxchat_history_embedded ON ctxchat_history (user_key, {MODEL_COLUMN}, seq)"
    )


def vector_type() -> Any:
    """The column's type for queries: bytes on SQLite, an array of reals on PostgreSQL."""
    import sqlalchemy as sa

    # The generic ARRAY, which PostgreSQL's dialect renders as its own: naming that one
    # imported the PostgreSQL dialect and its four drivers' modules (15 ms of CPU) into
    # every SQLite turn.
    return sa.LargeBinary().with_variant(sa.ARRAY(sa.REAL), "postgresql")


@dataclass(frozen=True)
class PendingRow:
    key: str
    seq: int
    turn_id: str
    text: str


def _unembedded(owner: Owner, model: str, keys: Collection[str] | None) -> Any:
    import sqlalchemy as sa

    from .schema import HISTORY

    table = HISTORY.tables
    user: Any = table.c.user_key
    if keys is not None:
        # A few sessions' rows, found by the primary key: compared as an expression, the
        # user's own index is not chosen for it (SQLite then read every row of the user,
        # 2 s a turn at 100,000 messages, bench/recall.py).
        user = user + ""
    query = (
        sa.select(table.c.history_key, table.c.seq, table.c.turn_id, table.c.body)
        .where(user == owner.user, table.c.home_id == owner.home)
        .where(table.c.role.in_(EMBEDDED_ROLES), table.c.body != "")
        .where(sa.or_(table.c.embedding_model.is_(None), table.c.embedding_model != model))
    )
    if keys is not None:
        query = query.where(table.c.history_key.in_(sorted(keys)))
    return query


def count_pending(
    database: Database, owner: Owner, model: str, keys: Collection[str] | None = None
) -> int:
    """How many of this home's rows of the user have no vector of `model`."""
    import sqlalchemy as sa

    query = sa.select(sa.func.count()).select_from(_unembedded(owner, model, keys).subquery())
    return int(database.read(lambda conn: conn.execute(query).scalar()) or 0)


def pending(
    database: Database,
    owner: Owner,
    model: str,
    keys: Collection[str] | None = None,
    *,
    limit: int,
) -> list[PendingRow]:
    """Up to `limit` rows to embed, oldest key first."""
    query = _unembedded(owner, model, keys).limit(limit)
    rows = database.read(lambda conn: list(conn.execute(query)))
    return [
        PendingRow(str(r.history_key), int(r.seq), str(r.turn_id), str(r.body)[:MAX_EMBEDDED_CHARS])
        for r in rows
    ]


def store(
    database: Database,
    rows: Sequence[PendingRow],
    matrix: Matrix,
    model: str,
    user: str | None = None,
) -> None:
    """Each row's vector, in one transaction; a row undone and written again meanwhile (its
    turn id changed) is left for the next pass. With `user`, the process's cache of the
    user's vectors, when it was current, takes the new ones in place instead of being read
    again whole (5.5 s a turn at 100,000 messages on SQLite, bench/recall.py)."""
    import sqlalchemy as sa

    from .schema import HISTORY

    table = HISTORY.tables
    values = [
        {
            "k": row.key,
            "s": row.seq,
            "t": row.turn_id,
            "v": vector.astype("<f4").tobytes() if database.is_sqlite else vector.tolist(),
            "m": model,
        }
        for row, vector in zip(rows, matrix, strict=True)
    ]
    update = (
        table.update()
        .where(
            table.c.history_key == sa.bindparam("k"),
            table.c.seq == sa.bindparam("s"),
            table.c.turn_id == sa.bindparam("t"),
        )
        .values(embedding=sa.bindparam("v"), embedding_model=sa.bindparam("m"))
    )
    if not values:
        return

    def write(conn: Connection) -> tuple[Any, Any]:
        before = _fingerprint(conn, user, model) if user is not None else None
        conn.execute(update, values)
        return before, _fingerprint(conn, user, model) if user is not None else None

    before, after = database.write(write)
    if user is not None:
        _extend_cache((database.url, user, model), before, after, rows, matrix)


def _extend_cache(
    slot: tuple[str, str, str],
    before: tuple[Any, ...],
    after: tuple[Any, ...],
    rows: Sequence[PendingRow],
    matrix: Matrix,
) -> None:
    """The cached vectors of `slot` with `rows`' new ones, if the cache held exactly what
    the database did before they were stored (else it is read again when next used). A
    row the update missed (undone meanwhile) may stay in it: its place finds no row, and
    search leaves it out."""
    import numpy as np

    with _CACHE_LOCK:
        cached = _CACHE.get(slot)
        if cached is None or cached.fingerprint != before:
            return
        width = cached.matrix.shape[1] if cached.matrix.size else matrix.shape[1]
        if matrix.shape[1] != width:
            _CACHE.pop(slot)
            return
        vectors = cached.matrix if cached.matrix.size else np.zeros((0, width), np.float32)
        keys, seqs, positions = list(cached.keys), list(cached.seqs), dict(cached.positions)
        fresh: list[Any] = []
        replaced = vectors.copy() if any((r.key, r.seq) in positions for r in rows) else vectors
        for row, vector in zip(rows, matrix, strict=True):
            at = positions.get((row.key, row.seq))
            if at is not None:
                replaced[at] = vector
                continue
            positions[(row.key, row.seq)] = len(keys)
            keys.append(row.key)
            seqs.append(row.seq)
            fresh.append(vector)
        grown = np.vstack([replaced, np.asarray(fresh, np.float32)]) if fresh else replaced
        _CACHE[slot] = UserVectors(after, tuple(keys), tuple(seqs), grown, positions)


@dataclass(frozen=True)
class UserVectors:
    """A user's embedded rows of one model: where each is, and its unit vector. (Not
    centred on the user's history, as tool vectors are on their catalogue: measured on the
    recall dev questions, centring cost a point of R@10.)"""

    fingerprint: tuple[Any, ...]
    keys: tuple[str, ...]
    seqs: tuple[int, ...]
    matrix: Matrix
    positions: dict[tuple[str, int], int]


_CACHE: OrderedDict[tuple[str, str, str], UserVectors] = OrderedDict()
_CACHE_LOCK = threading.Lock()


def _fingerprint(conn: Connection, user: str, model: str) -> tuple[Any, ...]:
    import sqlalchemy as sa

    from .schema import HISTORY

    table = HISTORY.tables
    # Only what the index holds (on SQLite its rowids too), so no row is read: the rows
    # are wide with their vectors, and reading them cost more than the search.
    measures: list[Any] = [sa.func.count(), sa.func.sum(table.c.seq)]
    if conn.dialect.name == "sqlite":
        measures.append(sa.func.sum(sa.literal_column("rowid")))
    query = sa.select(*measures).where(table.c.user_key == user, table.c.embedding_model == model)
    return tuple(conn.execute(query).one())


def user_vectors(conn: Connection, database: Database, user: str, model: str) -> UserVectors:
    """The user's vectors of `model` (every home's), from the cache while still current."""
    import numpy as np
    import sqlalchemy as sa

    from ctxchat.kit import normalise

    from .schema import HISTORY

    fingerprint = _fingerprint(conn, user, model)
    slot = (database.url, user, model)
    with _CACHE_LOCK:
        cached = _CACHE.get(slot)
        if cached is not None and cached.fingerprint == fingerprint:
            _CACHE.move_to_end(slot)
            return cached
    table = HISTORY.tables
    query = sa.select(table.c.history_key, table.c.seq, table.c.embedding).where(
        table.c.user_key == user, table.c.embedding_model == model
    )
    keys: list[str] = []
    seqs: list[int] = []
    vectors: list[Any] = []
    for row in conn.execute(query):
        raw = row.embedding
        vector = (
            np.frombuffer(raw, dtype="<f4")
            if isinstance(raw, bytes | memoryview)
            else np.asarray(raw, dtype=np.float32)
        )
        if vectors and vector.shape != vectors[0].shape:
            continue  # a stray row of another size under the same name: left out
        keys.append(str(row.history_key))
        seqs.append(int(row.seq))
        vectors.append(vector)
    matrix = (
        normalise(np.stack(vectors).astype(np.float32))
        if vectors
        else np.zeros((0, 0), dtype=np.float32)
    )
    positions = {place: i for i, place in enumerate(zip(keys, seqs, strict=True))}
    found = UserVectors(fingerprint, tuple(keys), tuple(seqs), matrix, positions)
    with _CACHE_LOCK:
        _CACHE[slot] = found
        while len(_CACHE) > CACHED_USERS:
            _CACHE.popitem(last=False)
    return found


def has_pgvector(conn: Connection) -> bool:
    """Whether the PostgreSQL database has the pgvector extension (asked per query: cheap,
    and an extension may be created at any time)."""
    import sqlalchemy as sa

    if conn.dialect.name == "sqlite":
        return False
    found = conn.execute(sa.text("SELECT 1 FROM pg_extension WHERE extname = 'vector'")).first()
    return found is not None


def nearest(
    conn: Connection,
    database: Database,
    user: str,
    model: str,
    query: Matrix,
    keys: Collection[str] | None,
    count: int,
    also: Collection[tuple[str, int]] = (),
) -> dict[tuple[str, int], float] | None:
    """The cosines of the user's `count` rows nearest `query` (a unit vector), by (key, seq),
    and of the rows at the places `also` names that have a vector; None when the database
    has pgvector, which the caller asks instead (`nearest_pgvector`)."""
    if has_pgvector(conn):
        return None
    import numpy as np

    from ctxchat.kit import top_positions

    vectors = user_vectors(conn, database, user, model)
    if not vectors.keys or vectors.matrix.shape[1] != query.shape[0]:
        return {}
    cosines = vectors.matrix @ query
    found = {
        place: float(cosines[i])
        for place in also
        if (i := vectors.positions.get(place)) is not None
    }
    if keys is not None:
        wanted = set(keys)
        mask = np.fromiter((k in wanted for k in vectors.keys), dtype=bool, count=len(vectors.keys))
        cosines = np.where(mask, cosines, -np.inf)
    for i in top_positions(cosines, count):
        if np.isfinite(cosines[i]):
            found[(vectors.keys[i], vectors.seqs[i])] = float(cosines[i])
    return found


def nearest_pgvector(
    conn: Connection,
    user: str,
    model: str,
    query: Matrix,
    keys: Collection[str] | None,
    count: int,
) -> list[tuple[str, int, float]]:
    """pgvector's cosine distance over the stored arrays, cast (untested here: the extension
    cannot be installed on these machines)."""
    import sqlalchemy as sa

    params: dict[str, Any] = {
        "u": user,
        "m": model,
        "q": "[" + ",".join(f"{x:.7g}" for x in query.tolist()) + "]",
        "c": count,
    }
    where = ""
    if keys is not None:
        names = []
        for i, key in enumerate(sorted(keys)):
            params[f"k{i}"] = key
            names.append(f":k{i}")
        where = f" AND history_key IN ({', '.join(names) or 'NULL'})"
    sql = (
        f"SELECT history_key, seq, 1 - ({VECTOR_COLUMN}::vector <=> CAST(:q AS vector)) AS cos "
        f"FROM ctxchat_history WHERE user_key = :u AND {MODEL_COLUMN} = :m{where} "
        f"ORDER BY {VECTOR_COLUMN}::vector <=> CAST(:q AS vector) LIMIT :c"
    )
    return [
        (str(r.history_key), int(r.seq), float(r.cos)) for r in conn.execute(sa.text(sql), params)
    ]
