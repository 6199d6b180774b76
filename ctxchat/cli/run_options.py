"""`ctxchat run`'s options, each with its help and panel: the command itself stays the
parse-call-render it is (`ctxchat.cli.run_cmd`)."""

from __future__ import annotations

from typing import Annotated

import typer

from ctxchat.cli.common import complete_session

SESSION_PANEL = "Session"
MODEL_PANEL = "Model"
IO_PANEL = "Input and output"
TOOLS_PANEL = "Tools"

PromptArgument = Annotated[
    str | None,
    typer.Argument(
        metavar="PROMPT",
        help="Send this prompt and exit. Piped stdin is appended to it: one turn.",
        show_default=False,
    ),
]

SessionOption = Annotated[
    str | None,
    typer.Option(
        "--session",
        "-s",
        metavar="SESSION",
        help="Resume a session: id, unique id prefix, or exact title.",
        autocompletion=complete_session,
        rich_help_panel=SESSION_PANEL,
        show_default=False,
    ),
]

ContinueOption = Annotated[
    bool,
    typer.Option(
        "--continue",
        "-c",
        help="Resume the most recently used session.",
        rich_help_panel=SESSION_PANEL,
    ),
]

TitleOption = Annotated[
    str | None,
    typer.Option(
        metavar="TEXT",
        help="Title for the new session (renames a resumed one).",
        rich_help_panel=SESSION_PANEL,
        show_default=False,
    ),
]

ShowLastOption = Annotated[
    int,
    typer.Option(
        min=0,
        metavar="N",
        help="Turns shown when resuming in the REPL.",
        rich_help_panel=SESSION_PANEL,
    ),
]

ModelOption = Annotated[
    str | None,
    typer.Option(
        metavar="NAME", help="Model name.", rich_help_panel=MODEL_PANEL, show_default=False
    ),
]

BaseUrlOption = Annotated[
    str | None,
    typer.Option(
        metavar="URL",
        help="OpenAI-compatible endpoint URL.",
        rich_help_panel=MODEL_PANEL,
        show_default=False,
    ),
]

SystemOption = Annotated[
    str | None,
    typer.Option(
        metavar="TEXT",
        help="System prompt (replaces [agent] instructions).",
        rich_help_panel=MODEL_PANEL,
        show_default=False,
    ),
]

NoMemoryOption = Annotated[
    bool,
    typer.Option(
        "--no-memory",
        help="Nothing about you is recalled or learnt in this run.",
        rich_help_panel=SESSION_PANEL,
    ),
]

TempOption = Annotated[
    bool,
    typer.Option(
        "--temp",
        help="A chat that leaves nothing behind: no session, history, memory or audit.",
        rich_help_panel=SESSION_PANEL,
    ),
]

PlainOption = Annotated[
    bool,
    typer.Option(
        "--plain", help="Print replies as plain text, not Markdown.", rich_help_panel=IO_PANEL
    ),
]

ScriptOption = Annotated[
    bool,
    typer.Option(
        "--script",
        help="Scripting mode even on a terminal: stdin is read to the end.",
        rich_help_panel=IO_PANEL,
    ),
]

JsonLinesOption = Annotated[
    bool,
    typer.Option(
        "--json",
        help="Scripting: one JSON object per turn (session, input, output, model, "
        "finish_reason, usage, tools).",
        rich_help_panel=IO_PANEL,
    ),
]

LinesOption = Annotated[
    bool,
    typer.Option(
        "--lines",
        help="Scripting: each stdin line is a turn (sent as it arrives), instead of all "
        "of stdin being one.",
        rich_help_panel=IO_PANEL,
    ),
]

TurnsSeparatorOption = Annotated[
    str | None,
    typer.Option(
        help="Scripting: turns are blocks between lines equal to this marker.",
        metavar="MARKER",
        rich_help_panel=IO_PANEL,
        show_default=False,
    ),
]

ShowReasoningOption = Annotated[
    bool,
    typer.Option(
        "--show-reasoning",
        help="Scripting: also write what the model thought aloud, between <think> and "
        '</think> lines before the reply (--json: a "reasoning" key).',
        rich_help_panel=IO_PANEL,
    ),
]

MaxInputOption = Annotated[
    int,
    typer.Option(
        min=1,
        metavar="BYTES",
        help="Largest message sent, in bytes; larger ones are refused.",
        rich_help_panel=IO_PANEL,
    ),
]

AttachOption = Annotated[
    list[str] | None,
    typer.Option(
        "--attach",
        "-a",
        metavar="FILE|DIR|URL",
        help="Attach this to the message (repeatable): text fenced and named, images "
        "as images. '@path' in the prompt attaches too ('@@' for a literal '@').",
        rich_help_panel=IO_PANEL,
        show_default=False,
    ),
]

AllowShellOption = Annotated[
    bool,
    typer.Option(
        "--allow-shell",
        help="Scripting: a turn that is '!command' runs it in your shell, and its output "
        "goes with the next turn ('!!' for a literal '!'). Without it, '!' is text.",
        rich_help_panel=IO_PANEL,
    ),
]

AllowToolsOption = Annotated[
    str | None,
    typer.Option(
        help="Let these tools with side effects run without asking (comma-separated "
        "names, as `ctxchat tools list` shows them). In a script, any other is refused.",
        metavar="NAME,...",
        rich_help_panel=TOOLS_PANEL,
        show_default=False,
    ),
]

YesToolsOption = Annotated[
    bool,
    typer.Option(
        "--yes-tools",
        help="Let every tool with side effects run without asking.",
        rich_help_panel=TOOLS_PANEL,
    ),
]
