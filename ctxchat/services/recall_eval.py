"""`ctxchat recall eval`: how much of what a question needs search and automatic recall find
in a long history, on conversations in the format of `../shared/data/recall/` (LoCoMo's,
turned into ctxchat's terms: one conversation a line, sessions with dates, turns with ids;
questions with the ids of the turns that hold their answers).

Each conversation is stored as its own user in a throwaway home, through the configured
history provider's own rows and full-text index (on the configured database: a SQLite file
in that home unless `[storage] url` names another), each session a ctxchat session, each
turn at its session's date; its rows are deleted afterwards. Each question is then asked
twice: as written, and in the pronoun form a real user would use ("When did Caroline go"
becomes "When did I go" when Caroline is the user), each
- as the model asks the `search_sessions` tool: recall@k over the k ranked hits only, and
  apart from it the share found with the neighbouring turns the hits show;
- as the input the `recall` provider sees: the share of the evidence in the block it would
  inject with its default limits in an 8,192-token window;
- as the input the pipeline's user memory sees, once it has learnt from each user turn as a
  chat's learning stage does (`recall_eval_memory`): the share of the evidence its recalled
  facts were learnt from.

With `[embeddings]` set (or `--ranker hybrid`), each conversation's messages are embedded
once stored, as `ctxchat recall index` would, and ranked by words and meaning.
"""

from __future__ import annotations

import dataclasses
import re
import tempfile
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ctxchat.config.loading import Config, ProviderSpec
from ctxchat.core.capabilities import EmbeddableHistory, ImportableHistory, SearchableHistory
from ctxchat.core.errors import UsageError
from ctxchat.core.jsonl import json_objects
from ctxchat.core.messages import Message
from ctxchat.core.model_types import Embeddings
from ctxchat.core.progress import Progress
from ctxchat.core.provider import ProviderEnv
from ctxchat.core.search import MessageHit, query_terms
from ctxchat.core.tokens import estimate_tokens

DEFAULT_KS = (1, 5, 10)
EVAL_WINDOW = 8192  # the window the injected figure is measured at
WORDLESS = "…"  # the turn a real run would have where the conversation has none


class RecallDataError(UsageError):
    """A conversations or questions file that cannot be read; names the file and line."""


@dataclass(frozen=True)
class Turn:
    ident: str
    role: str
    text: str


@dataclass(frozen=True)
class ConversationSession:
    when: datetime
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class Conversation:
    ident: str
    user: str
    assistant: str
    sessions: tuple[ConversationSession, ...]


@dataclass(frozen=True)
class Question:
    conversation: str
    text: str
    category: str
    evidence: frozenset[str]


