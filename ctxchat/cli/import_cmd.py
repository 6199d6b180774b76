"""`ctxchat import FORMAT PATH`: another tool's conversations as ctxchat sessions."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ctxchat.cli.common import ConfigOption, chat_service, confirm, load_config, run_sync

if TYPE_CHECKING:
    from ctxchat.services.import_plan import ImportPlan

FORMATS_HELP = (
    "llm (simonw/llm's logs.db), chatgpt (conversations.json of a ChatGPT export), "
    "claude-code (Claude Code's session .jsonl files), codex (Codex CLI's rollout .jsonl "
    "files), gptme (gptme's logs), jsonl (OpenAI chat messages, as `sessions export "
    "--format jsonl` writes them)."
)


def import_sessions(
    format: Annotated[str, typer.Argument(metavar="FORMAT", help=FORMATS_HELP, show_default=False)],
    path: Annotated[
        Path,
        typer.Argument(metavar="PATH", help="The file, or a folder of them.", show_default=False),
    ],
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show the counts; store nothing.")
    ] = False,
    embed: Annotated[
        bool,
        typer.Option("--embed", help="Embed the imported messages ([embeddings] must be set)."),
    ] = False,
    learn: Annotated[
        bool,
        typer.Option(
            "--learn", help="Let memory learn from your imported messages (it shows what first)."
        ),
    ] = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask first.")] = False,
    json_output: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
    config: ConfigOption = None,
) -> None:
    """Bring another tool's conversations in as sessions.

    Keeps their dates, titles and source; a conversation imported before is skipped.
    Every message goes through memory's secret screen: what it catches is masked and
    counted. Nothing is stored when any conversation of the file cannot be read."""
    from ctxchat.core.errors import UsageError
    from ctxchat.services import import_plan as planning
    from ctxchat.services import import_sessions as importing
    from ctxchat.services.importers import reader

    read = reader(format)
    settings = load_config(config)
    if learn and not dry_run and not yes and not sys.stdin.isatty():
        raise UsageError(
            "--learn asks before remembering anything: pass --yes to remember without "
            "asking, or --dry-run to see what it would"
        )
    conversations = read(path)  # the whole file first: a bad one stores nothing
    service = chat_service(settings)
    providers = service.agent.run_providers()
    history = service.history()
    env = getattr(history, "env", None)
    if embed and not dry_run and env is not None and env.message_embeddings is None:
        raise UsageError("--embed needs an [embeddings] table in the config")
    teacher = importing.learner(providers) if learn else None
    plan = planning.plan_import(
        format,
        path,
        conversations,
        screen=planning.secret_screen(providers),
        owner=planning.import_owner(history),
        exists=service.store.exists,
        history_source=history.source_id,
    )
    report: dict[str, Any] = {"format": format, "path": str(path), "dry_run": dry_run}
    report.update(plan.counts())
    report["conversations"] = [s.to_dict() for s in plan.sessions]
    if dry_run:
        if teacher is not None:
            items = importing.planned_items(plan)
            report["would_learn"] = run_sync(teacher.preview_learning(items))
        _render(report, plan, json_output)
        return
    stored = _store(plan, service)
    report["sessions"] = len(stored)
    if embed:
        report["embedded"] = run_sync(importing.embed_imported(service, stored))
    _render(report, plan, json_output)
    if teacher is not None:
        items = run_sync(importing.stored_items(plan, service))
        _learn(teacher, items, yes=yes, json_output=json_output)


def _store(plan: ImportPlan, service: Any) -> list[Any]:
    """The plan stored, with a bar on a terminal's stderr."""
    from ctxchat.services.import_sessions import store_plan

    if not sys.stderr.isatty():
        return run_sync(store_plan(plan, service))
    from ctxchat.cli.progress import ProgressDisplay

    display = ProgressDisplay()
    try:
        return run_sync(store_plan(plan, service, progress=display.bar("importing sessions")))
    finally:
        display.close()


def _learn(teacher: Any, items: list[Any], *, yes: bool, json_output: bool) -> None:
    """What memory would keep, then, once agreed (`--yes`: agreed already), keeping it."""
    if not yes:
        proposed: list[str] = run_sync(teacher.preview_learning(items))
        if not proposed:
            _say("memory: nothing to learn from your imported messages", json_output)
            return
        for line in proposed:
            _say(f"  {_would(line)}", json_output)
        if not confirm(f"Remember these {len(proposed)}?", yes=yes):
            _say("memory: nothing remembered", json_output)
            return
    learnt: list[str] = run_sync(teacher.learn_from(items))
    for line in learnt or ["memory: nothing to learn from your imported messages"]:
        _say(line, json_output)


def _say(line: str, json_output: bool) -> None:
    """A line for people: on stderr when stdout carries the JSON."""
    print(line, file=sys.stderr if json_output else sys.stdout)


def _render(report: dict[str, Any], plan: ImportPlan, json_output: bool) -> None:
    if json_output:
        print(json.dumps(report, ensure_ascii=False))
        return
    from ctxchat.core.sanitize import one_line
    from ctxchat.core.text import plural

    verb = "would import" if report["dry_run"] else "imported"
    sessions = report["sessions"]
    print(
        f"{verb} {plural(sessions, 'session')}, {plural(report['messages'], 'message')}; "
        f"{plural(report['secrets_masked'], 'secret')} masked; "
        f"{report['tokens_to_embed']:,} tokens to embed"
        + (f"; {seen:,} already imported" if (seen := report["already_imported"]) else "")
    )
    for planned in plan.sessions:
        mark = "=" if planned.exists else ("·" if report["dry_run"] else "+")
        when = planned.session.created_at.date().isoformat()
        title = one_line(planned.session.display_title())
        print(f"  {mark} {planned.session.id}  {when}  {title}  ({planned.messages} messages)")
    if "embedded" in report:
        print(f"embedded {report['embedded']:,} messages")
    for line in report.get("would_learn", ()):
        print(f"  {_would(line)}")


def _would(line: str) -> str:
    """A change memory would make, said as one: "remembered: X" as "would remember: X"."""
    done, _, rest = line.partition(": ")
    verbs = {"remembered": "would remember", "forgot": "would forget"}
    return f"{verbs[done]}: {rest}" if done in verbs else f"would make: {line}"
