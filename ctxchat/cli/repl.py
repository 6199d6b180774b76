"""The interactive chat: read a line, run a /command or send a turn, render, repeat.

Ctrl-C during a reply cancels the task running the turn (the engine stores nothing of it and
hands the input back, which goes into the next prompt); at the prompt it clears the line.
Everything shown passes `terminal_safe`: titles, replies and errors can hold any byte.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from ctxchat import __version__
from ctxchat.cli.background import Background
from ctxchat.cli.common import cut_note, cut_short_note
from ctxchat.cli.render import print_turns
from ctxchat.cli.reply_view import ReplyView
from ctxchat.cli.terminal import cancellable, ctrl_c_guard, quiet_terminal, rearm_ctrl_c
from ctxchat.core.errors import CtxchatError, TurnCancelled, TurnNotStored
from ctxchat.core.sanitize import terminal_safe
from ctxchat.core.text import plural
from ctxchat.services.commands import split_command

if TYPE_CHECKING:
    from prompt_toolkit import PromptSession
    from rich.console import Console

    from ctxchat.cli.tool_approval import ToolPolicy
    from ctxchat.core.context import RunContext
    from ctxchat.core.messages import Part
    from ctxchat.core.settings import AttachmentSettings
    from ctxchat.services.commands import CommandContext, CommandResult
    from ctxchat.services.conversations import ChatService, Conversation


class Repl:
    """One interactive chat: the conversation it is on, the commands it offers, and what
    the last turn left behind (a failed turn's input goes back into the prompt)."""

    def __init__(
        self,
        service: ChatService,
        conversation: Conversation,
        console: Console,
        *,
        markdown: bool,
        max_input: int,
        history_path: Path | None,
        tool_policy: ToolPolicy | None = None,
        attachment_limits: AttachmentSettings | None = None,
    ) -> None:
        from ctxchat.cli.tool_approval import ToolPolicy
        from ctxchat.core.settings import AttachmentSettings
        from ctxchat.services.chat_commands import chat_commands

        self.service = service
        self.conversation = conversation
        self.registry = chat_commands(service.agent.run_providers())
        self.console = console
        self.markdown = markdown
        self.max_input = max_input
        self.history_path = history_path
        self.tool_policy = tool_policy or ToolPolicy()
        self.last_turn_failed = False
        self.exit_requested = False
        self.resend: str | None = None  # a command asked for this to be sent next
        self.edit_requested = False  # a command asked for the draft in the editor
        self.edit_request: CommandResult | None = None  # what it asked (/edit: a branch)
        self.pasted: list[str] = []  # what was pasted into the line being read
        self.background = Background(console)  # a fold left for after the turn
        self.attached: list[Part] = []  # what /attach gave; the next sent turn takes it
        self.attachment_limits = attachment_limits or AttachmentSettings()

    # -- output -------------------------------------------------------------------------------
    def say(self, text: str, style: str = "") -> None:
        from rich.text import Text

        self.console.print(Text(terminal_safe(text), style=style))

    def error(self, text: str) -> None:
        from ctxchat.core.redact import scrub_secrets

        self.say(f"error: {' '.join(scrub_secrets(text).split())}", "red")

    def unexpected(self, exc: Exception, prefix: str = "") -> None:
        import os

        if os.environ.get("CTXCHAT_DEBUG", "") not in ("", "0"):
            from rich.text import Text

            from ctxchat.cli.common import debug_traceback

            self.console.print(Text(debug_traceback(), style="dim"))
        self.error(f"{prefix}unexpected {type(exc).__name__}: {exc}")

    async def show_recent(self, count: int) -> None:
        from ctxchat.views.transcript import last_turns

        conversation = self.conversation
        session = conversation.session
        title = " ".join(session.display_title().split())
        self.say(f"session {session.id} '{title}' · {plural(session.turns, 'turn')}", "dim")
        if count <= 0 or not conversation.saved:
            return
        messages = await self.service.transcript(session)
        turns = last_turns(messages, count)
        if turns:
            print_turns(self.console, turns, markdown=self.markdown)

    # -- the loop -----------------------------------------------------------------------------
    async def run(self, *, show_last: int, resumed: bool) -> None:
        from ctxchat.cli.prompt import make_prompt_session, queue_typeahead

        # Refused before the user types a first message: finding out after wastes it.
        self.conversation.model.check()
        with quiet_terminal() as typed_ahead:
            prompt = make_prompt_session(
                self.registry, self.command_context, self.history_path, self.pasted
            )
            queue_typeahead(prompt, typed_ahead)
            model = self.conversation.model.name
            self.say(
                f"ctxchat {__version__} · model {model} · /help for commands · Ctrl-D to exit",
                "dim",
            )
            if resumed:
                await self.show_recent(show_last)
            with ctrl_c_guard():
                await self._loop(prompt)

    async def _loop(self, prompt: PromptSession[str]) -> None:
        from ctxchat.cli.prompt import PROMPT

        draft = ""
        while not self.exit_requested:
            if self.resend is not None:
                text, self.resend = self.resend, None
                self.say(f"{PROMPT}{text}", "dim")
            else:
                self.pasted.clear()
                try:
                    text = await prompt.prompt_async(PROMPT, default=draft)
                except KeyboardInterrupt:
                    draft = ""
                    continue
                except EOFError:
                    break
                finally:
                    rearm_ctrl_c()
            draft = await self.handle(text, draft)
        await self.background.settle()  # leaving: what was learnt is kept first

    async def handle(self, text: str, draft: str = "") -> str:
        """Run one input; returns what the next prompt starts with. `draft` is what this
        prompt started with (a failed turn's input): a command typed after it is run as a
        command, and the draft offered again."""
        await self.background.settle()
        before = self.conversation
        if draft and text.startswith(draft) and text[len(draft) :].lstrip().startswith("/"):
            typed = text[len(draft) :].strip()
            if not typed.startswith("//") and self.registry.get(split_command(typed)[0]):
                await self.command(typed)
                return await self.edited(draft)
        stripped = text.strip()
        if not stripped:
            return ""
        if stripped.startswith("/") and not stripped.startswith("//"):
            if not await self.command(stripped):
                # Words after it: a message that starts with a path, say, kept to be sent
                # with '//'. A lone mistyped command is not kept: what is typed next would
                # be joined to it.
                return text if len(stripped.split(maxsplit=1)) > 1 else ""
            if self.conversation is not before and self.conversation.saved:
                await self.show_recent(2)
            return await self.edited("")
        if stripped.startswith(("//", "!!")):  # escaped: a message starting with "/" or "!"
            text = text.lstrip()[1:]
        elif stripped.startswith("!") and stripped[1:].strip():
            await self.shell(stripped[1:].strip())
            return ""
        return await self.send(text)

    async def shell(self, command: str) -> None:
        """`!command`: run it, and offer its output as an attachment to the next message."""
        from ctxchat.services.shell_output import shell_output

        try:
            ran = await cancellable(shell_output(command, self.attachment_limits))
        except asyncio.CancelledError:
            self.say("(command cancelled)", "dim")
            return
        except OSError as exc:
            self.error(f"cannot run the shell: {exc.strerror or exc}")
            return
        self.attached.append(ran.part)
        lines = plural(ran.lines, "line")
        note = ", cut to the attachment limit" if ran.cut else ""
        self.say(
            f"output of '{command}' (exit {ran.status}, {lines}{note}) attached to the next "
            "message; /attach --clear drops it",
            "dim",
        )

    def copy(self, text: str, what: str) -> None:
        from ctxchat.cli.clipboard import copy_to_clipboard

        used = copy_to_clipboard(text, self.console.file)
        lines = plural(text.count("\n") + 1, "line")
        self.say(f"copied {what} ({lines}, {len(text):,} characters) via {' and '.join(used)}")

    async def edited(self, draft: str) -> str:
        """The draft, through the editor when the last command asked for it (/edit-draft)."""
        if not self.edit_requested:
            return draft
        from ctxchat.cli.draft_editor import edit_draft

        self.edit_requested = False
        request = self.edit_request
        start = request.draft if request is not None and request.draft is not None else draft
        result = await asyncio.to_thread(edit_draft, start)
        if result.note:
            self.say(result.note, "dim")
        point = request.branch_from if request is not None else None
        if point is None:
            return draft if result.text is None else result.text
        if result.text is None or result.text == start:
            self.say("unchanged: no branch made", "dim")
            return draft
        from ctxchat.services.branch_commands import make_branch

        self.conversation = await make_branch(self.service, point)
        self.last_turn_failed = False
        self.say(
            f"new branch {self.conversation.session.id} from turn {point.turn} of "
            f"{point.session}; the original stays whole (/branches lists them)",
            "dim",
        )
        self.resend = result.text
        self.attached.extend(request.attach if request is not None else ())
        return ""

    def command_context(self, name: str) -> CommandContext:
        context = self.registry.context(self.service, self.conversation, name)
        context.last_turn_failed = self.last_turn_failed
        context.attached = self.attached
        context.attachment_limits = self.attachment_limits
        return context

    async def command(self, line: str) -> bool:
        """Run a /command; False when it names none (the line is likely a message)."""
        from ctxchat.cli.command_view import print_result
        from ctxchat.services.commands import UnknownCommand

        name = split_command(line)[0]
        try:
            result = await cancellable(self.registry.dispatch(line, self.command_context(name)))
        except asyncio.CancelledError:
            self.say("(command cancelled)", "dim")
            return True
        except UnknownCommand as exc:
            self.error(exc.message)
            return False
        except CtxchatError as exc:
            self.error(exc.message)
            return True
        except Exception as exc:  # a broken provider command must not end the chat
            self.unexpected(exc, f"/{name} failed: ")
            return True
        print_result(self.console, result, keys_help=name in ("help", "?"))
        if result.conversation is not None:
            self.conversation = result.conversation
            self.last_turn_failed = False
        self.exit_requested = result.exit
        self.edit_requested = result.edit_draft
        self.edit_request = result
        if result.copy is not None:
            self.copy(result.copy, result.copy_what)
        if result.copy_choices:
            from ctxchat.cli.copy_picker import pick

            chosen = await pick(result.copy_choices)
            if chosen is None:
                self.say("nothing copied", "dim")
            else:
                self.copy(chosen[1], chosen[0])
        self.resend = result.send
        return True

    async def send(self, text: str) -> str:
        from ctxchat.core.agent import TurnFailed
        from ctxchat.services.script_input import check_size

        try:
            check_size(text, self.max_input)
        except CtxchatError as exc:
            self.error(exc.message)
            return ""
        from ctxchat.cli.attach_input import typed_message
        from ctxchat.cli.prompt import input_message
        from ctxchat.cli.tool_approval import ReplApprover

        conversation = self.conversation
        try:
            message = typed_message(text, self.pasted, self.attached, self.attachment_limits)
        except CtxchatError as exc:  # an @path that cannot be attached: nothing was sent
            self.error(exc.message)
            return text
        view = ReplyView(self.console, markdown=self.markdown, model_name=conversation.model.name)
        approve = ReplApprover(self.console, view, self.tool_policy)
        view.wait()
        try:
            outcome = await cancellable(
                self.service.send(
                    conversation, [message], on_event=view.on_event, approve=approve, defer=True
                )
            )
        except TurnFailed as failed:
            self.last_turn_failed = True
            if isinstance(failed.cause, TurnCancelled):
                view.abort()
            else:
                view.finish()
                self.error(failed.message)
                if isinstance(failed.cause, TurnNotStored):
                    self.say("nothing of this turn was kept: /retry sends it again", "dim")
            if len(message.parts) > len(input_message(text, self.pasted).parts):
                return text  # its attachments stay waiting: only the words come back
            return failed.input_text or text
        except asyncio.CancelledError:  # cancelled before the turn began
            self.last_turn_failed = True
            view.abort()
            return text
        except CtxchatError as exc:  # the session was busy, or could not be read
            view.finish()
            self.error(exc.message)
            return text
        except Exception as exc:  # a bug must not take the conversation down with it
            view.finish()
            self.unexpected(exc)
            return text
        except BaseException:  # leaving anyway: a live region must not keep the cursor hidden
            view.finish()
            raise
        view.finish()
        self.last_turn_failed = False
        for kept_cut in view.cuts:  # the turn is kept: "were saved" is true now
            self.say(f"warning: {cut_note(kept_cut)}", "yellow")
        self.attached.clear()
        if outcome.context.learning_interrupted:
            self.say("interrupted while learning: the turn was kept, nothing more was learnt")
        response = outcome.context.response
        cut = cut_short_note(response, conversation.model) if response is not None else None
        if cut is not None:
            self.say(f"warning: {cut}", "yellow")
        self.status(outcome.context)
        self.background.start(self.service, conversation, outcome.context.deferred or ())
        return ""

    def status(self, context: RunContext) -> None:
        from ctxchat.views.context_report import format_status, turn_stats

        agent = self.service.agent
        stats = turn_stats(context, agent.assemble(context), self.service.context_window)
        self.say(format_status(stats), "dim")