def parse_date(text: str) -> datetime:
    """LoCoMo's "1:56 pm on 8 May, 2023", or an ISO date."""
    for form in ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y"):
        try:
            return datetime.strptime(text.strip(), form).replace(tzinfo=UTC)
        except ValueError:
            pass
    parsed = datetime.fromisoformat(text)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def load_conversations(path: Path) -> list[Conversation]:
    found = []
    for number, record in json_objects(path, RecallDataError):
        try:
            sessions = tuple(
                ConversationSession(
                    parse_date(str(s["date"])),
                    tuple(Turn(str(t["id"]), str(t["role"]), str(t["text"])) for t in s["turns"]),
                )
                for s in record["sessions"]
            )
            found.append(
                Conversation(
                    str(record["id"]), str(record["user"]), str(record["assistant"]), sessions
                )
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RecallDataError(f"{path}:{number}: not a conversation: {exc!r}") from exc
    return found


def load_questions(path: Path) -> list[Question]:
    found = []
    for number, record in json_objects(path, RecallDataError):
        try:
            evidence = record["evidence"]
            if not isinstance(evidence, list) or not evidence:
                raise ValueError("evidence must be a non-empty list")
            found.append(
                Question(
                    str(record["conversation"]),
                    str(record["question"]),
                    str(record.get("category", "all")),
                    frozenset(str(e) for e in evidence),
                )
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RecallDataError(f"{path}:{number}: not a question: {exc!r}") from exc
    return found


def pronoun_form(text: str, user: str, assistant: str) -> str:
    """The question as the user would ask it: their own name as I/my/me, the other
    speaker's as you/your."""
    for name, (subject, owner) in ((user, ("I", "my")), (assistant, ("you", "your"))):
        if not name:
            continue
        escaped = re.escape(name)
        text = re.sub(rf"\b{escaped}'s\b", owner, text)
        text = re.sub(rf"\b{escaped}\b", subject, text)
    return text


def _turn_pairs(turns: Sequence[Turn]) -> list[tuple[Turn | None, Turn | None]]:
    """The session as ctxchat turns: (user, assistant), a wordless side where the
    conversation has none."""
    pairs: list[tuple[Turn | None, Turn | None]] = []
    pending: Turn | None = None
    for turn in turns:
        if turn.role == "user":
            if pending is not None:
                pairs.append((pending, None))
            pending = turn
        else:
            pairs.append((pending, turn))
            pending = None
    if pending is not None:
        pairs.append((pending, None))
    return pairs


@dataclass
class Figures:
    """Sums of per-question shares, per k, per form."""

    questions: int = 0
    search: dict[int, float] = dataclasses.field(default_factory=dict)
    neighbours: dict[int, float] = dataclasses.field(default_factory=dict)
    injected: float = 0.0
    memory: float | None = None  # None: no user memory in the pipeline

    def add(
        self,
        ks: Sequence[int],
        found: dict[int, float],
        near: dict[int, float],
        injected: float,
        memory: float | None,
    ) -> None:
        self.questions += 1
        for k in ks:
            self.search[k] = self.search.get(k, 0.0) + found[k]
            self.neighbours[k] = self.neighbours.get(k, 0.0) + near[k]
        self.injected += injected
        if memory is not None:
            self.memory = (self.memory or 0.0) + memory

    def to_dict(self, ks: Sequence[int]) -> dict[str, Any]:
        n = self.questions or 1
        return {
            "questions": self.questions,
            "search": {
                "recall": {str(k): round(self.search.get(k, 0.0) / n, 4) for k in ks},
                "with_neighbours": {str(k): round(self.neighbours.get(k, 0.0) / n, 4) for k in ks},
            },
            "injected": {"recall": round(self.injected / n, 4)},
            "memory": None if self.memory is None else {"recall": round(self.memory / n, 4)},
        }


class Report:
    def __init__(self, ks: Sequence[int]) -> None:
        self.ks = tuple(ks)
        self.written = Figures()
        self.pronoun = Figures()
        self.by_category: dict[str, Figures] = {}
        self.pronoun_by_category: dict[str, Figures] = {}
        self.facts = 0  # facts the user memory learnt, every conversation's

    def to_dict(self) -> dict[str, Any]:
        overall = self.written.to_dict(self.ks)
        return {
            "questions": overall["questions"],
            "search": overall["search"],
            "injected": overall["injected"],
            "memory": overall["memory"],
            "memory_facts": self.facts,
            "by_category": {c: f.to_dict(self.ks) for c, f in sorted(self.by_category.items())},
            "pronoun_form": {
                **self.pronoun.to_dict(self.ks),
                "by_category": {
                    c: f.to_dict(self.ks) for c, f in sorted(self.pronoun_by_category.items())
                },
            },
        }


def _share(evidence: frozenset[str], found: Sequence[str | None]) -> float:
    return len(evidence & {f for f in found if f is not None}) / len(evidence)


def eval_embeddings(config: Config, ranker: str) -> Embeddings | None:
    """The endpoint a `--ranker` measures with: `[embeddings]` for hybrid (and for auto
    when it is set), none for lexical."""
    from ctxchat.services.build import build_env

    configured = build_env(config).message_embeddings
    if ranker == "hybrid" and configured is None:
        raise UsageError("--ranker hybrid needs an [embeddings] table in the config")
    return None if ranker == "lexical" else configured


def history_spec(config: Config) -> ProviderSpec:
    """The configured SQL history, else the default one."""
    for spec in config.providers:
        if spec.type == "sql_history":
            return spec
    return ProviderSpec("sql_history", "history", {}, "providers[history]")


async def evaluate(
    config: Config,
    conversations: Sequence[Conversation],
    questions: Sequence[Question],
    *,
    ks: Sequence[int] = DEFAULT_KS,
    recall_limits: dict[str, Any] | None = None,
    progress: Progress | None = None,
    embeddings: Embeddings | None = None,
) -> dict[str, Any]:
    """recall@k of search and the injected share, overall, by category and per form; with
    `embeddings`, each conversation's messages embedded and ranked by words and meaning."""
    from ctxchat.ranking.recall_block import (
        DEFAULT_MAX_MESSAGES,
        DEFAULT_MIN_RELEVANCE,
        WINDOW_SHARE,
        choose,
    )
    from ctxchat.services.build import build_provider
    from ctxchat.services.recall_eval_memory import MemoryIngest, memory_spec

    known = {c.ident: c for c in conversations}
    missing = sorted({q.conversation for q in questions} - known.keys())
    if missing:
        raise RecallDataError(f"questions name conversations not given: {', '.join(missing)}")
    limits = {
        "max_messages": DEFAULT_MAX_MESSAGES,
        "max_tokens": EVAL_WINDOW // WINDOW_SHARE,
        "min_relevance": DEFAULT_MIN_RELEVANCE,
        **(recall_limits or {}),
    }
    report = Report(ks)
    deepest = max(ks)
    total = len(questions) + sum(
        sum(len(s.turns) for s in c.sessions)
        for c in conversations
        if any(q.conversation == c.ident for q in questions)
    )
    done = 0
    for conversation in conversations:
        asked = [q for q in questions if q.conversation == conversation.ident]
        if not asked:
            continue
        with tempfile.TemporaryDirectory(prefix="ctxchat-recall-eval-") as home:
            spec = history_spec(config)
            user = f"recall-eval-{conversation.ident}-{uuid.uuid4().hex[:8]}"
            spec = dataclasses.replace(spec, options={**spec.options, "user": user})
            env = ProviderEnv(
                data_dir=Path(home), storage_url=config.storage.url, message_embeddings=embeddings
            )
            history = build_provider(spec, env)
            if not isinstance(history, SearchableHistory) or not isinstance(
                history, ImportableHistory
            ):
                raise UsageError("recall eval needs a sql_history provider to store into")
            learnt = memory_spec(config)
            memory = MemoryIngest(learnt, env, user) if learnt is not None else None
            keys: list[str] = []
            where: dict[tuple[str, int], str] = {}
            try:
                for session in conversation.sessions:
                    key = uuid.uuid4().hex
                    keys.append(key)
                    seq = 0
                    for user_turn, reply in _turn_pairs(session.turns):
                        said = Message.user(
                            user_turn.text if user_turn else WORDLESS, origin="typed"
                        )
                        messages = [said, Message.assistant(reply.text if reply else WORDLESS)]
                        for turn in (user_turn, reply):
                            seq += 1
                            if turn is not None:
                                where[(key, seq)] = turn.ident
                        await history.import_turn(key, messages, state={}, at=session.when)
                        if memory is not None and user_turn is not None:
                            await memory.learn(key, said, user_turn.ident)
                    done += len(session.turns)
                    if progress is not None:
                        progress(done, total)
                if isinstance(history, EmbeddableHistory):
                    await history.embed_unembedded(keys)
                for question in asked:
                    forms = (
                        (report.written, question.text),
                        (
                            report.pronoun,
                            pronoun_form(question.text, conversation.user, conversation.assistant),
                        ),
                    )
                    for index, (figures, text) in enumerate(forms):
                        hits = await history.search_messages(
                            query_terms(text), limit=max(deepest, 20)
                        )
                        ranked = [where.get((h.key, h.seq)) for h in hits]
                        found = {k: _share(question.evidence, ranked[:k]) for k in ks}
                        near = {
                            k: _share(question.evidence, ranked[:k] + _neighbours(hits[:k], where))
                            for k in ks
                        }
                        block = choose(hits, tokens_of=estimate_tokens, **limits)
                        injected = _share(
                            question.evidence, [where.get((m.key, m.seq)) for m in block]
                        )
                        remembered = (
                            None
                            if memory is None
                            else _share(question.evidence, await memory.recalled_turns(text))
                        )
                        figures.add(ks, found, near, injected, remembered)
                        categories = (
                            report.by_category if index == 0 else report.pronoun_by_category
                        )
                        categories.setdefault(question.category, Figures()).add(
                            ks, found, near, injected, remembered
                        )
                    done += 1
                    if progress is not None:
                        progress(done, total)
                if memory is not None:
                    report.facts += memory.facts()
            finally:
                await history.forget_keys(keys)
                history.close()
                if memory is not None:
                    await memory.forget()
                    memory.close()
    return report.to_dict()


def _neighbours(hits: Sequence[MessageHit], where: dict[tuple[str, int], str]) -> list[str | None]:
    return [where.get((h.key, h.neighbour.seq)) for h in hits if h.neighbour is not None]
