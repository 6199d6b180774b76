"""`ctxchat run`: pick the session, then chat in a REPL or run stdin as a script."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Annotated

import typer

from ctxchat.cli.common import (
    ConfigOption,
    chat_service,
    complete_session,
    load_config,
    require_utf8,
    run_sync,
    session_store,
)
from ctxchat.cli.role_run import ArgOption, RoleOption
from ctxchat.core.errors import UsageError
from ctxchat.core.text import DEFAULT_MAX_INPUT_BYTES

if TYPE_CHECKING:
    from ctxchat.cli.tool_approval import ToolPolicy
    from ctxchat.core.messages import Message
    from ctxchat.core.settings import AttachmentSettings, ModelSettings
    from ctxchat.services.conversations import ChatService, Conversation

SESSION_PANEL = "Session"
MODEL_PANEL = "Model"
IO_PANEL = "Input and output"
TOOLS_PANEL = "Tools"


def run(
    prompt: Annotated[
        str | None,
        typer.Argument(
            metavar="PROMPT",
            help="Send this prompt and exit. Piped stdin is appended to it: one turn.",
            show_default=False,
        ),
    ] = None,
    session: Annotated[
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
    ] = None,
    continue_: Annotated[
        bool,
        typer.Option(
            "--continue",
            "-c",
            help="Resume the most recently used session.",
            rich_help_panel=SESSION_PANEL,
        ),
    ] = False,
    title: Annotated[
        str | None,
        typer.Option(
            metavar="TEXT",
            help="Title for the new session (renames a resumed one).",
            rich_help_panel=SESSION_PANEL,
            show_default=False,
        ),
    ] = None,
    show_last: Annotated[
        int,
        typer.Option(
            min=0,
            metavar="N",
            help="Turns shown when resuming in the REPL.",
            rich_help_panel=SESSION_PANEL,
        ),
    ] = 2,
    model: Annotated[
        str | None,
        typer.Option(
            metavar="NAME", help="Model name.", rich_help_panel=MODEL_PANEL, show_default=False
        ),
    ] = None,
    base_url: Annotated[
        str | None,
        typer.Option(
            metavar="URL",
            help="OpenAI-compatible endpoint URL.",
            rich_help_panel=MODEL_PANEL,
            show_default=False,
        ),
    ] = None,
    system: Annotated[
        str | None,
        typer.Option(
            metavar="TEXT",
            help="System prompt (replaces [agent] instructions).",
            rich_help_panel=MODEL_PANEL,
            show_default=False,
        ),
    ] = None,
    config: ConfigOption = None,
    role: RoleOption = None,
    arg: ArgOption = None,
    no_memory: Annotated[
        bool,
        typer.Option(
            "--no-memory",
            help="Nothing about you is recalled or learnt in this run.",
            rich_help_panel=SESSION_PANEL,
        ),
    ] = False,
    temp: Annotated[
        bool,
        typer.Option(
            "--temp",
            help="A chat that leaves nothing behind: no session, history, memory or audit.",
            rich_help_panel=SESSION_PANEL,
        ),
    ] = False,
    plain: Annotated[
        bool,
        typer.Option(
            "--plain", help="Print replies as plain text, not Markdown.", rich_help_panel=IO_PANEL
        ),
    ] = False,
    script: Annotated[
        bool,
        typer.Option(
            "--script",
            help="Scripting mode even on a terminal: stdin is read to the end.",
            rich_help_panel=IO_PANEL,
        ),
    ] = False,
    json_lines: Annotated[
        bool,
        typer.Option(
            "--json",
            help="Scripting: one JSON object per turn (session, input, output, model, "
            "finish_reason, usage, tools).",
            rich_help_panel=IO_PANEL,
        ),
    ] = False,
    lines: Annotated[
        bool,
        typer.Option(
            "--lines",
            help="Scripting: each stdin line is a turn (sent as it arrives), instead of all "
            "of stdin being one.",
            rich_help_panel=IO_PANEL,
        ),
    ] = False,
    turns_separator: Annotated[
        str | None,
        typer.Option(
            help="Scripting: turns are blocks between lines equal to this marker.",
            metavar="MARKER",
            rich_help_panel=IO_PANEL,
            show_default=False,
        ),
    ] = None,
    show_reasoning: Annotated[
        bool,
        typer.Option(
            "--show-reasoning",
            help="Scripting: also write what the model thought aloud, between <think> and "
            '</think> lines before the reply (--json: a "reasoning" key).',
            rich_help_panel=IO_PANEL,
        ),
    ] = False,
    max_input: Annotated[
        int,
        typer.Option(
            min=1,
            metavar="BYTES",
            help="Largest message sent, in bytes; larger ones are refused.",
            rich_help_panel=IO_PANEL,
        ),
    ] = DEFAULT_MAX_INPUT_BYTES,
    attach: Annotated[
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
    ] = None,
    allow_shell: Annotated[
        bool,
        typer.Option(
            "--allow-shell",
            help="Scripting: a turn that is '!command' runs it in your shell, and its output "
            "goes with the next turn ('!!' for a literal '!'). Without it, '!' is text.",
            rich_help_panel=IO_PANEL,
        ),
    ] = False,
    allow_tools: Annotated[
        str | None,
        typer.Option(
            help="Let these tools with side effects run without asking (comma-separated "
            "names, as `ctxchat tools list` shows them). In a script, any other is refused.",
            metavar="NAME,...",
            rich_help_panel=TOOLS_PANEL,
            show_default=False,
        ),
    ] = None,
    yes_tools: Annotated[
        bool,
        typer.Option(
            "--yes-tools",
            help="Let every tool with side effects run without asking.",
            rich_help_panel=TOOLS_PANEL,
        ),
    ] = False,
) -> None:
    """Chat: a REPL on a terminal, a script when stdin is piped.

    Piped, all of stdin is one turn (with a prompt argument, stdin is a document attached
    to it); --lines makes each line a turn. Only reply text goes to stdout, errors to
    stderr.
    """
    require_utf8(
        prompt=prompt,
        session=session,
        title=title,
        model=model,
        base_url=base_url,
        system=system,
        turns_separator=turns_separator,
        role=role,
        arg=arg,
    )
    if session is not None and continue_:
        raise UsageError("--session and --continue both choose a session; give one of them")
    if lines and turns_separator is not None:
        raise UsageError("--lines and --turns-separator both split stdin; give one of them")
    from ctxchat.cli.tool_approval import ToolPolicy

    tool_policy = ToolPolicy.from_flags(allow_tools, yes_tools)
    if title is not None:
        from ctxchat.services.titles import clean_title

        title = clean_title(title)  # refused before stdin is read or a model is called
    stdin_tty = sys.stdin.isatty()
    splitting = lines or turns_separator is not None
    interactive = (
        stdin_tty
        and sys.stdout.isatty()
        and not (script or json_lines or splitting or prompt is not None)
    )
    turns: Iterable[Message] = ()
    if not interactive:
        turns = script_turns(
            prompt,
            read_stdin=script or not stdin_tty,
            lines=lines,
            separator=turns_separator,
            max_input=max_input,
        )
    elif attach:
        raise UsageError(
            "-a attaches to a message given as PROMPT or piped; in the chat use /attach"
        )
    if temp and (session is not None or continue_):
        raise UsageError("--temp starts a chat that is never saved; it cannot resume a session")
    settings = load_config(config, model=model, base_url=base_url, system=system)
    from ctxchat.cli.local_run import use_local_model
    from ctxchat.cli.role_run import choose_role, start_role

    base = settings
    settings, applied = choose_role(
        settings, role, arg, store=session_store(), session=session, latest=continue_
    )
    settings, local_note = use_local_model(settings)  # a role's model may be a GGUF file too
    memory_off = no_memory or (applied is not None and not applied.memory)
    if not interactive and allow_shell:
        from ctxchat.cli.attach_input import shell_turns
        from ctxchat.cli.common import warn

        turns = shell_turns(turns, settings.attachments, warn)
    if not interactive and (attach or prompt is not None):
        from ctxchat.cli.attach_input import attached_turns

        turns = attached_turns(
            turns, attach or [], prompt_given=prompt is not None, limits=settings.attachments
        )
    service = chat_service(settings, no_memory=memory_off, temporary=temp)
    conversation = open_conversation(service, session=session, latest=continue_, title=title)
    start_role(service, conversation, base, applied, no_memory=no_memory, temporary=temp)
    if settings.origins.get("model") != "local":  # a file's name is its model's: not asked
        settle_model(service, conversation, settings.model, interactive=interactive)
    if local_note is not None:
        _tell(local_note, "note", interactive=interactive)
    if temp:
        from ctxchat.cli.common import report

        report(
            "temporary chat: nothing of it is saved (no session, history, memory or audit)", kind=""
        )
    if interactive:
        start_repl(
            service,
            conversation,
            plain=plain,
            show_last=show_last,
            max_input=max_input,
            resumed=session is not None or continue_,
            tool_policy=tool_policy,
            attachment_limits=settings.attachments,
        )
        return
    from ctxchat.cli.script import run_script

    run_script(
        service,
        conversation,
        turns,
        json_lines=json_lines,
        show_reasoning=show_reasoning,
        tool_policy=tool_policy,
    )


def script_turns(
    prompt: str | None,
    *,
    read_stdin: bool,
    lines: bool,
    separator: str | None,
    max_input: int,
) -> Iterable[Message]:
    """The turns a script sends: what stdin holds, as the flags cut it."""
    from ctxchat.cli.common import warn
    from ctxchat.core.messages import Message
    from ctxchat.services.script_input import (
        StdinTurns,
        capped_lines,
        prompt_turn,
        read_capped,
        stdin_turn,
    )

    stdin = sys.stdin.buffer
    if prompt is not None:
        # On a terminal a prompt is a one-shot question: there is no stdin to wait for.
        raw = read_capped(stdin, max_input) if read_stdin else b""
        turn, warning = prompt_turn(prompt, raw, separator=separator, max_bytes=max_input)
    elif lines or separator is not None:
        split = StdinTurns(
            capped_lines(stdin, max_input),
            separator=separator,
            max_bytes=max_input,
            on_warning=warn,
        )
        return (Message.user(text, origin="stdin") for text in split)
    else:
        turn, warning = stdin_turn(read_capped(stdin, max_input), max_bytes=max_input)
    if warning:
        warn(warning)
    return [turn]


def open_conversation(
    service: ChatService, *, session: str | None, latest: bool, title: str | None
) -> Conversation:
    if session is not None:
        conversation = service.open(session)
    elif latest:
        conversation = service.open_latest()
    else:
        return service.new(title)
    if title is not None:
        service.rename(conversation, title)
    return conversation


def settle_model(
    service: ChatService, conversation: Conversation, settings: ModelSettings, *, interactive: bool
) -> None:
    """The model named, or the endpoint's only one when none is: see `model_discovery`.
    What was chosen is said in one quiet line; a name the endpoint does not list warned of."""
    from ctxchat.core.paths import model_lists_path
    from ctxchat.services.model_discovery import endpoint_models

    models = endpoint_models(settings, model_lists_path())
    if models is None:
        return
    service.unlisted_model = models.unlisted  # for /model NAME too
    name = conversation.model.name
    if name:
        if not service.agent.model.name:  # resumed: the session's model is the run's too
            service.settle_model(conversation, name)
        warning = run_sync(models.unlisted(name))
        if warning:
            _tell(warning, "warning", interactive=interactive)
        return
    settled = run_sync(models.only_model())
    service.settle_model(conversation, settled.name)
    if settled.note and _tell(settled.note, "note", interactive=interactive):
        models.said(settled.name)


def _tell(text: str, kind: str, *, interactive: bool) -> bool:
    """A line about the run before it starts: dim (a note) or yellow (a warning) on a
    terminal; in a script a warning on stderr, a note only when stderr is a terminal.
    Whether it was shown."""
    from ctxchat.cli.common import warn

    if not interactive and kind == "warning":
        warn(text)
        return True
    from ctxchat.cli.render import make_console

    console = make_console(stderr=not interactive)
    if not console.is_terminal:
        return False
    from rich.text import Text

    from ctxchat.core.sanitize import one_line

    console.print(Text(one_line(text), style="dim" if kind == "note" else "yellow"))
    return True


def start_repl(
    service: ChatService,
    conversation: Conversation,
    *,
    plain: bool,
    show_last: int,
    max_input: int,
    resumed: bool,
    tool_policy: ToolPolicy,
    attachment_limits: AttachmentSettings | None = None,
) -> None:
    from ctxchat.cli.render import make_console
    from ctxchat.cli.repl import Repl
    from ctxchat.core.paths import input_history_path

    console = make_console()

    def announce_lock_wait(session_id: str) -> None:
        from rich.text import Text

        console.print(
            Text(f"waiting for session {session_id}: in use by another ctxchat process…"),
            style="dim",
        )

    service.on_lock_wait = announce_lock_wait
    repl = Repl(
        service,
        conversation,
        console,
        markdown=not plain and console.is_terminal,
        max_input=max_input,
        # A temporary chat keeps even its typed lines in memory only.
        history_path=None if service.ephemeral else input_history_path(),
        tool_policy=tool_policy,
        attachment_limits=attachment_limits,
    )
    run_sync(repl.run(show_last=show_last, resumed=resumed))
