"""A table's chat line on its way out (docs/moderation.md, "Chat filter"):
every reader gets it masked by the chat filter, a reader who turned the
filter off also gets it as said (``raw``), and the store's chat log keeps
it (as said) for moderators. The table actor holds one :class:`ChatCast`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from fourhundred.store import ChatLine

from . import frames
from .chat import ChatRoom
from .ports import TableDeps, Watcher
from .room import TableModel

__all__ = ["ChatCast"]


class ChatCast:
    __slots__ = ("deps", "room")

    def __init__(self, table: str, deps: TableDeps) -> None:
        self.room = ChatRoom(table, deps.chat_filter.mask)
        self.deps = deps

    def say(self, m: TableModel, watchers: Iterable[Watcher], w: Watcher, text: str) -> None:
        """Post ``text`` from ``w`` (or raise ``CommandError``) and send it."""
        deps, chat = self.deps, self.room
        player = m.role_seat(w.user_id) is not None
        line = chat.post(w.user_id, w.user_name, text, player=player, clock=deps.clock)
        masked = frames.encode(msgspec.structs.replace(line, raw=None))
        whole = masked if line.raw is None else frames.encode(line)
        for r in watchers:
            plays = m.role_seat(r.user_id) is not None
            if chat.reaches(line, player=plays, muted=deps.mutes(r.user_id)):
                r.send(whole if deps.unfiltered(r.user_id) else masked)
        said = line.raw if line.raw is not None else line.text
        deps.chat_log(
            ChatLine(m.id, m.version, w.user_id, w.user_name, line.channel, said, line.at_ms)
        )

    def entries(self, m: TableModel, user_id: str) -> list[dict[str, Any]]:
        """The chat a reader's snapshot holds (``raw`` only if they unfiltered)."""
        player = m.role_seat(user_id) is not None
        lines = self.room.history(player=player, muted=self.deps.mutes(user_id))
        out = [frames.chat_entry(c) for c in lines]
        if not self.deps.unfiltered(user_id):
            for entry in out:
                entry.pop("raw", None)
        return out
