"""Opening a chat: the conversation a run goes on with, its role and the model it talks to.

`run` asks for this in one call and renders what comes back (`OpenedChat.notes`). The
model is settled on the conversation alone: a resumed session's model is that session's,
and a later `/new` in the same process starts on the run's own (`ChatService.start_new`),
never on one a resumed session brought.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from ctxchat.services.conversations import ChatService, Conversation


@dataclass(frozen=True)
class RunNote:
    """A line about the run before it starts: a quiet note or a warning."""

    text: str
    kind: Literal["note", "warning"]
    # The endpoint's only model this note names: once shown, it is not said again.
    endpoint_model: str | None = None


@dataclass(frozen=True)
class OpenedChat:
    conversation: Conversation
    notes: tuple[RunNote, ...] = ()


async def open_chat(
    service: ChatService,
    *,
    session: str | None = None,
    latest: bool = False,
    title: str | None = None,
) -> OpenedChat:
    """The session `session` names, the latest (`latest`), or a new one titled `title` (a
    resumed one is renamed to it); given the service's role, and settled on a model: the
    one named, else the endpoint's only one (see `ctxchat.services.model_discovery`)."""
    conversation = _open(service, session=session, latest=latest, title=title)
    roles = service.roles
    role = roles.current.name if roles is not None and roles.current is not None else None
    if roles is not None and role != conversation.session.role:
        service.set_role(conversation, role)
    return OpenedChat(conversation, await _settle(service, conversation))


def _open(
    service: ChatService, *, session: str | None, latest: bool, title: str | None
) -> Conversation:
    if session is not None:
        conversation = service.open(session)
    elif latest:
        conversation = service.open_latest()
    else:
        return service.new(title)
    if title is not None:
        service.rename(conversation, title)
    return conversation


async def _settle(service: ChatService, conversation: Conversation) -> tuple[RunNote, ...]:
    models = service.models
    if models is None:  # OpenAI's own endpoint, or a local model file: nothing to ask
        return ()
    name = conversation.model.name
    if name:
        warning = await models.unlisted(name)
        return (RunNote(warning, "warning"),) if warning else ()
    settled = await models.only_model()
    service.use_model(conversation, settled.name)
    if settled.note is None:
        return ()
    return (RunNote(settled.note, "note", endpoint_model=settled.name),)


def shown(service: ChatService, note: RunNote) -> None:
    """`note` reached the user: an endpoint's only model is said once, not every run."""
    if service.models is not None and note.endpoint_model is not None:
        service.models.said(note.endpoint_model)
