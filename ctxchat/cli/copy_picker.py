"""The numbered picker `/copy` opens when the last reply holds several code blocks: the
arrow keys or a block's number choose, Enter copies, Esc or Ctrl-C copies nothing.

prompt-toolkit's choice input draws it below the prompt, not full screen, so the reply
stays in view above it while one picks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ctxchat.core.text import preview

if TYPE_CHECKING:
    from prompt_toolkit.key_binding.key_processor import KeyPressEvent


def choice_label(what: str, text: str) -> str:
    lines = text.count("\n") + 1
    shape = f"{lines} line" + ("" if lines == 1 else "s")
    return f"{what} ({shape}): {preview(' '.join(text.split()), 60)}"


async def pick(choices: Sequence[tuple[str, str]]) -> tuple[str, str] | None:
    """The (what, text) chosen; None when the picker was left without choosing. The last
    choice (the whole reply) is where it starts, so Enter alone copies what `/copy`
    always copied."""
    from prompt_toolkit.key_binding import KeyBindings
    from prompt_toolkit.shortcuts.choice_input import ChoiceInput

    keys = KeyBindings()

    def leave(event: KeyPressEvent) -> None:
        event.app.exit(result=None)

    keys.add("escape", eager=True)(leave)

    picker: ChoiceInput[int | None] = ChoiceInput(
        message="copy which? (arrows or its number, Enter copies, Esc copies nothing)",
        options=[(i, choice_label(what, text)) for i, (what, text) in enumerate(choices)],
        default=len(choices) - 1,
        key_bindings=keys,
    )
    try:
        chosen = await picker.prompt_async()
    except KeyboardInterrupt:
        return None
    return None if chosen is None else choices[chosen]
