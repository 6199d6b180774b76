"""`ctxchat memory`: what ctxchat remembers about you: list, forget, export, eval."""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ctxchat.cli.common import ConfigOption, chat_service, load_config, output_width, run_sync
from ctxchat.cli.help_words import WordsCommand

if TYPE_CHECKING:
    from ctxchat.core.capabilities import MemorySource

app = typer.Typer(help="What ctxchat remembers about you.", no_args_is_help=True)


class MemoryFormat(StrEnum):
    json = "json"
    md = "md"


class ExtractorName(StrEnum):
    rules = "rules"
    llm = "llm"
    both = "both"


def _memory(config: Path | None) -> MemorySource:
    from ctxchat.services.memories import the_memory

    return the_memory(chat_service(load_config(config)).agent)


def _when(text: str) -> str:
    from datetime import datetime

    from ctxchat.core.text import local_time

    return local_time(datetime.fromisoformat(text))


@app.command("list", cls=WordsCommand)
def list_facts(
    json_output: Annotated[bool, typer.Option("--json", help="A JSON array.")] = False,
    config: ConfigOption = None,
    project: Annotated[
        bool, typer.Option("--project", help="The facts kept for this directory's project.")
    ] = False,
    every: Annotated[
        bool, typer.Option("--all", help="Yours and every project's, each with its scope.")
    ] = False,
) -> None:
    """Every fact remembered about you, with its id."""
    if project or every:
        from ctxchat.cli.project_cmd import scoped_facts

        facts = scoped_facts(_memory(config), project=project, every=every)
    else:
        facts = _memory(config).remembered()
    if json_output:
        print(json.dumps(facts, ensure_ascii=False, indent=2))
        return
    if not facts:
        sys.stderr.write("nothing remembered yet\n")
        return
    from ctxchat.cli.command_view import table_lines
    from ctxchat.core.idprefix import unique_prefixes
    from ctxchat.services.commands import Table

    short = unique_prefixes(f["id"] for f in facts)
    if project or every:
        scoped = tuple(
            (
                short[f["id"]],
                f.get("project") or "user",
                _when(f["last_seen"]),
                f["label"],
                f["value"],
            )
            for f in facts
        )
        table = Table(("id", "scope", "last said", "what", "remembered"), scoped)
    else:
        rows = tuple((short[f["id"]], _when(f["last_seen"]), f["label"], f["value"]) for f in facts)
        table = Table(("id", "last said", "what", "remembered"), rows)
    for line in table_lines(table, header=True, width=output_width()):
        print(line)


@app.command(cls=WordsCommand)
def forget(
    fact_id: Annotated[
        str, typer.Argument(metavar="ID", help="The fact's id or a unique prefix (memory list).")
    ],
    config: ConfigOption = None,
) -> None:
    """Forget one fact and its earlier values.

    What was said stays in its session: forgetting a fact is not deleting a conversation."""
    from ctxchat.core.errors import UsageError
    from ctxchat.services.memories import fact_by_reference, forget_fact_everywhere, the_memory

    agent = chat_service(load_config(config)).agent
    fact = fact_by_reference(the_memory(agent).remembered(), fact_id)
    if not run_sync(forget_fact_everywhere(agent, fact["id"])):
        raise UsageError(f"fact {fact['id']} was forgotten meanwhile")
    print(f"forgot {fact['id']}")


@app.command(cls=WordsCommand)
def export(
    format: Annotated[
        MemoryFormat, typer.Option("--format", "-f", metavar="json|md", help="json or md.")
    ] = MemoryFormat.json,
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", metavar="FILE", help="Write here; - or none: stdout."),
    ] = None,
    config: ConfigOption = None,
) -> None:
    """Everything remembered about you, and where it came from."""
    from ctxchat.views.export import write_export

    facts = _memory(config).remembered()
    text = _markdown(facts) if format is MemoryFormat.md else json.dumps(facts, indent=2) + "\n"
    if output is None or str(output) == "-":
        sys.stdout.write(text)
        return
    write_export(output, text)
    sys.stderr.write(f"exported {len(facts)} facts to {output}\n")


def _markdown(facts: list[dict[str, Any]]) -> str:
    from ctxchat.core.sanitize import one_line

    lines = ["# What ctxchat remembers about you", ""]
    for fact in facts:
        origin = fact.get("provenance") or {}
        where = f" (said in session {origin['session_id']})" if origin.get("session_id") else ""
        value = one_line(str(fact["value"]))
        lines.append(f"- **{fact['label']}**: {value}, since {_when(fact['first_seen'])}{where}")
        for past in fact.get("history") or []:
            lines.append(f"  - earlier: {one_line(str(past['value']))}")
    if not facts:
        lines.append("Nothing yet.")
    return "\n".join(lines) + "\n"


@app.command("eval", cls=WordsCommand)
def evaluate(
    cases: Annotated[
        Path, typer.Argument(metavar="CASES.jsonl", help="Cases: turns, present, absent, tags.")
    ],
    extractor: Annotated[
        ExtractorName | None,
        typer.Option(
            metavar="rules|llm|both",
            help="Extractor to evaluate (default: the configured one).",
            show_default=False,
        ),
    ] = None,
    show_failed: Annotated[
        bool,
        typer.Option(
            "--show-failed", help="Each failed case: its block, missing and unwanted words."
        ),
    ] = False,
    json_output: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
    config: ConfigOption = None,
) -> None:
    """Run memory cases through the provider; report the pass rate."""
    service = chat_service(load_config(config))
    from ctxchat.services.memories import the_memory

    memory = the_memory(service.agent)
    name = extractor.value if extractor is not None else None
    show_progress = not json_output and sys.stderr.isatty()
    result = run_sync(_run_eval(memory, cases, name, service.agent.model, show_progress))
    failures = result.pop("failures", [])
    if json_output:
        if show_failed:
            result["failures"] = failures
        print(json.dumps(result, ensure_ascii=False))
        return
    print(f"pass rate: {result['pass_rate']:.1%}")
    for tag, rate in result["by_tag"].items():
        print(f"  {tag}: {rate:.1%}")
    if result["failed"]:
        print("failed: " + ", ".join(result["failed"]))
    if show_failed:
        for failure in failures:
            print(failed_case_text(failure))


def failed_case_text(failure: dict[str, Any]) -> str:
    """One failed case for a person: what was said, what memory made of it, what was wrong."""
    from ctxchat.core.sanitize import terminal_safe

    lines = [f"\n{failure['id']}:"]
    lines += [f"  said: {terminal_safe(t)}" for t in failure["turns"]]
    block = [line for line in failure["block"].splitlines() if line.startswith("- ")]
    lines += [f"  block {terminal_safe(line)}" for line in block] or ["  block: (empty)"]
    if failure["missing"]:
        lines.append("  missing: " + ", ".join(failure["missing"]))
    if failure["unwanted"]:
        lines.append("  unwanted: " + " | ".join(terminal_safe(u) for u in failure["unwanted"]))
    return "\n".join(lines)


async def _run_eval(
    memory: MemorySource, cases: Path, extractor: str | None, model: Any, show_progress: bool
) -> dict[str, Any]:
    if not show_progress:
        return await memory.evaluate_cases(cases, extractor=extractor, model=model, progress=None)
    from ctxchat.cli.progress import ProgressDisplay

    display = ProgressDisplay()
    try:
        return await memory.evaluate_cases(
            cases, extractor=extractor, model=model, progress=display.bar("cases")
        )
    finally:
        display.close()
