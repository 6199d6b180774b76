"""`ctxchat sessions delete` and `prune`: what removes sessions, and the rows providers keep
for sessions that are gone. Registered on the `sessions` group by `sessions_cmd`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ctxchat.cli.common import (
    ConfigOption,
    chat_service,
    confirm,
    load_config,
    require_utf8,
    run_sync,
    session_catalog,
)
from ctxchat.core.text import TITLE_SHOWN, local_time, plural, title_or_untitled

if TYPE_CHECKING:
    from ctxchat.services.conversations import ChatService

YesOption = Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")]


def _say_deleted(session_id: str) -> None:
    print(f"deleted {session_id}")


def _delete_question(service: ChatService, ids: list[str]) -> str:
    """Ids alone do not say which conversation goes: each comes with its title."""
    from ctxchat.core.sanitize import one_line

    titles = {s.id: s.title for s in service.sessions()}
    named = ", ".join(
        f'{i} "{one_line(title_or_untitled(titles.get(i)), TITLE_SHOWN)}"' for i in ids
    )
    noun = "session" if len(ids) == 1 else f"{len(ids)} sessions:"
    return f"Delete {noun} {named}?"


def delete(
    refs: Annotated[
        list[str],
        typer.Argument(
            help="Session ids, unique id prefixes or exact titles.",
            metavar="SESSION",
            show_default=False,
        ),
    ],
    yes: YesOption = False,
    config: ConfigOption = None,
) -> None:
    """Delete sessions and what their providers keep.

    What providers keep elsewhere goes with them (SQL history and audit rows...).
    """
    require_utf8(session=refs)
    service = chat_service(load_config(config))
    ids = service.resolve_all(refs)
    if not confirm(_delete_question(service, ids), yes=yes):
        sys.stderr.write("nothing deleted\n")
        return
    from ctxchat.services.deletion import delete_many

    run_sync(delete_many(service, ids, on_deleted=_say_deleted))


def prune(
    older_than: Annotated[
        str | None,
        typer.Option(
            "--older-than",
            metavar="AGE",
            help="Delete sessions last used longer ago than this: 30d, 12h, 2w, 6mo, 1y.",
            show_default=False,
        ),
    ] = None,
    orphans: Annotated[
        bool,
        typer.Option(
            "--orphans",
            help="Instead, remove what providers keep (SQL history, audit rows) for sessions "
            "whose file is gone (deleted by hand, or moved aside as unreadable).",
        ),
    ] = False,
    yes: YesOption = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Only list what would be deleted.")
    ] = False,
    config: ConfigOption = None,
) -> None:
    """Delete old sessions, or rows whose session is gone.

    --older-than AGE deletes sessions not used for that long; --orphans deletes the
    history and audit rows of sessions whose file is gone.
    """
    from ctxchat.core.errors import UsageError
    from ctxchat.core.sanitize import one_line
    from ctxchat.services.prune import parse_age
    from ctxchat.storage.catalog import cutoff_for

    if orphans:
        if older_than is not None:
            raise UsageError("--older-than and --orphans prune different things; give one")
        _prune_orphans(yes=yes, dry_run=dry_run, config=config)
        return
    if older_than is None:
        raise UsageError(
            "give --older-than AGE (sessions not used for that long) or --orphans (records "
            "of sessions that are gone)"
        )

    cutoff = cutoff_for(parse_age(older_than))
    chosen = session_catalog().last_used_before(cutoff)
    if not chosen:
        sys.stderr.write(f"no session was last used more than {older_than} ago\n")
        return
    for s in chosen:
        title = one_line(title_or_untitled(s.title), TITLE_SHOWN)
        print(f"{s.id}  {local_time(s.updated_at)}  {title}")
    counted = plural(len(chosen), "session")
    if dry_run:
        sys.stderr.write(f"{counted} would be deleted (dry run)\n")
        return
    service = chat_service(load_config(config))
    these = "this session" if len(chosen) == 1 else f"these {counted}"
    if not confirm(f"Delete {these}?", yes=yes):
        sys.stderr.write("nothing deleted\n")
        return
    ids = [s.id for s in chosen]
    from ctxchat.services.deletion import prune as prune_sessions

    kept = run_sync(prune_sessions(service, ids, cutoff, on_deleted=_say_deleted))
    for session_id in kept:
        sys.stderr.write(f"kept {session_id}: it was used while prune waited for it\n")


def _prune_orphans(*, yes: bool, dry_run: bool, config: Path | None) -> None:
    from ctxchat.services.orphans import find_orphans, remove_orphans

    service = chat_service(load_config(config))
    found = run_sync(find_orphans(service))
    if not found:
        sys.stderr.write("nothing to prune: every record belongs to a saved session\n")
        return
    for orphan in found:
        kept = ", ".join(f"{src}: {plural(n, 'record')}" for src, n in orphan.records.items())
        print(f"{orphan.key}  {kept}")
    counted = plural(len(found), "session")
    if dry_run:
        sys.stderr.write(f"the records of {counted} with no file would be removed (dry run)\n")
        return
    if not confirm(f"Remove the records of {counted} with no file?", yes=yes):
        sys.stderr.write("nothing removed\n")
        return
    kept_keys = run_sync(
        remove_orphans(service, found, on_removed=lambda o: print(f"removed {o.key}"))
    )
    for key in kept_keys:
        sys.stderr.write(f"kept {key}: its session was saved while prune waited for it\n")
