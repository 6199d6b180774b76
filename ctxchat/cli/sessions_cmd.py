"""`ctxchat sessions`: list, show, search, fork, export, rename, delete and prune saved
sessions."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ctxchat.cli.common import (
    ConfigOption,
    SessionArg,
    chat_service,
    confirm,
    load_config,
    require_utf8,
    run_sync,
    session_catalog,
    warn,
)
from ctxchat.cli.help_words import WordsCommand
from ctxchat.core.sanitize import json_text
from ctxchat.core.text import TITLE_SHOWN, local_time, plural, title_or_untitled

if TYPE_CHECKING:
    from rich.console import Console

    from ctxchat.services.conversations import ChatService
    from ctxchat.storage.store import SessionSummary

app = typer.Typer(
    help="List, search, fork, show, export and delete sessions.",
    no_args_is_help=True,
)

YesOption = Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")]


class Format(StrEnum):
    md = "md"
    json = "json"
    jsonl = "jsonl"


def _reading_console() -> Console:
    """The console for what people read. A pipe has no width: lines are never wrapped there
    (a `grep` or a file gets them whole, without padding), a terminal wraps them itself."""
    from ctxchat.cli.render import make_console

    console = make_console()
    if not console.is_terminal:
        console.soft_wrap = True
    return console


def _summary_dict(s: SessionSummary) -> dict[str, object]:
    return {
        "id": s.id,
        "title": s.title,
        "model": s.model,
        "turns": s.turns,
        "created_at": s.created_at.isoformat(),
        "updated_at": s.updated_at.isoformat(),
        "forked_from": s.forked_from.to_dict() if s.forked_from else None,
    }


@app.command("list", cls=WordsCommand)
def list_sessions(
    limit: Annotated[
        int | None,
        typer.Option(min=1, metavar="N", help="Show at most this many.", show_default=False),
    ] = None,
    json_output: Annotated[bool, typer.Option("--json", help="A JSON array.")] = False,
    config: ConfigOption = None,
) -> None:
    """Saved sessions, most recently used first."""
    del config  # accepted like everywhere (an alias may carry it); the list is the same
    catalog = session_catalog()
    summaries = catalog.list(limit=limit)
    store = catalog.store
    for session_id, why in store.unreadable.items():
        hint = f"; `ctxchat sessions show {session_id}` moves it aside"
        warn(
            f"session {session_id} is left out: {why}{hint if session_id in store.damaged else ''}"
        )
    if json_output:
        print(json_text([_summary_dict(s) for s in summaries], indent=2))
        return
    if not summaries:
        sys.stderr.write("no saved sessions yet\n")
        return
    from rich.text import Text

    from ctxchat.cli.session_table import table_lines

    console = _reading_console()
    width = console.width if console.is_terminal else None
    header, *rows = table_lines(summaries, width)
    console.print(Text(header, style="bold"), soft_wrap=True)
    for row in rows:
        console.print(Text(row), soft_wrap=True)


@app.command(cls=WordsCommand)
def show(
    ref: SessionArg,
    audit: Annotated[
        bool,
        typer.Option(
            "--audit", help="Show the audit record of every turn (from providers that keep one)."
        ),
    ] = False,
    plain: Annotated[
        bool, typer.Option("--plain", help="Replies as plain text, not Markdown.")
    ] = False,
    config: ConfigOption = None,
) -> None:
    """Show a conversation (--audit: what the model saw).

    The conversation as it reads; with --audit, what each provider put before the model
    turn by turn, failed turns included.
    """
    from ctxchat.cli.render import print_turns
    from ctxchat.core.sanitize import one_line
    from ctxchat.views.transcript import group_turns

    service = chat_service(load_config(config))
    session = service.open(ref).session
    console = _reading_console()
    if audit:
        from ctxchat.cli.audit_view import print_audit
        from ctxchat.services.audits import collect_audit

        print_audit(console, session, run_sync(collect_audit(service.agent, session)))
        return
    messages = run_sync(service.transcript(session))
    from rich.text import Text

    console.print(Text(one_line(session.display_title()), style="bold"))
    model = one_line(session.model or "unknown model")
    console.print(
        Text(
            f"{session.id} · {model} · {plural(session.turns, 'turn')} · "
            f"last used {local_time(session.updated_at)}",
            style="dim",
        )
    )
    if session.forked_from is not None:
        point = session.forked_from
        console.print(Text(f"forked from {point.session} at turn {point.turn}", style="dim"))
    console.print()
    print_turns(console, group_turns(messages), markdown=not plain and console.is_terminal)


@app.command(cls=WordsCommand)
def search(
    query: Annotated[
        str, typer.Argument(metavar="QUERY", help="The words to find.", show_default=False)
    ],
    limit: Annotated[int, typer.Option(min=1, metavar="N", help="Show at most this many.")] = 10,
    session: Annotated[
        str | None,
        typer.Option(
            "--session", metavar="SESSION", help="Search this session only.", show_default=False
        ),
    ] = None,
    json_output: Annotated[bool, typer.Option("--json", help="A JSON array.")] = False,
    config: ConfigOption = None,
) -> None:
    """Find stored messages of every session by their words, best first.

    Every word must be in a message; each hit shows its session, date, role and a snippet.
    """
    from ctxchat.cli.search_view import print_hits
    from ctxchat.services.session_search import search_sessions

    require_utf8(query=query, session=session)
    service = chat_service(load_config(config))
    only = service.open(session).session if session is not None else None
    found = search_sessions(
        service.agent.run_providers(), service.store, query, limit=limit, session=only
    )
    print_hits(_reading_console(), run_sync(found), json_output=json_output)


@app.command(cls=WordsCommand)
def fork(
    ref: SessionArg,
    at: Annotated[
        int | None,
        typer.Option(
            "--at", min=1, metavar="N", help="Take turns 1 to N (default: all).", show_default=False
        ),
    ] = None,
    config: ConfigOption = None,
) -> None:
    """Go on from a session in a copy of it, up to turn N.

    The fork has the conversation up to turn N, each provider's state copied and its own
    copy of the SQL history; from then on the two go their own ways.
    """
    from ctxchat.core.sanitize import one_line
    from ctxchat.services.forking import fork_session

    service = chat_service(load_config(config))
    source = service.store.resolve(ref)
    made = run_sync(fork_session(service, source, at))
    print(f"{made.id}: {one_line(made.display_title())}")
    sys.stderr.write(f"forked {source} at turn {made.turns}\n")


@app.command(cls=WordsCommand)
def export(
    ref: SessionArg,
    format: Annotated[
        Format | None,
        typer.Option(
            "--format",
            "-f",
            metavar="FORMAT",
            help="md, json or jsonl (default: from the output file's extension, else md).",
            show_default=False,
        ),
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            metavar="FILE",
            help="Write to this file; - or none: stdout.",
            show_default=False,
        ),
    ] = None,
    audit: Annotated[
        bool,
        typer.Option(
            "--audit",
            help="Export the audit record of every turn instead (md, json, or jsonl: one "
            "turn a line).",
        ),
    ] = False,
    config: ConfigOption = None,
) -> None:
    """Write a session as md, json or jsonl.

    Markdown for people, the full session document (JSON), or OpenAI chat messages one per
    line (JSONL).
    """
    from ctxchat.views.export import export_format, export_text, format_for_path, write_export

    if output is not None and str(output) == "-":  # the usual name for stdout
        output = None
    service = chat_service(load_config(config))
    session = service.open(ref).session
    if format is not None:
        fmt = export_format(format.value)
    else:
        fmt = format_for_path(output) if output is not None else "md"
    if audit:
        from ctxchat.services.audits import collect_audit
        from ctxchat.views.audit_export import audit_text

        trail = run_sync(collect_audit(service.agent, session))
        text = audit_text(session, trail, fmt)
        what = plural(sum(len(records) for _, records in trail), "audited turn")
    else:
        messages = run_sync(service.transcript(session))
        text = export_text(session, messages, fmt)
        what = plural(len(messages), "message")
    if output is None:
        sys.stdout.write(text)
        return
    write_export(output, text)
    sys.stderr.write(f"exported {what} to {output}\n")


@app.command(cls=WordsCommand)
def rename(
    ref: SessionArg,
    title: Annotated[
        str, typer.Argument(metavar="TITLE", help="The new title.", show_default=False)
    ],
    config: ConfigOption = None,
) -> None:
    """Give a session a new title."""
    from ctxchat.core.sanitize import one_line

    require_utf8(title=title)
    service = chat_service(load_config(config))
    conversation = service.open(ref)
    service.rename(conversation, title)
    print(f"{conversation.session.id}: {one_line(conversation.session.display_title())}")


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


@app.command(cls=WordsCommand)
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


@app.command(cls=WordsCommand)
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
