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
from ctxchat.cli.render import print_turns, terminal_safe
from ctxchat.cli.reply_view import ReplyView
from ctxchat.cli.terminal import cancellable, ctrl_c_guard, quiet_terminal, rearm_ctrl_c
from ctxchat.errors import CtxchatError, TurnCancelled
from ctxchat.wording import plural

if TYPE_CHECKING:
    from prompt_toolkit import PromptSession
    from rich.console import Console

    from ctxchat.context import RunContext
    from ctxchat.repl_commands import ChatState


class Repl:
    def __init__(
        self,
        chat: ChatState,
        console: Console,
        *,
        markdown: bool,
        max_input: int,
        history_path: Path,
    ) -> None:
        self.chat = chat
        self.console = console
        self.markdown = markdown
        self.max_input = max_input
        self.history_path = history_path

    # -- output -------------------------------------------------------------------------------
    def say(self, text: str, style: str = "") -> None:
        from rich.text import Text

        self.console.print(Text(terminal_safe(text), style=style))

    def error(self, text: str) -> None:
        self.say(f"error: {' '.join(text.split())}", "red")

    def unexpected(self, exc: Exception, prefix: str = "") -> None:
        import os

        if os.environ.get("CTXCHAT_DEBUG", "") not in ("", "0"):
            self.console.print_exception()
        self.error(f"{prefix}unexpected {type(exc).__name__}: {exc}")

    async def show_recent(self, count: int) -> None:
        from ctxchat.transcript import last_turns

        conversation = self.chat.conversation
        session = conversation.session
        title = " ".join(session.display_title().split())
        self.say(f"session {session.id} '{title}' · {plural(session.turns, 'turn')}", "dim")
        if count <= 0 or not conversation.saved:
            return
        messages = await self.chat.service.transcript(session)
        turns = last_turns(messages, count)
        if turns:
            print_turns(self.console, turns, markdown=self.markdown)

    # -- the loop -----------------------------------------------------------------------------
    def check_model(self) -> None:
        """Refuse to start without an endpoint: finding out only after typing a first
        message wastes it. Only ctxchat's own client has this rule to check."""
        from ctxchat.cli.common import model_configured
        from ctxchat.errors import ModelNotConfigured
        from ctxchat.model_client import NOT_CONFIGURED, OpenAIChatModel

        model = self.chat.service.agent.model
        if isinstance(model, OpenAIChatModel) and not model_configured(model.settings):
            raise ModelNotConfigured(NOT_CONFIGURED)

    async def run(self, *, show_last: int, resumed: bool) -> None:
        from ctxchat.cli.prompt import make_prompt_session, queue_typeahead

        self.check_model()
        with quiet_terminal() as typed_ahead:
            prompt = make_prompt_session(self.chat.registry, self.history_path)
            queue_typeahead(prompt, typed_ahead)
            model = self.chat.service.agent.model.name
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

        prefill = ""
        while not self.chat.exit_requested:
            if self.chat.resend is not None:
                text, self.chat.resend = self.chat.resend, None
                self.say(f"{PROMPT}{text}", "dim")
            else:
                try:
                    text = await prompt.prompt_async(PROMPT, default=prefill)
                except KeyboardInterrupt:
                    prefill = ""
                    continue
                except EOFError:
                    break
                finally:
                    rearm_ctrl_c()
            prefill = await self.handle(text)

    async def handle(self, text: str) -> str:
        """Run one input; returns what the next prompt starts with."""
        before = self.chat.conversation
        stripped = text.strip()
        if not stripped:
            return ""
        if stripped.startswith("/") and not stripped.startswith("//"):
            if not await self.command(stripped):
                return text  # not a command after all: kept for the user to fix or send
            if self.chat.conversation is not before and self.chat.conversation.saved:
                await self.show_recent(2)
            return ""
        if stripped.startswith("//"):  # an escaped slash: a message that starts with "/"
            text = text.lstrip()[1:]
        return await self.send(text)

    async def command(self, line: str) -> bool:
        """Run a /command; False when it names none (the line is likely a message)."""
        from ctxchat.repl_commands import UnknownCommand, split_command

        def output(text: str) -> None:
            self.say(text)

        try:
            await cancellable(self.chat.dispatch(line, output))
        except asyncio.CancelledError:
            self.say("(command cancelled)", "dim")
        except UnknownCommand as exc:
            self.error(exc.message)
            return False
        except CtxchatError as exc:
            self.error(exc.message)
        except Exception as exc:  # a broken provider command must not end the chat
            self.unexpected(exc, f"/{split_command(line)[0]} failed: ")
        return True

    async def send(self, text: str) -> str:
        from ctxchat.agent import TurnFailed
        from ctxchat.script_input import check_size

        chat = self.chat
        try:
            check_size(text, self.max_input)
        except CtxchatError as exc:
            self.error(exc.message)
            return ""
        view = ReplyView(
            self.console, markdown=self.markdown, model_name=chat.service.agent.model.name
        )
        view.wait()
        try:
            outcome = await cancellable(
                chat.service.send(chat.conversation, text, on_event=view.on_event)
            )
        except TurnFailed as failed:
            chat.last_ok = False
            if isinstance(failed.cause, TurnCancelled):
                view.abort()
            else:
                view.finish()
                self.error(failed.message)
            return failed.input_text or text
        except asyncio.CancelledError:  # cancelled before the turn began
            chat.last_ok = False
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
        chat.last_ok = True
        self.status(outcome.context)
        return ""

    def status(self, context: RunContext) -> None:
        from ctxchat.context_report import format_status, turn_stats

        agent = self.chat.service.agent
        stats = turn_stats(context, agent.assemble(context), self.chat.context_window)
        self.say(format_status(stats), "dim")
