"""The attachments of `ctxchat run`: `-a` sources and the prompt argument's `@path`s,
read before any model call, so a bad one fails the run with nothing sent."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from ctxchat.core.messages import Message, Part
from ctxchat.core.settings import AttachmentSettings
from ctxchat.services.attachments import read_attachments
from ctxchat.services.compose import attach_to_first, with_mentions, with_parts


def attached_turns(
    turns: Iterable[Message],
    sources: Sequence[str],
    *,
    prompt_given: bool,
    limits: AttachmentSettings,
) -> Iterable[Message]:
    """The turns, the first with what `-a` names and, with a prompt argument, what its
    `@path`s name (piped text is never read for mentions)."""
    cwd = Path.cwd()
    attached = read_attachments(sources, cwd=cwd, limits=limits)
    if prompt_given:
        # A prompt argument makes one turn, already read: its mentions are read now too.
        return [with_parts(with_mentions(turn, cwd, limits), attached) for turn in turns]
    return attach_to_first(turns, attached)


def typed_message(
    text: str, pasted: Sequence[str], attached: Sequence[Part], limits: AttachmentSettings
) -> Message:
    """A line typed at the REPL prompt as a message: its pastes as documents, what its
    typed `@path`s name, then what /attach gave (kept by the REPL until a turn succeeds)."""
    from ctxchat.cli.prompt import input_message

    message = with_mentions(input_message(text, pasted), Path.cwd(), limits)
    return with_parts(message, attached)


def shell_turns(
    turns: Iterable[Message], limits: AttachmentSettings, warn: Callable[[str], None]
) -> Iterator[Message]:
    """A script's turns under --allow-shell: a turn that is `!command` runs it, and its
    output goes with the next turn; `!!` starts a turn with a literal `!`."""
    from ctxchat.services.shell_output import run_shell

    pending: list[Part] = []
    for turn in turns:
        text = turn.text.lstrip()
        if text.startswith("!!"):
            turn = Message.user(text[1:], origin="stdin")
        elif text.startswith("!") and text[1:].strip():
            command = text[1:].strip()
            ran = run_shell(command, limits)
            warn(f"ran '{command}' (exit {ran.status}): its output goes with the next turn")
            pending.append(ran.part)
            continue
        yield with_parts(turn, pending)
        pending = []
    if pending:
        warn("the output of the last '!' command was not sent: no turn came after it")
