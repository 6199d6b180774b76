"""Session titles: as given (one clean line, never empty), or taken from the first thing
asked in the session."""

from __future__ import annotations

from collections.abc import Sequence

from ctxchat.core.errors import SessionError
from ctxchat.core.messages import OWN_WORDS, Message
from ctxchat.core.sanitize import one_line
from ctxchat.core.session import Session
from ctxchat.core.text import preview

TITLE_LENGTH = 60


def title_from(text: str) -> str:
    return preview(one_line(text), TITLE_LENGTH)


def clean_title(title: str) -> str:
    """A title as stored: one line of single spaces, without escape sequences or bidi
    controls (see `ctxchat.core.sanitize`); an empty one is refused."""
    cleaned = one_line(title)
    if not cleaned:
        raise SessionError("a title cannot be empty")
    return cleaned


def text_of(messages: Sequence[Message]) -> str:
    return "\n".join(m.text for m in messages)


def entitle(session: Session, inputs: str | Sequence[Message]) -> None:
    """An untitled session is named after the first thing asked in it: the user's own
    words, not a document they attached."""
    if session.title is not None:
        return
    if isinstance(inputs, str):
        session.title = title_from(inputs)
        return
    own = " ".join(m.text_from(OWN_WORDS) for m in inputs).strip()
    asked = own or text_of(inputs)
    if asked.strip():
        session.title = title_from(asked)
