"""`ctxchat recall`: measure what search and automatic recall find in a long history."""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from ctxchat.cli.common import ConfigOption, load_config, run_sync
from ctxchat.cli.help_words import WordsCommand

app = typer.Typer(
    help="Recall across sessions: embed the history, measure it.", no_args_is_help=True
)


class RecallRanker(StrEnum):
    auto = "auto"
    lexical = "lexical"
    hybrid = "hybrid"


@app.command("index")
def index(
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask first.")] = False,
    config: ConfigOption = None,
) -> None:
    """Embed stored messages for hybrid search.

    Only those with no vector yet; [embeddings] must be set. Shows the count first and
    asks (on a paid endpoint each message costs money); a progress bar on a terminal."""
    from ctxchat.cli.common import confirm
    from ctxchat.cli.local_run import use_local_embeddings
    from ctxchat.services.recall_index import VectorIndexer

    indexer = VectorIndexer(use_local_embeddings(load_config(config))[0])
    count = run_sync(indexer.count())
    if count == 0:
        print("every stored message has a vector already")
        indexer.provider.close()
        return
    question = f"Embed {count:,} stored messages with {indexer.model}?"
    if not confirm(question, yes=yes):
        indexer.provider.close()
        raise typer.Exit(1)
    if not sys.stderr.isatty():
        done = run_sync(indexer.embed())
    else:
        from rich.progress import Progress

        from ctxchat.cli.render import make_console

        with Progress(console=make_console(stderr=True), transient=True) as bar:
            task = bar.add_task("embedding messages", total=count)
            done = run_sync(
                indexer.embed(lambda n, total: bar.update(task, completed=n, total=total))
            )
    print(f"embedded {done:,} messages")


@app.command("eval", cls=WordsCommand)
def evaluate(
    conversations: Annotated[
        Path,
        typer.Option("--conversations", metavar="FILE", help="Conversations, one a line."),
    ],
    questions: Annotated[
        Path, typer.Option("--questions", metavar="FILE", help="Questions, one a line.")
    ],
    k: Annotated[str, typer.Option("--k", metavar="K,...", help="Cut-offs for recall.")] = (
        "1,5,10"
    ),
    ranker: Annotated[
        RecallRanker,
        typer.Option(
            metavar="auto|lexical|hybrid",
            help="The ranker to measure (auto: hybrid when [embeddings] is set).",
        ),
    ] = RecallRanker.auto,
    json_output: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
    config: ConfigOption = None,
) -> None:
    """Store each conversation in a throwaway home and ask its questions.

    Prints recall@k of search and the share of the evidence recall injects, overall, by
    category and with the question in the user's own words (I/you)."""
    from ctxchat.ranking.evaluate import parse_ks
    from ctxchat.services.recall_eval import (
        eval_embeddings,
        evaluate,
        load_conversations,
        load_questions,
    )

    ks = parse_ks(k)
    settings = load_config(config)
    if ranker is not RecallRanker.lexical:
        from ctxchat.cli.local_run import use_local_embeddings

        settings = use_local_embeddings(settings)[0]
    embeddings = eval_embeddings(settings, ranker.value)
    found = load_conversations(conversations)
    asked = load_questions(questions)
    show_progress = sys.stderr.isatty()

    async def run() -> dict[str, Any]:
        if not show_progress:
            return await evaluate(settings, found, asked, ks=ks, embeddings=embeddings)
        from ctxchat.cli.progress import ProgressDisplay

        display = ProgressDisplay()
        try:
            return await evaluate(
                settings,
                found,
                asked,
                ks=ks,
                embeddings=embeddings,
                progress=display.bar("turns and questions"),
            )
        finally:
            display.close()

    result = run_sync(run())
    if json_output:
        print(json.dumps(result))
        return
    _print(result, ks)


def _print(result: dict[str, Any], ks: tuple[int, ...]) -> None:
    def line(name: str, part: dict[str, Any]) -> str:
        search = "  ".join(f"R@{k} {part['search']['recall'][str(k)]:.3f}" for k in ks)
        memory = part.get("memory")
        remembered = f"  memory {memory['recall']:.3f}" if memory is not None else ""
        return (
            f"{name}: {part['questions']} questions  {search}  "
            f"injected {part['injected']['recall']:.3f}{remembered}"
        )

    print(line("as written", result))
    print(line("in the user's words", result["pronoun_form"]))
    for category, part in result["by_category"].items():
        print("  " + line(category, part))
