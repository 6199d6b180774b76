"""What the summary provider asks a model, and what it injects: the fold prompt (the previous
summary plus the newly dropped messages, never the whole conversation), the transcript those
messages are written as, and the instruction block the summary becomes."""

from __future__ import annotations

from collections.abc import Sequence

from ctxchat import Message, ModelRequest

# One message's text in a fold is cut to this many characters: a pasted document or a long
# tool result would otherwise crowd out the rest of the batch.
MESSAGE_CHARS = 2_000
RESULT_CHARS = 300

SYSTEM = """\
You keep a running summary of a conversation between a user and an assistant. The \
assistant reads it later instead of the messages it replaces.

Fold the new messages into the summary. Keep what a later reply could depend on: facts \
about the user and their task, decisions, constraints, names, numbers, file names and code \
identifiers, questions still open, and what the assistant has produced or promised. Drop \
greetings, thanks and repetition. Keep the summary's earlier content unless the new \
messages correct it. Never write down a password, key, token, card or account number or \
government id: say that one was given, without it. Write in the language of the \
conversation, in plain sentences or short bullet points, at most {max_words} words.

Reply with the updated summary only, no preamble."""


def clip(text: str, limit: int) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def transcript_line(message: Message, chars: int = MESSAGE_CHARS) -> str | None:
    """One message as the summariser reads it, its text cut to `chars`; None for what it
    need not read (system text)."""
    if message.role == "system":
        return None
    if message.role == "tool":
        limit = min(RESULT_CHARS, chars)
        results = "; ".join(clip(r.content, limit) for r in message.tool_results)
        return f"tool result: {results}"
    parts = []
    if message.text.strip():
        parts.append(clip(message.text, chars))
    for call in message.tool_calls:
        parts.append(f"(called {call.name} {clip(call.arguments, min(RESULT_CHARS, chars))})")
    if not parts:
        return None
    return f"{message.role}: {' '.join(parts)}"


def transcript(messages: Sequence[Message], chars: int = MESSAGE_CHARS) -> str:
    lines = (transcript_line(m, chars) for m in messages)
    return "\n\n".join(line for line in lines if line is not None)


def fold_request(
    previous: str, messages: Sequence[Message], *, max_words: int, room: int, note: str = ""
) -> ModelRequest:
    """The request that folds `messages` into the `previous` summary, each message cut so
    that together they stay within about `room` tokens (4 characters a token)."""
    chars = max(200, min(MESSAGE_CHARS, 4 * room // max(1, len(messages))))
    before = previous.strip() or "(none yet: this is the start of the conversation)"
    user = (
        f"<summary>\n{before}\n</summary>\n\n"
        f"<new_messages>\n{transcript(messages, chars)}\n</new_messages>{note}"
    )
    system = Message.system(SYSTEM.format(max_words=max_words))
    return ModelRequest((system, Message.user(user)), options={"max_tokens": fold_cap(max_words)})


def fold_cap(max_words: int) -> int:
    """The most tokens a fold may write: a summary of `max_words` words with room to spare
    (about 1.3 tokens a word in English, more elsewhere), never an unbounded reply that
    holds the chat up for minutes."""
    return 2 * max_words + 64


def clean_summary(text: str, *, max_words: int) -> str:
    """The model's reply as the summary: a wrapping tag it echoed dropped, cut to half as
    many words again as asked for (a model that ignores the limit must not grow the prompt
    without end)."""
    text = text.strip()
    for tag in ("summary",):
        if text.startswith(f"<{tag}>") and text.endswith(f"</{tag}>"):
            text = text[len(tag) + 2 : -(len(tag) + 3)].strip()
    words = text.split(" ")
    most = max_words * 3 // 2
    if len(words) > most:
        text = " ".join(words[:most]) + " …"
    return text


def summary_block(summary: str, messages: int) -> str:
    """The instruction block the model reads the summary in."""
    noun = "message" if messages == 1 else "messages"
    return (
        f"Summary of the earlier conversation ({messages} {noun}, no longer shown); the "
        f"messages after it follow in full:\n{summary}"
    )
