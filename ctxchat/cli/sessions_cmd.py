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
    load_config,
    require_utf8,
    run_sync,
    session_catalog,
    warn,
)
from ctxchat.cli.help_words import WordsCommand
from ctxchat.cli.sessions_cleanup import delete, prune
from ctxchat.core.sanitize import json_text
from ctxchat.core.text import local_time, plural

if TYPE_CHECKING:
    from rich.console import Console

    from ctxchat.storage.store import SessionSummary

# The largest --limit taken: far more than anyone reads, and a 64-bit integer.
MAX_LIMIT = 1_000_000

app = typer.Typer(
    help="List, search, fork, show, export and delete sessions.",
    no_args_is_help=True,
)


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
        "role": s.role,
        "project": s.project,
    }


@app.command("list", cls=WordsCommand)
def list_sessions(
    limit: Annotated[
        int | None,
        typer.Option(
            min=1, max=MAX_LIMIT, metavar="N", help="Show at most this many.", show_default=False
        ),
    ] = None,
    json_output: Annotated[bool, typer.Option("--json", help="A JSON array.")] = False,
    show_all: Annotated[
        bool,
        typer.Option(
            "--all",
            help="Also sessions whose first turn failed (no file, only their audit rows).",
        ),
    ] = False,
    config: ConfigOption = None,
    project: Annotated[
        bool,
        typer.Option("--project", help="Only the sessions of the project this directory is in."),
    ] = False,
) -> None:
    """Saved sessions, most recently used first."""
    catalog = session_catalog()
    failed: dict[str, str | None] = {}
    if project:
        from ctxchat.cli.project_cmd import project_sessions

        summaries = project_sessions(catalog, limit)
    else:
        summaries = catalog.list(limit=None if show_all else limit)
        if show_all:
            # The audit is read through the configured pipeline; without --all the list is
            # the session files' alone, whatever the config says.
            summaries, failed = _with_failed_first_turns(summaries, config, limit)
    store = catalog.store
    for session_id, why in store.unreadable.items():
        hint = f"; `ctxchat sessions show {session_id}` moves it aside"
        warn(
            f"session {session_id} is left out: {why}{hint if session_id in store.damaged else ''}"
        )
    if json_output:
        records = [_summary_dict(s) for s in summaries]
        if show_all:
            for record in records:
                record["failed"] = record["id"] in failed
                record["error"] = failed.get(str(record["id"]))
        print(json_text(records, indent=2))
        return
    if not summaries:
        sys.stderr.write("no saved sessions yet\n")
        return
    from rich.text import Text

    from ctxchat.cli.session_table import table_lines

    console = _reading_console()
    width = console.width if console.is_terminal else None
    from ctxchat.core.idprefix import unique_prefixes

    # On a terminal, prefixes unique among every session on disk, not only those listed:
    # each is a reference `run -s` and the other commands take. A pipe gets whole ids.
    short = unique_prefixes(store.ids() | {s.id for s in summaries}) if width else None
    shown = [_marked_failed(s) if s.id in failed else s for s in summaries]
    header, *rows = table_lines(shown, width, short)
    console.print(Text(header, style="bold"), soft_wrap=True)
    for row in rows:
        console.print(Text(row), soft_wrap=True)


def _with_failed_first_turns(
    summaries: list[SessionSummary], config: Path | None, limit: int | None
) -> tuple[list[SessionSummary], dict[str, str | None]]:
    """The saved sessions and those whose first turn failed, most recently used first (at
    most `limit`), and the failed ones' errors by id."""
    from ctxchat.services.failed_turns import failed_first_turns

    found = run_sync(failed_first_turns(chat_service(load_config(config))))
    merged = sorted(
        [*summaries, *(f.summary for f in found)], key=lambda s: s.updated_at, reverse=True
    )
    return merged[:limit] if limit is not None else merged, {f.summary.id: f.error for f in found}


def _marked_failed(summary: SessionSummary) -> SessionSummary:
    """A failed first turn's row says so in its title."""
    import dataclasses

    from ctxchat.core.text import title_or_untitled

    return dataclasses.replace(summary, title=f"(failed) {title_or_untitled(summary.title)}")


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
    full: Annotated[
        bool,
        typer.Option("--full", help="With --audit: instruction blocks and inputs whole."),
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

        print_audit(console, session, run_sync(collect_audit(service.agent, session)), full=full)
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
    from ctxchat.services.import_plan import import_origin

    origin = import_origin(session)
    if origin is not None:
        console.print(Text(one_line(origin), style="dim"))
    console.print()
    print_turns(console, group_turns(messages), markdown=not plain and console.is_terminal)


@app.command(cls=WordsCommand)
def search(
    words: Annotated[
        list[str],
        typer.Argument(
            metavar="QUERY", help="The words to find, no quotes needed.", show_default=False
        ),
    ],
    limit: Annotated[
        int,
        # Bounded: a 20-digit limit reached the database as an integer it cannot hold.
        typer.Option(min=1, max=MAX_LIMIT, metavar="N", help="Show at most this many."),
    ] = 10,
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

    Any word may match, messages holding more of them first; each hit shows its session,
    date, role, a snippet and the turn beside it.
    """
    from ctxchat.cli.common import warn
    from ctxchat.cli.search_view import print_hits
    from ctxchat.services.session_search import search_sessions

    query = " ".join(words)
    require_utf8(query=query, session=session)
    service = chat_service(load_config(config))
    only = service.open(session).session if session is not None else None
    found = search_sessions(
        service.agent.run_providers(),
        service.store,
        query,
        limit=limit,
        session=only,
        project=service.project,  # the project's sessions first
        warn=warn,  # one line on stderr: the embeddings endpoint failed, words only
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


# Last, so that `sessions --help` lists what reads sessions before what deletes them.
app.command(cls=WordsCommand)(delete)
app.command(cls=WordsCommand)(prune)
