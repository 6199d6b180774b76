"""`sessions list` as a table: ids never cut (they are what gets copied), shown by the
shortest prefix that tells them apart (`ctxchat.core.idprefix`), headers never
cut, and on a narrow terminal the title and the model keep a readable width; the `created`
column gives way first, shortened to a date, then left out. A model that is a file path
keeps its file name: it is cut from the start of the path."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ctxchat.core.sanitize import one_line
from ctxchat.core.text import TITLE_SHOWN, local_date, local_time, title_or_untitled

if TYPE_CHECKING:
    from ctxchat.storage.store import SessionSummary

HEADER = ("id", "title", "model", "role", "turns", "created", "last used")
ID, TITLE, MODEL, ROLE, TURNS, CREATED, LAST_USED = range(len(HEADER))
GAP = "  "
# Below this many cells a title stops saying what the session was about, and a model's
# file name what the model is.
MIN_TITLE = 16
MIN_MODEL = 16


def _width(text: str) -> int:
    from rich.cells import cell_len

    return cell_len(text)


def _fit(text: str, width: int) -> str:
    """`text` padded to `width` cells, or cut to it with an ellipsis."""
    from rich.cells import set_cell_size

    if _width(text) <= width:
        return text + " " * (width - _width(text))
    return set_cell_size(text, max(0, width - 1)) + "…"


def _fit_end(text: str, width: int) -> str:
    """`_fit`, but a text too long loses its start: the end of a path names the model."""
    if _width(text) <= width:
        return _fit(text, width)
    kept = text
    while kept and _width(kept) > max(0, width - 1):
        kept = kept[1:]
    return "…" + kept


def _natural(cells: Sequence[Sequence[str]], column: int) -> int:
    return max(_width(row[column]) for row in cells)


def _fitted(cells: list[list[str]], dates: list[str], width: int, *, roles: bool) -> dict[int, int]:
    """Column widths for a terminal `width` cells wide (`cells[0]` is the header); 0 leaves
    a column out. The id, turns and last-used columns never shrink; when the title would
    get too narrow, `created` is shortened to the date (written into `cells`), then left
    out."""
    fixed = sum(_natural(cells, c) for c in (ID, TURNS, LAST_USED))
    role_room = _natural(cells, ROLE) + len(GAP) if roles else 0
    title, model = _natural(cells, TITLE), _natural(cells, MODEL)
    created_header = len(HEADER[CREATED])
    choices = [
        (_natural(cells, CREATED), None),
        (max(created_header, *(_width(d) for d in dates)), dates),
        (0, None),
    ]
    for created_width, replacement in choices:
        columns = len(HEADER) - 1 if created_width else len(HEADER) - 2  # role aside
        room = width - fixed - role_room - created_width - len(GAP) * (columns - 1)
        # The model gets up to 2/5 of the room but not what the title needs to be read;
        # whatever a short title leaves goes back to the model.
        least_title = min(title, MIN_TITLE)
        least_model = min(model, MIN_MODEL)
        model_width = min(model, max(len(HEADER[MODEL]), min(room * 2 // 5, room - least_title)))
        title_width = max(len(HEADER[TITLE]), min(title, room - model_width))
        model_width = max(model_width, min(model, room - title_width))
        readable = title_width >= least_title and model_width >= least_model
        if readable or not created_width:
            if replacement is not None:
                for row, date in zip(cells[1:], replacement, strict=True):
                    row[CREATED] = date
            return {TITLE: title_width, MODEL: model_width, CREATED: created_width}
    raise AssertionError("the last choice always fits")


def table_lines(
    summaries: Sequence[SessionSummary],
    width: int | None,
    short: Mapping[str, str] | None = None,
) -> list[str]:
    """The header and one line per session, no trailing spaces. `width` None (a pipe):
    every cell whole, however long the line. `short`: the id prefix each session is shown
    by (unique, so it is a reference)."""
    cells = [list(HEADER)]
    for s in summaries:
        cells.append(
            [
                (short or {}).get(s.id, s.id),
                one_line(title_or_untitled(s.title), TITLE_SHOWN),
                one_line(s.model or ""),
                one_line(s.role or ""),
                str(s.turns),
                local_time(s.created_at),
                local_time(s.updated_at),
            ]
        )
    roles = any(s.role for s in summaries)  # the column is shown only when a session has one
    widths = {c: _natural(cells, c) for c in range(len(HEADER))}
    if width is not None:
        dates = [local_date(s.created_at) for s in summaries]
        widths.update(_fitted(cells, dates, width, roles=roles))
    if not roles:
        widths[ROLE] = 0
    shown = [c for c in range(len(HEADER)) if widths[c] > 0]
    lines = []
    for row in cells:
        parts = []
        for column in shown:
            if column == TURNS:
                parts.append(row[column].rjust(widths[column]))
            elif column == MODEL and row is not cells[0]:
                parts.append(_fit_end(row[column], widths[column]))
            else:
                parts.append(_fit(row[column], widths[column]))
        lines.append(GAP.join(parts).rstrip())
    return lines
