"""`ctxchat run`: pick the session, then chat in a REPL or run stdin as a script.

The command parses, calls the engine and renders: the session and its model are settled
by one service call (`ctxchat.services.chat_opening.open_chat`); the options are in
`ctxchat.cli.run_options`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ctxchat.cli.common import (
    ConfigOption,
    chat_service,
    load_config,
    require_utf8,
    run_sync,
    session_store,
)
from ctxchat.cli.role_run import ArgOption, RoleOption
from ctxchat.cli.run_options import (
    AllowShellOption,
    AllowToolsOption,
    AttachOption,
    BaseUrlOption,
    ContinueOption,
    JsonLinesOption,
    LinesOption,
    MaxInputOption,
    ModelOption,
    NoMemoryOption,
    PlainOption,
    PromptArgument,
    ScriptOption,
    SessionOption,
    ShowLastOption,
    ShowReasoningOption,
    SystemOption,
    TempOption,
    TitleOption,
    TurnsSeparatorOption,
    YesToolsOption,
)
from ctxchat.core.errors import UsageError
from ctxchat.core.text import DEFAULT_MAX_INPUT_BYTES

if TYPE_CHECKING:
    from ctxchat.cli.tool_approval import ToolPolicy
    from ctxchat.core.messages import Message
    from ctxchat.core.settings import AttachmentSettings
    from ctxchat.services.conversations import ChatService, Conversation


def run(
    prompt: PromptArgument = None,
    session: SessionOption = None,
    continue_: ContinueOption = False,
    title: TitleOption = None,
    show_last: ShowLastOption = 2,
    model: ModelOption = None,
    base_url: BaseUrlOption = None,
    system: SystemOption = None,
    config: ConfigOption = None,
    role: RoleOption = None,
    arg: ArgOption = None,
    no_memory: NoMemoryOption = False,
    temp: TempOption = False,
    plain: PlainOption = False,
    script: ScriptOption = False,
    json_lines: JsonLinesOption = False,
    lines: LinesOption = False,
    turns_separator: TurnsSeparatorOption = None,
    show_reasoning: ShowReasoningOption = False,
    max_input: MaxInputOption = DEFAULT_MAX_INPUT_BYTES,
    attach: AttachOption = None,
    allow_shell: AllowShellOption = False,
    allow_tools: AllowToolsOption = None,
    yes_tools: YesToolsOption = False,
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
    from ctxchat.cli.role_run import choose_role

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
    from ctxchat.services.chat_opening import open_chat, shown
    from ctxchat.services.roles import RoleSwitch

    service = chat_service(
        settings,
        no_memory=memory_off,
        temporary=temp,
        roles=RoleSwitch(base, applied, no_memory=no_memory, temporary=temp),
        # A file's name is its model's: nothing to ask the server.
        discover=settings.origins.get("model") != "local",
        on_lock_wait=announce_in_chat if interactive else None,
    )
    opened = run_sync(open_chat(service, session=session, latest=continue_, title=title))
    conversation = opened.conversation
    if local_note is not None:
        _tell(local_note, "note", interactive=interactive)
    for note in opened.notes:  # what was chosen in one quiet line; an unlisted name warned of
        if _tell(note.text, note.kind, interactive=interactive):
            shown(service, note)
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
    from ctxchat.cli import collector
    from ctxchat.cli.render import make_console
    from ctxchat.cli.repl import Repl
    from ctxchat.core.paths import input_history_path

    console = make_console()
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
    collector.resume()  # start-up is over: the REPL waits for the user
    run_sync(repl.run(show_last=show_last, resumed=resumed))


def announce_in_chat(session_id: str) -> None:
    """Said in the chat when another process holds its session, before waiting."""
    from rich.text import Text

    from ctxchat.cli.render import make_console

    make_console().print(
        Text(f"waiting for session {session_id}: in use by another ctxchat process…"),
        style="dim",
    )
