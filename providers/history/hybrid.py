"""Hybrid search of `ctxchat_history`: the full-text candidates, ranked by words, joined by
the user's messages nearest the query's vector (`_history_vectors.nearest`), and the union
ranked by `ctxchat.ranking.message_hybrid.fuse`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ctxchat.kit import Ranked

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from ctxchat.kit import Database, Matrix, Owner


@dataclass(frozen=True)
class QueryVector:
    """A query's unit vector and the identity of the model that made it (only vectors of
    the same model are compared with it)."""

    vector: Matrix
    model: str


def _cosine(row: Any, meaning: QueryVector) -> float | None:
    import numpy as np

    raw = row.embedding
    if raw is None or row.embedding_model != meaning.model:
        return None
    vector = (
        np.frombuffer(raw, dtype="<f4")
        if isinstance(raw, bytes | memoryview)
        else np.asarray(raw, dtype=np.float32)
    )
    if vector.shape != meaning.vector.shape:
        return None
    norm = float(np.linalg.norm(vector)) or 1.0
    return float(vector @ meaning.vector) / norm


def hybrid_order(
    conn: Connection,
    database: Database,
    owner: Owner,
    keys: Collection[str] | None,
    meaning: QueryVector,
    lexical: Sequence[tuple[Any, Ranked]],
    wanted: int,
    columns: str,
) -> list[tuple[Any, Ranked]]:
    """The rows to show, best first, each with its fused `Ranked`: the lexical candidates
    (rows read with their vectors) and the `wanted` nearest by meaning, read with the
    same `columns`."""
    from ctxchat.kit import fuse

    from .vectors import nearest, nearest_pgvector

    rows: dict[tuple[str, int], Any] = {}
    by_words: list[tuple[tuple[str, int], Ranked]] = []
    for row, ranked in lexical:
        where = (str(row.history_key), int(row.seq))
        rows[where] = row
        by_words.append((where, ranked))
    user, model, vector = owner.user, meaning.model, meaning.vector
    found = nearest(conn, database, user, model, vector, keys, wanted, also=rows)
    if found is None:  # pgvector: the nearest from it, the candidates' own from their rows
        cosines = {
            (k, s): c for k, s, c in nearest_pgvector(conn, user, model, vector, keys, wanted)
        }
        for where, row in rows.items():
            cosine = _cosine(row, meaning)
            if cosine is not None:
                cosines.setdefault(where, cosine)
    else:
        cosines = found
    missing = [where for where in cosines if where not in rows]
    rows.update(_rows_at(conn, missing, columns))
    order = fuse(by_words, cosines)
    return [(rows[f.ident], Ranked(0, f.score, f.relevance)) for f in order if f.ident in rows]


def _rows_at(
    conn: Connection, places: Sequence[tuple[str, int]], columns: str
) -> dict[tuple[str, int], Any]:
    """The search's columns of the rows at (key, seq) places."""
    import sqlalchemy as sa

    if not places:
        return {}
    params: dict[str, Any] = {}
    pairs = []
    for i, (key, seq) in enumerate(places):
        params[f"k{i}"], params[f"s{i}"] = key, seq
        pairs.append(f"(h.history_key = :k{i} AND h.seq = :s{i})")
    if conn.dialect.name != "sqlite":
        columns = columns.replace("h.rowid AS rid, ", "")
    # Pairs ORed, not a row-value IN: SQLite would scan the table for that.
    sql = f"SELECT {columns} FROM ctxchat_history h WHERE {' OR '.join(pairs)}"
    return {(str(r.history_key), int(r.seq)): r for r in conn.execute(sa.text(sql), params)}
