"""Every optional capability a provider may have, in one place.

`ContextProvider` is the turn and nothing more (setup, the hooks, state, source id). What
else a provider can do, it says by implementing one of the protocols below; the engine
and the CLI find it by `isinstance`, never by its type, so a third party's provider is
reached exactly as a built-in is. A capability is a few methods with one job: implement
the whole protocol or none of it.

The provider's data outside the session file:
- `StoresOutsideSession`: it keeps something outside the session file, so a chat that
  must leave nothing behind (`run --temp`) runs without it.
- `ForgetsSessions`: it drops what it keeps of a session being deleted.
- `KeepsSessionData`: it keeps data under keys a session claims (listed and pruned by
  `sessions prune --orphans`).
- `ForksSessions`: it copies or trims what it keeps when a session is forked.
- `ErasesUser`: it deletes every row it keeps of its configured user, marks of forgotten
  facts included (what `recall eval` does to its throwaway users).
- `RecordsMissedTurns`: it records every kept turn, one a killed process left unrecorded
  too (the audit).
- `ChecksReach`: `ctxchat config validate` reaches what it depends on.
- `Closes`: it holds clients or processes to release when the process ends.
- `InDatabase`: it keeps its data in a SQL database (`config show` names which).

What the CLI and the engine may ask of it:
- `AuditSource`: an audit trail (`sessions show --audit`).
- `MemorySource`: facts about the user (`ctxchat memory ...`, `--no-memory`).
- `CommandSource`: slash commands of its own (handlers get a `CommandView`).
- `ToolSource`, `ToolChooser`: tools it loads into the catalogue; tools it chose.
- `UndoesTurns`, `SearchableHistory`, `EmbeddableHistory`, `ImportableHistory`,
  `UsageLedger`: what a history offers beyond loading and storing a turn.
- `ForgetSource`, `ForgottenSources`, `ValueForgetter`: forgetting everywhere (see
  `ctxchat.core.forgetting`).
- `SecretScreen`, `ConversationImporter`, `ImportLearner`: what `ctxchat import` asks (a
  screen for secrets, a history storing a whole conversation, a memory learning from it).

Importing this costs nothing: the types named here are for the type checker only.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from ctxchat.core.audit import AuditRecord
    from ctxchat.core.commands import Command, CommandView
    from ctxchat.core.forgetting import Forgetting
    from ctxchat.core.importing import ImportedTurn, LearnItem
    from ctxchat.core.messages import Message
    from ctxchat.core.model_types import ChatModel
    from ctxchat.core.progress import Progress
    from ctxchat.core.search import HitFilter, MessageHit
    from ctxchat.core.session import Session
    from ctxchat.core.usage import Grouping, UsageGroup


# -- what the CLI and the engine may ask ------------------------------------------------------
@runtime_checkable
class AuditSource(Protocol):
    source_id: str

    async def audit_records(
        self, session_id: str, *, state: dict[str, Any], limit: int | None = None
    ) -> list[AuditRecord]:
        """Recorded turns, oldest first (the last `limit` when given)."""
        ...


@runtime_checkable
class MemorySource(Protocol):
    """A provider that remembers things about the user: `ctxchat memory list|forget|
    export|eval`, and `--no-memory` leaving it out of a run. Facts cross this line as plain
    JSON-ready dicts, so the CLI needs nothing of the provider's own types."""

    source_id: str

    def remembered(self) -> list[dict[str, Any]]:
        """Every active fact of the configured user: id, slot, label, value, first_seen,
        last_seen, provenance {session_id, message_id}, history [...]."""
        ...

    def forget_fact(self, fact_id: str) -> bool:
        """Delete the fact and its history for real; False when there is no such fact."""
        ...

    async def evaluate_cases(
        self, path: Path, *, extractor: str | None, model: ChatModel, progress: Progress | None
    ) -> dict[str, Any]:
        """Run a case file through the provider, each case in a fresh isolated store:
        `{"pass_rate", "by_tag", "failed"}`."""
        ...


@runtime_checkable
class CommandSource(Protocol):
    """A provider that adds slash commands (for example /memory): its handlers get a
    `CommandView`, whose `state` is the provider's own state in the conversation's session."""

    source_id: str

    def commands(self) -> Sequence[Command[CommandView]]: ...


