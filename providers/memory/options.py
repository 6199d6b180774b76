"""The options of `user_memory` (`UserMemoryProvider`), and whose memory they name."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ctxchat import OptionValueError, option
from ctxchat.kit import user_key

Extractor = Literal["rules", "llm", "both"]


@dataclass(frozen=True)
class UserMemoryOptions:
    url: str | None = option(
        None,
        secret=True,  # it may carry a password
        help="SQLAlchemy database URL (omitted = [storage] url, else "
        "history.sqlite3 in the data dir)",
    )
    scope: Literal["user", "session", "project"] = option(
        "user",
        help="user: one memory shared by every session; session: each its own; project: "
        "facts about the work kept for the project they were said in, about the person "
        "for the user",
    )
    user: str | None = option(
        None, help="whose memory this is (omitted = CTXCHAT_USER, else the login name)"
    )
    extractor: Extractor = option(
        "rules", help="rules (offline, no model call), llm (the chat model), or both"
    )
    model: str | None = option(
        None, help="the model the llm extractor asks (omitted = the chat model)"
    )
    max_facts: int = option(30, help="most facts recalled into a turn")
    max_chars: int = option(2000, help="most characters of recalled facts in a turn")

    def __post_init__(self) -> None:
        if self.max_facts < 0:
            raise OptionValueError("max_facts", "must be 0 or more")
        if self.max_chars < 0:
            raise OptionValueError("max_chars", "must be 0 or more")
        if self.user is not None and not self.user.strip():
            raise OptionValueError("user", "must name a user (or be left out)")


def user_key_of(options: UserMemoryOptions) -> str:
    return user_key(options.user)
