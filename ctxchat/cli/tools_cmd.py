"""`ctxchat tools ...`: the tool catalogue the configured pipeline offers."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from ctxchat.cli.common import (
    ConfigOption,
    chat_service,
    load_config,
    output_width,
    run_sync,
    warn,
)
from ctxchat.cli.help_words import WordsCommand

app = typer.Typer(help="The tools the configured providers offer.", no_args_is_help=True)


@app.command("list", cls=WordsCommand)
def list_tools(
    json_output: Annotated[
        bool,
        typer.Option(
            "--json", help='A JSON list: [{"name", "source", "description", "side_effects"}].'
        ),
    ] = False,
    config: ConfigOption = None,
) -> None:
    """The tool catalogue, with sources and side effects.

    A tool with side effects is asked about before it runs. MCP servers are started to
    list theirs."""
    from ctxchat.cli.command_view import table_lines
    from ctxchat.services.commands import Table
    from ctxchat.services.tool_catalogue import catalogue_entry, first_sentence, load_catalogue

    service = chat_service(load_config(config))
    tools = run_sync(load_catalogue(service.agent, warn))
    if json_output:
        entries = [catalogue_entry(tool) for tool in tools]
        sys.stdout.write(json.dumps(entries, ensure_ascii=False, indent=2) + "\n")
        return
    if not tools:
        sys.stdout.write('no tools: add a provider of type "tools" to the config\n')
        return
    columns = ("NAME", "SOURCE", "SIDE EFFECTS", "DESCRIPTION")
    rows = tuple(
        (
            t.name,
            t.source or "-",
            "yes (asks)" if t.side_effects else "no",
            first_sentence(t.description),
        )
        for t in tools
    )
    table = Table(columns, (columns, *rows))
    sys.stdout.write("\n".join(table_lines(table, width=output_width())) + "\n")


class RankerName(StrEnum):
    lexical = "lexical"
    embedding = "embedding"
    hybrid = "hybrid"


@app.command("eval", cls=WordsCommand)
def evaluate(
    tools: Annotated[
        Path, typer.Option("--tools", metavar="FILE", help="Tools, one JSON object a line.")
    ],
    cases: Annotated[
        Path, typer.Option("--cases", metavar="FILE", help="Cases, one JSON object a line.")
    ],
    k: Annotated[str, typer.Option("--k", metavar="K,...", help="Cut-offs for recall.")] = (
        "1,3,5,10"
    ),
    ranker: Annotated[
        RankerName,
        typer.Option(metavar="lexical|embedding|hybrid", help="The ranker to measure."),
    ] = RankerName.lexical,
    recent: Annotated[
        int, typer.Option(metavar="N", help="Earlier messages that join the last one.")
    ] = 2,
    json_output: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
    config: ConfigOption = None,
) -> None:
    """Measure how well the selector ranks tools.

    Prints recall@k, all-gold@k and MRR over the cases."""
    from ctxchat.core.paths import data_dir
    from ctxchat.services.build import build_env
    from ctxchat.services.tool_eval import evaluate_selection

    settings = load_config(config)
    if ranker is not RankerName.lexical:
        from ctxchat.cli.local_run import use_local_embeddings

        settings = use_local_embeddings(settings)[0]
    env = build_env(settings)
    show_progress = not json_output and sys.stderr.isatty()

    async def run() -> dict[str, Any]:
        async def measured(progress: Callable[[int, int], None] | None) -> dict[str, Any]:
            return await evaluate_selection(
                tools,
                cases,
                ks=k,
                ranker=ranker.value,
                recent=recent,
                embeddings=env.embeddings if ranker is not RankerName.lexical else None,
                cache_dir=data_dir() / "tool-index",
                progress=progress,
            )

        if not show_progress:
            return await measured(None)
        from ctxchat.cli.progress import ProgressDisplay

        display = ProgressDisplay()
        try:
            return await measured(display.bar("cases"))
        finally:
            display.close()

    result = run_sync(run())
    if json_output:
        print(json.dumps(result))
        return
    recall, all_gold = result["recall"], result["all_gold"]
    print(f"cases: {result['cases']:,}  ranker: {ranker.value}  recent: {recent}")
    for cut in recall:
        print(f"  recall@{cut}: {recall[cut]:.3f}   all gold@{cut}: {all_gold[cut]:.3f}")
    print(f"  MRR: {result['mrr']:.3f}")