@runtime_checkable
class ToolSource(Protocol):
    """A provider that fills the shared catalogue (`ProviderEnv.tools`) from sources that
    are slow to reach (MCP servers start as processes). `load_tools` is called when the
    catalogue is first needed (a turn, `/tools`, `ctxchat tools list`) and never before;
    each source that cannot be reached is reported through `warn`, one line each, and left
    out."""

    source_id: str

    async def load_tools(self, warn: Callable[[str], None]) -> None: ...


@runtime_checkable
class ToolChooser(Protocol):
    """A provider that chooses which tools of the catalogue to advertise (the selector):
    `/tools` shows the scores it gave on the session's last turn."""

    source_id: str

    def last_scores(self, state: dict[str, Any]) -> Mapping[str, float | None]:
        """Tool name -> its score on the last stored turn (None: offered unranked)."""
        ...


# -- what a history offers beyond a turn ------------------------------------------------------
@runtime_checkable
class SearchableHistory(Protocol):
    """A history provider whose stored messages can be searched by words."""

    source_id: str

    async def search_messages(
        self,
        terms: Sequence[str],
        *,
        limit: int,
        keys: Collection[str] | None = None,
        exclude: HitFilter | None = None,
        warn: Callable[[str], None] | None = None,
    ) -> list[MessageHit]:
        """The best `limit` of this user's messages for the terms, best first; only those
        under `keys` (history keys) when given; none that `exclude` refuses. `warn` is told
        when the search ranks less well than configured (an embeddings endpoint failed)."""
        ...

    def session_keys(self, session: Any, state: dict[str, Any]) -> set[str]: ...


@runtime_checkable
class UndoesTurns(Protocol):
    """A history that can take its last stored turn back (`/undo`)."""

    async def remove_last_turn(self, session_id: str, *, state: dict[str, Any]) -> list[Message]:
        """Drop the most recent stored turn; returns what was removed."""
        ...


@runtime_checkable
class EmbeddableHistory(Protocol):
    """A history whose stored messages can be given vectors (hybrid search)."""

    async def count_unembedded(self, keys: Collection[str] | None = None) -> int: ...

    async def embed_unembedded(
        self,
        keys: Collection[str] | None = None,
        *,
        progress: Callable[[int, int], None] | None = None,
    ) -> int: ...

    def close(self) -> None: ...


@runtime_checkable
class ImportableHistory(Protocol):
    """A history that can store a turn said at a given time (an imported conversation)."""

    async def import_turn(
        self, session_id: str, messages: Sequence[Any], *, state: dict[str, Any], at: datetime
    ) -> None: ...

    async def forget_keys(self, keys: Collection[str]) -> None: ...

    def close(self) -> None: ...


@runtime_checkable
class UsageLedger(Protocol):
    """A history that writes a ledger row with each stored turn."""

    source_id: str

    async def usage_groups(
        self,
        by: Grouping,
        *,
        since: datetime | None = None,
        keys: Collection[str] | None = None,
    ) -> list[UsageGroup]:
        """This user's ledger summed by `by` and model; only rows written at or after
        `since`, and only under the history `keys`, when given."""
        ...

    def session_keys(self, session: Any, state: dict[str, Any]) -> set[str]: ...


# -- forgetting everywhere --------------------------------------------------------------------
@runtime_checkable
class ForgetSource(Protocol):
    """A provider that forgets (the user's memory): what it forgot after `since`."""

    def forgettings_since(self, since: datetime | None) -> list[Forgetting]: ...


@runtime_checkable
class ForgottenSources(Protocol):
    """A provider that knows which stored messages a forgotten fact was learnt from: what
    recall and the model's `search_sessions` must leave out."""

    def forgotten_message_ids(self) -> set[str]: ...


@runtime_checkable
class ValueForgetter(Protocol):
    """A provider keeping copies of what was sent (the audit): replace the values of
    `forgetting` in its copies; returns how many it replaced."""

    async def forget_values(self, values: Sequence[str], forgetting: Forgetting) -> int: ...


# -- where it keeps its data ------------------------------------------------------------------
@runtime_checkable
class StoresOutsideSession(Protocol):
    @property
    def stores_outside_session(self) -> bool:
        """Whether it keeps anything outside the session file (rows in a database): a chat
        that must leave nothing behind (`ctxchat run --temp`) runs without it."""
        ...


