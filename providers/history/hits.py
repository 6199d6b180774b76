"""A search's hits as `MessageHit`s: a ranked row's snippet, date and text, and the turn
beside it: read with the candidates by a search by words (`neighbour_join`); else, with
the message's id when the search did not read it, for all the hits in one query
(`completed`; see `history.search`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ctxchat.kit import MATCH_END, MATCH_START, MessageHit, Neighbour, Ranked, Term, snippet, utc

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

NEIGHBOUR_CHARS = 400


def _when(value: Any) -> Any:
    if isinstance(value, str):  # SQLite, asked in SQL text, hands back the stored text
        from datetime import datetime

        value = datetime.fromisoformat(value)
    return utc(value)


# The turn beside each candidate, read with it (`neighbour_join`): for the few hundred
# bytes of each of 50 candidates' neighbour, a search by words spares a query of its own
# (on PostgreSQL a round trip and a plan of 20 ORed pairs: the median search at 100,000
# messages 11.2-11.8 -> 9.3-10.2 ms; on SQLite 1%).
NEIGHBOUR_COLUMNS = (
    "n.seq AS n_seq, n.role AS n_role, n.created_at AS n_created_at, n.body AS n_body"
)


def neighbour_join(alias: str) -> str:
    """The turn beside each row of `alias` (the reply to a user's message, the message an
    assistant's replied to), found through the history's primary key."""
    return (
        f"LEFT JOIN ctxchat_history n ON n.history_key = {alias}.history_key "
        f"AND n.seq = {alias}.seq + CASE WHEN {alias}.role = 'user' THEN 1 ELSE -1 END"
    )


def hit_of(
    row: Any, ranked: Ranked, plan: Sequence[Term], home: str, *, with_id: bool, joined: bool
) -> MessageHit:
    """A ranked row of the search as a hit: with `joined` whole (the row holds its
    neighbour's columns, `NEIGHBOUR_COLUMNS`); else its neighbour and, without `with_id`,
    its message id still to come (`completed`)."""
    neighbour = None
    if joined and row.n_seq is not None and str(row.n_body).strip():
        neighbour = Neighbour(
            seq=int(row.n_seq),
            role=str(row.n_role),
            created_at=_when(row.n_created_at),
            text=_clipped(str(row.n_body)),
        )
    return MessageHit(
        key=str(row.history_key),
        seq=int(row.seq),
        role=str(row.role),
        created_at=_when(row.created_at),
        snippet=snippet(str(row.body), plan, (MATCH_START, MATCH_END)),
        score=ranked.score,
        local=row.home_id == home,
        relevance=ranked.relevance,
        text=_clipped(str(row.body)),
        message_id=_message_id(row.message) if with_id or joined else "",
        neighbour=neighbour,
    )


def _message_id(document: object) -> str:
    """The id inside a stored message document ("" when it has none)."""
    import json

    try:
        data = json.loads(str(document))
    except ValueError:
        return ""
    found = data.get("id") if isinstance(data, dict) else None
    return found if isinstance(found, str) else ""


def completed(conn: Connection, hits: list[MessageHit], *, ids: bool) -> list[MessageHit]:
    """Each hit with its neighbouring turn (the reply to a user's message, the message an
    assistant's replied to: an answer often sits in the reply to what matched), and with
    `ids` its message's id, both read in one query."""
    import dataclasses

    if not hits:
        return hits
    wanted = {(h.key, h.seq + 1 if h.role == "user" else h.seq - 1) for h in hits}
    if ids:
        wanted |= {(h.key, h.seq) for h in hits}
    # Bound in the driver's own style: `text()` would parse the 40-odd names each time.
    bound = ":{}" if conn.dialect.name == "sqlite" else "%({})s"
    params: dict[str, Any] = {}
    pairs = []
    for i, (key, seq) in enumerate(sorted(wanted)):
        params[f"k{i}"], params[f"s{i}"] = key, seq
        pairs.append(f"(history_key = {bound.format(f'k{i}')} AND seq = {bound.format(f's{i}')})")
    # Pairs ORed, not a row-value IN: SQLite would scan the table for that.
    query = (
        "SELECT history_key, seq, role, created_at, body, message FROM ctxchat_history "
        f"WHERE {' OR '.join(pairs)}"
    )
    found = {(str(r.history_key), int(r.seq)): r for r in conn.exec_driver_sql(query, params)}
    completed = []
    for hit in hits:
        row = found.get((hit.key, hit.seq + 1 if hit.role == "user" else hit.seq - 1))
        neighbour = None
        if row is not None and str(row.body).strip():
            neighbour = Neighbour(
                seq=int(row.seq),
                role=str(row.role),
                created_at=_when(row.created_at),
                text=_clipped(str(row.body)),
            )
        own = found.get((hit.key, hit.seq)) if ids else None
        message_id = _message_id(own.message) if own is not None else hit.message_id
        completed.append(dataclasses.replace(hit, neighbour=neighbour, message_id=message_id))
    return completed


def _clipped(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= NEIGHBOUR_CHARS else flat[: NEIGHBOUR_CHARS - 1] + "…"
