"""The REPL's input line: prompt-toolkit session, key bindings, /command completion and an
input history file that two REPLs can append to at once."""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from prompt_toolkit import PromptSession
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys

from ctxchat.core.messages import Message, TextPart
from ctxchat.services.commands import CommandContext, CommandRegistry
from ctxchat.storage.fsutil import touch_private

PROMPT = "› "
CONTINUATION = "… "
# Beyond this an entry (a pasted log, say) only bloats the history file it is reloaded from.
MAX_HISTORY_ENTRY_BYTES = 64_000


class LockedFileHistory(FileHistory):
    """prompt-toolkit's history file, with an flock around every read and append so entries
    from two REPLs never interleave; owner-only, since inputs can hold secrets."""

    def __init__(self, path: Path) -> None:
        touch_private(path)
        super().__init__(str(path))
        self.path = path

    @contextlib.contextmanager
    def _locked(self, operation: int) -> Iterator[None]:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, operation)
            yield
        finally:
            os.close(fd)  # closing drops the lock

    def load_history_strings(self) -> Iterable[str]:
        with self._locked(fcntl.LOCK_SH):
            return list(super().load_history_strings())

    def store_string(self, string: str) -> None:
        if len(string.encode("utf-8", errors="replace")) > MAX_HISTORY_ENTRY_BYTES:
            return
        with self._locked(fcntl.LOCK_EX):
            super().store_string(string)


class SlashCompleter(Completer):
    """Completes `/name` from the registry, then what a command offers after it: its fixed
    words, or what it computes from the chat (session titles and ids for /switch)."""

    def __init__(self, registry: CommandRegistry, context: Callable[[str], CommandContext]) -> None:
        self.registry = registry
        self.context = context

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        text = document.text_before_cursor
        word = document.get_word_before_cursor(WORD=True)
        if word.startswith("@") and not word.startswith("@@"):
            yield from at_path_completions(word[1:])
            return
        if not text.startswith("/") or "\n" in text:
            return
        name, space, rest = text[1:].partition(" ")
        if not space:
            for candidate in self.registry.names():
                command = self.registry.get(candidate)
                if candidate.startswith(name) and command is not None:
                    yield Completion(
                        "/" + candidate, start_position=-len(text), display_meta=command.help
                    )
            return
        command = self.registry.get(name)
        if command is None:
            return
        words: Sequence[str] = command.completions
        if command.complete is not None:
            try:
                words = self.registry.complete(name, self.context(name), rest)
            except Exception:  # completion must never break the line being typed
                return
        elif " " in rest:
            return
        for word in words:
            if word.lower().startswith(rest.lower()):
                yield Completion(word, start_position=-len(rest))


def at_path_completions(typed: str, cwd: Path | None = None) -> Iterator[Completion]:
    """Files and directories whose path starts with what follows a typed `@` (hidden ones
    only when their dot is typed); a directory ends in "/" so Tab goes on into it."""
    head, slash, start = typed.rpartition("/")
    folder = Path("/") if slash and not head else Path(os.path.expanduser(head or "."))
    if not folder.is_absolute():
        folder = (cwd or Path.cwd()) / folder
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        if not entry.name.startswith(start) or (entry.name.startswith(".") and not start):
            continue
        suffix = "/" if entry.is_dir() else ""
        yield Completion(entry.name + suffix, start_position=-len(start))


def key_bindings(pasted: list[str]) -> KeyBindings:
    """Enter sends, Esc+Enter and Ctrl+J add a line; a bracketed paste is inserted as one
    piece of text and remembered in `pasted`, so the message can say which of its text
    the user typed and which they pasted."""
    bindings = KeyBindings()

    @bindings.add(Keys.BracketedPaste)
    def _paste(event: KeyPressEvent) -> None:
        data = event.data.replace("\r\n", "\n").replace("\r", "\n")
        pasted.append(data)
        event.current_buffer.insert_text(data)

    @bindings.add("enter")
    def _submit(event: KeyPressEvent) -> None:
        buffer = event.current_buffer
        state = buffer.complete_state
        if state is not None and state.current_completion is not None:
            buffer.apply_completion(state.current_completion)
            return
        buffer.validate_and_handle()

    @bindings.add("escape", "enter")
    @bindings.add("c-j")
    def _newline(event: KeyPressEvent) -> None:
        event.current_buffer.insert_text("\n")

    @bindings.add("c-x", "c-e")
    def _edit(event: KeyPressEvent) -> None:
        event.app.create_background_task(edit_buffer(event.current_buffer))

    return bindings


async def edit_buffer(buffer: Buffer) -> None:
    """The line being typed, edited in `$VISUAL`/`$EDITOR` with the prompt set aside."""
    from prompt_toolkit.application import run_in_terminal

    from ctxchat.cli.draft_editor import edit_draft

    def run() -> str | None:
        edited = edit_draft(buffer.text)
        if edited.note:
            print(edited.note)
        return edited.text

    text = await run_in_terminal(run, in_executor=True)
    if text is not None:
        buffer.document = Document(text, len(text))


def _continuation(width: int, line_number: int, wrap_count: int) -> str:
    return CONTINUATION.rjust(width)


def input_message(text: str, pasted: Sequence[str]) -> Message:
    """The user's input as a message whose parts say where each piece came from: typed at
    the prompt, or pasted (a document the user handed over, not their own words)."""
    parts: list[TextPart] = []
    rest = text
    for block in pasted:
        at = rest.find(block) if block.strip() else -1
        if at < 0:
            continue
        typed = rest[:at].strip("\n")
        if typed.strip():
            parts.append(TextPart(typed, "typed"))
        parts.append(TextPart(block.strip("\n"), "pasted"))
        rest = rest[at + len(block) :]
    if rest.strip() or not parts:
        parts.append(TextPart(rest.strip("\n") if parts else text, "typed"))
    return Message("user", tuple(parts))


def make_prompt_session(
    registry: CommandRegistry,
    context: Callable[[str], CommandContext],
    history_path: Path | None,
    pasted: list[str],
) -> PromptSession[str]:
    """The prompt; `history_path` None keeps the input history in memory only (a
    temporary chat, which must leave nothing behind)."""
    history: History = (
        InMemoryHistory() if history_path is None else LockedFileHistory(history_path)
    )
    # multiline keeps pasted newlines in the buffer; Enter is rebound to send.
    return PromptSession(
        history=history,
        completer=SlashCompleter(registry, context),
        complete_while_typing=False,
        key_bindings=key_bindings(pasted),
        multiline=True,
        prompt_continuation=_continuation,
        enable_history_search=False,
    )


def queue_typeahead(session: PromptSession[str], typed: bytes) -> None:
    """Keys typed before the prompt could read them, to be read first by the next prompt."""
    if not typed:
        return
    from prompt_toolkit.input.typeahead import store_typeahead
    from prompt_toolkit.input.vt100_parser import Vt100Parser
    from prompt_toolkit.key_binding import KeyPress

    keys: list[KeyPress] = []
    parser = Vt100Parser(keys.append)
    parser.feed(typed.decode("utf-8", errors="replace"))
    parser.flush()
    store_typeahead(session.input, keys)