@runtime_checkable
class ForgetsSessions(Protocol):
    async def forget_session(self, session: Session, state: dict[str, Any]) -> None:
        """The session is being deleted: drop whatever this provider keeps outside it."""
        ...


@runtime_checkable
class ErasesUser(Protocol):
    def erase_user(self) -> int:
        """Delete every row kept of the configured user, in one transaction: facts active
        and retired, their history, and the marks of forgotten ones (a user's own forgetting
        keeps those marks, which keep the forgotten out of recall; a user that never was, as
        `recall eval`'s, leaves nothing). Returns the rows deleted."""
        ...


@runtime_checkable
class KeepsSessionData(Protocol):
    """What is kept outside session files, for `sessions prune --orphans`."""

    def session_keys(self, session: Session, state: dict[str, Any]) -> set[str]:
        """The keys under which this provider keeps the session's data outside its file
        (a SQL history's key, the audit's session id). Rows under a key no session on disk
        claims are orphans: their session was deleted by hand, or moved aside unreadable."""
        ...

    async def stored_keys(self) -> dict[str, int]:
        """Every key this provider keeps data under outside session files, with how many
        records (rows) each holds."""
        ...

    async def forget_keys(self, keys: Collection[str]) -> None:
        """Drop everything kept under `keys`: no session claims them any more."""
        ...


@runtime_checkable
class ForksSessions(Protocol):
    async def fork_session(
        self, source: Session, fork: Session, state: dict[str, Any], *, turns: int
    ) -> None:
        """`fork` is being made from `source`'s first `turns` turns (all of them, or fewer).
        `state` is this provider's state in the fork: a deep copy of its state in `source`.
        Copy what this provider keeps outside the session file under the fork's own keys
        (so that the two never share it), and drop from `state` what belongs to the turns
        left out. A provider without it keeps the copy as it is; if this raises, the fork
        is not made and `forget_session` is called on the providers that forked already."""
        ...


@runtime_checkable
class RecordsMissedTurns(Protocol):
    source_id: str

    async def record_missed_turn(
        self,
        *,
        session: Session,
        turn_id: str,
        messages: Sequence[Message],
        state: dict[str, Any],
    ) -> None:
        """A kept turn whose `record_turn` may never have run: its process was killed
        between the save that counted it and the record stage. The next process to hold
        the session's lock calls this with what the history kept of the turn (`messages`:
        its input, then what the model produced). Record it unless it is recorded already
        (the process may have died later, while providers learnt). A failure is retried
        by the next process."""
        ...


@runtime_checkable
class ChecksReach(Protocol):
    def check(self) -> None:
        """Reach what the provider depends on (open its database, say) and raise a
        `CtxchatError` if it cannot: `ctxchat config validate` calls this. Unlike `setup`,
        it may be slow or touch the outside world; a normal run never calls it."""
        ...


@runtime_checkable
class Closes(Protocol):
    def close(self) -> None:
        """Release clients and connections; the process is about to end."""
        ...


@runtime_checkable
class InDatabase(Protocol):
    """A provider that keeps its data in a SQL database (`SqlBacked`), by structure, so the
    config report needs no import of the providers."""

    def database_url(self) -> str: ...


# -- what `ctxchat import` asks ----------------------------------------------------------
@runtime_checkable
class SecretScreen(Protocol):
    """Masks what looks like a secret in a text: `(masked text, how many were masked)`.
    A class may offer it (a static method): the screen needs no open store."""

    def mask_secrets(self, text: str) -> tuple[str, int]: ...


@runtime_checkable
class ConversationImporter(Protocol):
    """A history kept outside the session file that stores a whole imported conversation
    in one transaction: all its turns or none."""

    async def import_conversation(
        self, session_id: str, turns: Sequence[ImportedTurn], *, state: dict[str, Any]
    ) -> None: ...


@runtime_checkable
class ImportLearner(Protocol):
    """A memory that learns from imported messages: first what it would keep (nothing
    stored), then, once the user agrees, keeping it."""

    async def preview_learning(self, items: Sequence[LearnItem]) -> list[str]: ...

    async def learn_from(self, items: Sequence[LearnItem]) -> list[str]: ...
