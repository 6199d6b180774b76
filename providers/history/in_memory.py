"""History kept in the session itself: `state["messages"]`, saved with the session file."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ctxchat import HistoryProvider, Message, Session
from ctxchat.kit import WindowedHistoryOptions, count_message_tokens, window_messages

TURN_KEY = "turn"  # extra key on each stored message dict: the id of the turn it belongs to


class InMemoryHistoryProvider(HistoryProvider[WindowedHistoryOptions]):
    """The conversation in `state["messages"]` as serialised message dicts."""

    stores_in_session = True

    @staticmethod
    def _entries(state: dict[str, Any]) -> list[dict[str, Any]]:
        entries = state.setdefault("messages", [])
        if not isinstance(entries, list):
            raise ValueError("state['messages'] is not a list")
        return entries

    async def all_messages(self, session_id: str, *, state: dict[str, Any]) -> list[Message]:
        return [Message.from_dict(e) for e in self._entries(state)]

    async def get_messages(self, session_id: str, *, state: dict[str, Any]) -> list[Message]:
        entries = self._entries(state)
        if self.options.token_limit is None and self.options.message_limit is not None:
            # A window of n messages lies within the newest n, whatever unit the cut falls
            # in (that unit is left out whole), so older entries need not be parsed.
            entries = entries[-self.options.message_limit :]
        messages = [Message.from_dict(e) for e in entries]
        return window_messages(
            messages,
            tokens_of=count_message_tokens,
            max_messages=self.options.message_limit,
            max_tokens=self.options.token_limit,
        )

    async def store_turn(
        self, session_id: str, messages: Sequence[Message], *, state: dict[str, Any], turn_id: str
    ) -> None:
        # Built completely before it is attached, so a failure leaves the list untouched.
        new = [{**m.to_dict(), TURN_KEY: turn_id} for m in messages]
        self._entries(state).extend(new)

    async def discard_turn(self, session_id: str, turn_id: str, *, state: dict[str, Any]) -> bool:
        entries = self._entries(state)
        entries[:] = [e for e in entries if e.get(TURN_KEY) != turn_id]
        return True

    async def remove_last_turn(self, session_id: str, *, state: dict[str, Any]) -> list[Message]:
        entries = self._entries(state)
        if not entries:
            return []
        last = entries[-1].get(TURN_KEY)
        cut = len(entries)
        while cut > 0 and entries[cut - 1].get(TURN_KEY) == last:
            cut -= 1
            if last is None and entries[cut].get("role") == "user":
                # Stored before turns had ids: a turn is taken to start at its user input,
                # or undo would drop the whole untagged history at once.
                break
        removed = entries[cut:]
        del entries[cut:]
        return [Message.from_dict(e) for e in removed]

    async def fork_session(
        self, source: Session, fork: Session, state: dict[str, Any], *, turns: int
    ) -> None:
        """The fork's copy of the messages, cut after its first `turns` turns."""
        if turns >= source.turns:
            return
        entries = self._entries(state)
        seen = 0
        previous: object = object()
        for index, entry in enumerate(entries):
            turn = entry.get(TURN_KEY)
            # A new turn: another id, or (stored before turns had ids) a user input.
            if turn != previous or (turn is None and entry.get("role") == "user"):
                seen += 1
                previous = turn
            if seen > turns:
                del entries[index:]
                return
