"""Typed errors. Each carries the exit code the CLI turns it into, in one place."""

from __future__ import annotations

from collections.abc import Sequence

EXIT_OK = 0
EXIT_FAILURE = 1  # the model or a tool failed
EXIT_USAGE = 2  # usage or config error
EXIT_INTERRUPTED = 130


class CtxchatError(Exception):
    """Base of every error ctxchat reports to a user as one line."""

    exit_code = EXIT_FAILURE

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        # What the user reads, a line each: most errors are one problem, a config file
        # checked as a whole may have several (see `ConfigError.of`).
        self.problems: tuple[str, ...] = (message,)

    def __str__(self) -> str:
        return self.message


def exit_code_of(exc: BaseException) -> int:
    """The exit code `exc` means: a ctxchat error's own, any other a failure. An error that
    wraps a cause (a provider's, a turn's) exits as its cause does."""
    return exc.exit_code if isinstance(exc, CtxchatError) else EXIT_FAILURE


class ProblemGroup(CtxchatError):
    """Problems found in one pass and reported together, a line each: every error of a
    config checked as a whole, the sessions a delete could not remove. It exits with
    `exit_code`: a usage error unless the caller names the deciding cause's."""

    def __init__(self, problems: Sequence[str], exit_code: int = EXIT_USAGE) -> None:
        super().__init__("; ".join(problems))
        self.problems = tuple(problems)
        self.exit_code = exit_code


class UsageError(CtxchatError):
    exit_code = EXIT_USAGE


class ConfigError(CtxchatError):
    exit_code = EXIT_USAGE

    @classmethod
    def of(cls, problems: Sequence[str]) -> ConfigError:
        """Every problem found in one pass (all the errors of a config file), a line each;
        the message joins them for whoever shows one line."""
        error = cls("; ".join(problems))
        error.problems = tuple(problems)
        return error

    def prefixed(self, prefix: str) -> ConfigError:
        """The same problems, each starting with `prefix` (the config file's path)."""
        return ConfigError.of([prefix + problem for problem in self.problems])


class SessionError(CtxchatError):
    exit_code = EXIT_USAGE


class SessionNotFound(SessionError):
    pass


class SessionInUse(SessionError):
    exit_code = EXIT_FAILURE


class SessionCorrupt(SessionError):
    """A session file that cannot be read: bad input, like a bad config file (exit 2)."""


class FileWriteError(CtxchatError):
    """A file ctxchat keeps could not be written (read-only home, full disk, a path under
    a regular file...): the user's environment to fix, so it exits like a config error."""

    exit_code = EXIT_USAGE

    @classmethod
    def of(cls, path: object, exc: OSError) -> FileWriteError:
        where = exc.filename if exc.filename is not None else path
        return cls(f"cannot write {where}: {exc.strerror or exc}")


class StorageError(CtxchatError):
    """A history or memory backend failed (database unreachable, schema too new...)."""

    exit_code = EXIT_FAILURE


class ModelError(CtxchatError):
    """The model endpoint failed; the message is already user-facing."""


class ContextOverflow(ModelError):
    """The server refused the request for its size (the engine says by how much)."""

    exit_code = EXIT_USAGE


class ModelNotConfigured(ModelError):
    exit_code = EXIT_USAGE


class ProviderError(CtxchatError):
    """A context provider raised; the message names its source_id."""

    def __init__(self, source_id: str, stage: str, cause: BaseException) -> None:
        detail = str(cause) or type(cause).__name__
        super().__init__(f"provider '{source_id}' failed in {stage}: {detail}")
        self.source_id = source_id
        self.stage = stage
        self.cause = cause
        # A provider that failed on a config or storage problem exits as that problem does.
        self.exit_code = exit_code_of(cause)


class ToolLoopLimit(CtxchatError):
    def __init__(self, rounds: int) -> None:
        super().__init__(
            f"stopped after {rounds} tool rounds without a final answer "
            "(raise agent.max_tool_rounds to allow more)"
        )
        self.rounds = rounds


class TurnCancelled(CtxchatError):
    exit_code = EXIT_INTERRUPTED

    def __init__(self) -> None:
        super().__init__("interrupted")


class LearningInterrupted(CtxchatError):
    """Ctrl-C while providers learnt from a turn: the turn itself was kept (and recorded),
    only what they would have learnt is missing."""

    exit_code = EXIT_INTERRUPTED

    def __init__(self) -> None:
        super().__init__("interrupted while providers learnt from the turn: the turn was kept")


class TurnNotStored(CtxchatError):
    """The reply came (and was shown) but the turn could not be kept: a history could not
    store it, or the session file could not be saved after they did. The turn counts as
    failed, so nothing else records it as kept. `kept_by` names the histories that still
    hold it because undoing their store failed too (the session's journal removes it
    there the next time the session is opened)."""

    def __init__(self, reason: str, *, kept_by: tuple[str, ...] = ()) -> None:
        super().__init__(f"the reply was shown but not saved: {reason}")
        self.kept_by = kept_by

    @classmethod
    def by_history(cls, source_id: str, detail: str) -> TurnNotStored:
        return cls(f"history '{source_id}' {detail.removeprefix('after_run ')}")


class LocalServerError(CtxchatError):
    """The local model server (llama.cpp in a child process) did not start or stopped
    answering; the message says why in a line."""


class LocalServerUnavailable(LocalServerError):
    """What the local model server needs is missing (xllamacpp, the OpenMP runtime it
    links, the model file): the user's environment to fix, so it exits like a config error."""

    exit_code = EXIT_USAGE
